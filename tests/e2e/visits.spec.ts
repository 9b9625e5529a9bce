/**
 * The owner's visits figures, as the page's own script reports them: a browser a person could be
 * using (no WebDriver flag), with a context for each reader and its own user agent, reads pages
 * from a campaign and from LinkedIn; the script's beacons are counted, a lead converts, the Visits
 * section shows it, and no reader holds a cookie or a localStorage key. What the server decides of
 * a view it is sent (crawlers, Sec-GPC, Do Not Track, one visitor per hash) is checked without a
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
      won: 0,
      subscribers: 0,
    });
    const linkedin = (report: VisitsReport) =>
      report.sources.find((row) => row.source === 'linkedin.com')?.visitors ?? 0;
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
    expect(converted.campaigns.find((row) => row.campaign === campaign)).toMatchObject({ visitors: 2, leads: 1 });

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
