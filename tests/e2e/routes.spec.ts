import { expect, test } from '@playwright/test';
import { ALL_ROUTES, NOINDEX_ROUTES } from '../support/routes';

test.describe('every route of the specification', () => {
  for (const route of ALL_ROUTES) {
    test(`${route} answers 200 with one h1, SEO tags and no console error`, async ({ page }) => {
      const errors: string[] = [];
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
      await page.waitForLoadState('networkidle');
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
