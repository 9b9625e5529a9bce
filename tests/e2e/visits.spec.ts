/**
 * The owner's visits figures, as the page's own script reports them: a browser a person could be
 * using (no WebDriver flag), with a context for each reader and its own user agent, reads pages
 * from a campaign and from LinkedIn; the script's beacons are counted, a lead converts, the Visits
 * section shows it, and no reader holds a cookie or a localStorage key; a reader whose browser
 * asks not to be followed sends no view at all. What the server decides of a view it is sent
 * (crawlers, Sec-GPC, Do Not Track, other sites, one visitor per hash) is checked without a
 * browser, in tests/integration/visits.test.ts.
 */
import { chromium, expect, test, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../../scripts/harness/chromium';
import type { VisitsReport } from '../../src/shared/api-responses';
import { logIn } from '../support/admin-login';
import { e2eOrigin, uniqueEmail } from '../support/e2e-env';

const AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
];
const LINKEDIN_READER =
  'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36';

/** Chromium as a person runs it: without the automation switch that sets navigator.webdriver. */
const launchPersonal = () =>
  chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_FLAGS, '--disable-blink-features=AutomationControlled'],
    ignoreDefaultArgs: ['--enable-automation'],
  });

/** Opens a page and waits until its script's view has been reported and answered. */
async function read(page: Page, url: string, referer?: string) {
  const reported = page.waitForResponse((response) => response.url().endsWith('/api/visits'));
  await page.goto(url, referer ? { referer } : {});
  return (await reported).status();
}

declare global {
  interface Window {
    /** The bodies the page's script handed to navigator.sendBeacon (recordBeacons). */
    visitsBeacons?: string[];
  }
}

/**
 * An init script: the browser's privacy signal as a person's settings would set it, and every
 * beacon recorded instead of sent, so this test adds nothing to the figures the other one reads.
 */
function recordBeacons(signal: 'none' | 'Global Privacy Control' | 'Do Not Track') {
  if (signal === 'Global Privacy Control')
    Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true });
  if (signal === 'Do Not Track') Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' });
  const beacons: string[] = [];
  window.visitsBeacons = beacons;
  navigator.sendBeacon = (_url, data) => {
    beacons.push(String(data));
    return true;
  };
}

/**
 * Waits until the page's script would have sent its view: the largest paint reported to an
 * observer made after the script's, then a task queued after the one the script queues then.
 */
function pastItsReport(page: Page) {
  return page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        new PerformanceObserver((_entries, observer) => {
          observer.disconnect();
          setTimeout(() => setTimeout(resolve));
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
  );
}

async function report(page: Page): Promise<VisitsReport> {
  const response = await page.request.get('/api/admin/visits');
  expect(response.status()).toBe(200);
  return (await response.json()) as VisitsReport;
}

test('visitors, campaigns and sources are counted without cookies, and a lead converts', async ({ page }) => {
  // A browser of its own, launched and closed here, and five pages each waited on until its
  // beacon is answered: on a 2-core machine under a parallel run that takes most of a minute.
  test.setTimeout(120_000);
  const campaign = `e2e-autumn-${Date.now().toString(36)}`;
  // One browser; each reader a context of it, with nothing shared between them.
  const browser = await launchPersonal();
  const contexts: BrowserContext[] = [];
  const visitor = async (userAgent: string) => {
    const context = await browser.newContext({ userAgent, baseURL: e2eOrigin });
    contexts.push(context);
    return context.newPage();
  };
  try {
    await logIn(page);
    const before = await report(page);

    const campaignReaders: Page[] = [];
    for (const agent of AGENTS) {
      const reader = await visitor(agent);
      campaignReaders.push(reader);
      expect(await read(reader, `/zoho?utm_source=newsletter&utm_medium=email&utm_campaign=${campaign}`)).toBe(202);
      expect(await read(reader, '/sectors')).toBe(202);
    }
    const fromLinkedIn = await visitor(LINKEDIN_READER);
    expect(await read(fromLinkedIn, '/blog', 'https://www.linkedin.com/feed/')).toBe(202);

    const after = await report(page);
    expect(after.totals.visitors - before.totals.visitors).toBe(3);
    expect(after.totals.pageviews - before.totals.pageviews).toBe(5);
    expect(after.campaigns.find((row) => row.campaign === campaign)).toEqual({
      campaign,
      visitors: 2,
      leads: 0,
      measuredLeads: 0,
      won: 0,
      subscribers: 0,
    });
    // www.linkedin.com counts under LinkedIn's one name (functions/_lib/visits/source-names.ts).
    const linkedin = (report: VisitsReport) => report.sources.find((row) => row.source === 'LinkedIn')?.visitors ?? 0;
    expect(linkedin(after) - linkedin(before)).toBe(1);

    // One campaign visitor asks for the Zoho guide, on the page the campaign brought them to.
    const asking = campaignReaders[0];
    if (!asking) throw new Error('no campaign reader');
    await asking.goto('/zoho');
    const form = asking.getByRole('form', { name: 'Request the Zoho guide' });
    await form.getByLabel('First name').fill('Grace');
    await form.getByLabel('Last name').fill('Hopper');
    await form.getByLabel('E-mail').fill(uniqueEmail('visits'));
    const sent = asking.waitForResponse((response) => new URL(response.url()).pathname === '/api/leads/create');
    await form.getByRole('button', { name: 'Send me the guide' }).click();
    expect((await sent).status()).toBe(201);

    const converted = await report(page);
    expect(converted.campaigns.find((row) => row.campaign === campaign)).toMatchObject({
      visitors: 2,
      leads: 1,
      measuredLeads: 1,
    });

    // The Visits section shows the campaign: 2 visitors, 1 lead, 50 %.
    await page.reload();
    const visits = page.getByRole('region', { name: 'Visits' });
    const row = visits.getByRole('row').filter({ hasText: campaign });
    await expect(row).toContainText('2');
    await expect(row).toContainText('50%');

    for (const context of contexts) {
      expect(await context.cookies(), 'no cookie').toEqual([]);
      for (const opened of context.pages())
        expect(await opened.evaluate(() => Object.keys(localStorage)), 'no localStorage key').toEqual([]);
    }
  } finally {
    await browser.close();
  }
});

test('a reader who asks not to be followed sends no view; anyone else sends one, without utm_medium', async () => {
  const browser = await launchPersonal();
  try {
    const beaconsOf = async (signal: Parameters<typeof recordBeacons>[0]) => {
      const context = await browser.newContext({ userAgent: LINKEDIN_READER, baseURL: e2eOrigin });
      await context.addInitScript(recordBeacons, signal);
      const page = await context.newPage();
      await page.goto('/zoho?utm_source=newsletter&utm_medium=email&utm_campaign=e2e-signals');
      await pastItsReport(page);
      return page.evaluate(() => (window.visitsBeacons ?? []).map((body) => JSON.parse(body) as unknown));
    };
    // Without a signal the same wait sees the view: the wait is long enough to see one.
    expect(await beaconsOf('none')).toEqual([{ path: '/zoho', utm_source: 'newsletter', utm_campaign: 'e2e-signals' }]);
    expect(await beaconsOf('Global Privacy Control')).toEqual([]);
    expect(await beaconsOf('Do Not Track')).toEqual([]);
  } finally {
    await browser.close();
  }
});
