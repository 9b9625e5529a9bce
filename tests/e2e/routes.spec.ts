import { expect, test } from '@playwright/test';
import { ALL_ROUTES, NOINDEX_ROUTES } from '../support/routes';

test.describe('every route of the specification', () => {
  for (const route of ALL_ROUTES) {
    test(`${route} answers 200 with one h1, SEO tags, no console error and no CSP violation`, async ({ page }) => {
      const errors: string[] = [];
      // Some violations never reach the console (a library probing for eval inside a try, say); the event always fires.
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) =>
          console.error(
            `CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI} in ${event.sourceFile}:${event.lineNumber}`,
          ),
        );
      });
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));

      const response = await page.goto(route);
      expect(response?.status()).toBe(200);
      await expect(page.locator('h1')).toHaveCount(1);
      await expect(page).toHaveTitle(/\S/);
      expect(await page.locator('meta[name="description"]').getAttribute('content')).toBeTruthy();
      expect(await page.locator('meta[property="og:image"]').getAttribute('content')).toMatch(/^https?:\/\/.+\.png$/);
      expect(await page.locator('meta[name="twitter:card"]').getAttribute('content')).toBe('summary_large_image');
      if (NOINDEX_ROUTES.includes(route)) {
        await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
      } else {
        const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
        expect(canonical).toMatch(new RegExp(`^https?://[^/]+${route === '/' ? '/?' : route}$`));
      }
      for (const block of await page.locator('script[type="application/ld+json"]').allTextContents()) {
        expect(() => JSON.parse(block)).not.toThrow();
      }
      // Down to the footer, so every island on the page loads and runs.
      await page.getByRole('contentinfo').scrollIntoViewIfNeeded();
      await page.waitForLoadState('networkidle');
      await expect(page.getByRole('contentinfo').locator('astro-island')).toHaveCount(1);
      await expect(page.getByRole('contentinfo').locator('astro-island[ssr]')).toHaveCount(0);
      expect(errors).toEqual([]);
    });
  }

  test('titles are unique across pages', async ({ request }) => {
    const titles = new Map<string, string>();
    for (const route of ALL_ROUTES) {
      const html = await (await request.get(route)).text();
      const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
      expect(titles.get(title), `${route} repeats the title of ${titles.get(title)}`).toBeUndefined();
      titles.set(title, route);
    }
  });
});
