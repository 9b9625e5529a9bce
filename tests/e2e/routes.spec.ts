/**
 * Every route, visited once in a desktop browser: what a person and a crawler get (status, one
 * h1, the SEO tags), what only a browser can tell (no console error or CSP violation, the
 * footer's island running, each form's honeypot out of sight and out of the accessibility tree)
 * and axe's WCAG 2.2 A/AA rules on the page as it loads. One visit carries all of them, since
 * loading the page is most of each check's cost.
 */
import { expect, type ConsoleMessage } from '@playwright/test';
import { expectNoViolations } from '../support/axe';
import { expectHiddenHoneypot } from '../support/honeypot';
import { DESKTOP, testOnOnePage } from '../support/one-page';
import { ALL_ROUTES, NOINDEX_ROUTES } from '../support/routes';
import { UNCOUNTED_PATH } from '../../src/shared/pages';

const test = testOnOnePage(DESKTOP, (page) =>
  // Some violations never reach the console (a library probing for eval inside a try, say); the event always fires.
  page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(
        `CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI} in ${event.sourceFile}:${event.lineNumber}`,
      ),
    );
  }),
).extend<{ consoleErrors: string[] }>({
  /** The errors the page logs or throws during the test, CSP violations included. */
  consoleErrors: async ({ onePage }, use) => {
    const errors: string[] = [];
    const onConsole = (message: ConsoleMessage) => {
      if (message.type() === 'error') errors.push(message.text());
    };
    const onError = (error: Error) => errors.push(error.message);
    onePage.on('console', onConsole);
    onePage.on('pageerror', onError);
    await use(errors);
    onePage.off('console', onConsole);
    onePage.off('pageerror', onError);
  },
});

const NOT_FOUND = '/no-such-page';

test.describe('every route of the specification', () => {
  for (const route of [...ALL_ROUTES, NOT_FOUND]) {
    const found = route !== NOT_FOUND;
    test(`${route} answers ${found ? '200 with one h1, SEO tags,' : '404 with'} hidden honeypots, no WCAG violation, no console error and no CSP violation`, async ({
      onePage: page,
      consoleErrors,
    }) => {
      const response = await page.goto(route);
      expect(response?.status()).toBe(found ? 200 : 404);
      await expect(page.locator('h1')).toHaveCount(1);
      if (found) {
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
      }

      await test.step('no WCAG 2.2 A/AA violation', () => expectNoViolations(page));

      // The forms a visitor can send (the admin's own login, drawn once its island runs, aside);
      // the contact dialog's is checked open, in honeypot.spec.ts.
      const forms = page.locator('form:not([aria-label="Admin login"])').filter({ visible: true });
      const names: string[] = [];
      for (const form of await forms.all()) {
        const name = (await form.getAttribute('aria-label')) ?? '(unnamed form)';
        names.push(name);
        await test.step(`the honeypot of ${name}`, () => expectHiddenHoneypot(page, form));
      }
      if (UNCOUNTED_PATH.test(route)) {
        // The owner's page has none of the public site's parts: no footer, no signup.
        expect(names).toEqual([]);
        await expect(page.getByRole('contentinfo')).toHaveCount(0);
        await page.waitForLoadState('networkidle');
      } else {
        // Every public page has at least the footer signup.
        expect(names).toContain('Newsletter signup');

        // Down to the footer, so every island on the page loads and runs.
        await page.getByRole('contentinfo').scrollIntoViewIfNeeded();
        await page.waitForLoadState('networkidle');
        await expect(page.getByRole('contentinfo').locator('astro-island')).toHaveCount(1);
        await expect(page.getByRole('contentinfo').locator('astro-island[ssr]')).toHaveCount(0);
      }
      // The browser reports a 404 status itself; it is the answer that route must give.
      expect(consoleErrors.filter((error) => found || !/status of 404/.test(error))).toEqual([]);
    });
  }
});
