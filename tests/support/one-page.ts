/**
 * One page per worker for the specs whose tests change nothing that outlives a load: visiting
 * every route, opening the menu or the contact dialog, tabbing through a page. A new browser
 * context for each test starts a renderer process of its own, which on a 2-core machine took as
 * long as loading and checking the page (8 routes: 19.6 s with a context each, 9.4 s on one page;
 * the header's 20 tests: 63 s of worker time, 24 s on one page). Each test still loads its page
 * afresh and sets the size it needs; what a page keeps between loads (its session storage, the
 * HTTP cache) does not touch what these specs check. Specs that submit, store, intercept requests
 * or set the clock keep Playwright's own page, new for every test.
 */
import { test as base, devices, type BrowserContextOptions, type Page } from '@playwright/test';

const { defaultBrowserType: _browser, ...desktop } = devices['Desktop Chrome'];
/** The device of the e2e project (playwright.config.ts), which a context made by hand does not get by itself. */
export const DESKTOP: BrowserContextOptions = desktop;

/** A test whose `onePage` is its worker's page, made with `options` and readied once by `setUp`. */
export function testOnOnePage(
  options: BrowserContextOptions,
  setUp: (page: Page) => Promise<unknown> = async () => {},
) {
  return base.extend<{ onePage: Page }, { workerPage: Page }>({
    workerPage: [
      async ({ browser }, use, workerInfo) => {
        const context = await browser.newContext({ baseURL: workerInfo.project.use.baseURL, ...options });
        const page = await context.newPage();
        await setUp(page);
        await use(page);
        await context.close();
      },
      { scope: 'worker' },
    ],
    onePage: async ({ workerPage }, use) => use(workerPage),
  });
}
