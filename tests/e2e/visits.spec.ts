/**
 * The owner's audience figures, as people make them: browsers that a person could be using (no
 * WebDriver flag, each its own user agent) read pages from a campaign and from LinkedIn; a crawler
 * and a browser sending Sec-GPC read pages too and are not counted. The figures are read back from
 * the admin's API and the Visits section, and no browser holds a cookie or a localStorage key.
 */
import { chromium, expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../../scripts/harness/chromium';
import type { VisitsReport } from '../../src/shared/api';
import { logIn } from '../support/admin-login';
import { e2eOrigin, uniqueEmail } from '../support/e2e-env';

const AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
];
const LINKEDIN_READER =
  'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36';
const GPC_READER = 'Mozilla/5.0 (X11; Linux x86_64; rv:145.0) Gecko/20100101 Firefox/145.0';
const CRAWLER = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

/** Chromium as a person runs it: without the automation switch that sets navigator.webdriver. */
const launchPersonal = () =>
  chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_FLAGS, '--disable-blink-features=AutomationControlled'],
    ignoreDefaultArgs: ['--enable-automation'],
  });

/** Opens a page and waits until its view has been reported (or, for those not counted, answered). */
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
  // Six browsers of their own, each launched and closed here: on a 2-core machine under a
  // parallel run that alone takes most of the default 30 s.
  test.setTimeout(120_000);
  const campaign = `e2e-autumn-${Date.now().toString(36)}`;
  const browsers: Browser[] = [];
  const contexts: BrowserContext[] = [];
  const visitor = async (userAgent: string, extraHTTPHeaders: Record<string, string> = {}) => {
    const browser = await launchPersonal();
    browsers.push(browser);
    const context = await browser.newContext({ userAgent, extraHTTPHeaders, baseURL: e2eOrigin });
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
    expect(await read(await visitor(CRAWLER), '/blog')).toBe(204);
    expect(await read(await visitor(GPC_READER, { 'Sec-GPC': '1' }), '/blog')).toBe(204);

    const after = await report(page);
    expect(after.totals.visitors - before.totals.visitors).toBe(4);
    expect(after.totals.pageviews - before.totals.pageviews).toBe(7);
    expect(after.campaigns.find((row) => row.campaign === campaign)).toEqual({
      campaign,
      visitors: 3,
      leads: 0,
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
    expect(converted.campaigns.find((row) => row.campaign === campaign)).toMatchObject({ visitors: 3, leads: 1 });

    // The Visits section shows the campaign: 3 visitors, 1 lead, 33 %.
    await page.reload();
    const visits = page.getByRole('region', { name: 'Visits' });
    const row = visits.getByRole('row').filter({ hasText: campaign });
    await expect(row).toContainText('3');
    await expect(row).toContainText('33%');

    for (const context of contexts) {
      expect(await context.cookies(), 'no cookie').toEqual([]);
      for (const opened of context.pages())
        expect(await opened.evaluate(() => Object.keys(localStorage)), 'no localStorage key').toEqual([]);
    }
  } finally {
    for (const browser of browsers) await browser.close();
  }
});
