import { expect, test, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { createSqliteStore } from '../support/stores';
import { seedStore } from '../../scripts/admin/seed-store.ts';
import type { SiteServer } from '../../scripts/harness/site-server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../scripts/harness/webhook-receiver.ts';
import { expectNoViolations } from '../support/axe';
import { proofFrom } from '../support/solved-proofs';
import { overflow } from '../support/overflow';
import { logIn } from '../support/admin-login';
import { ownStoreFolder, startServerAt, stopServerAt } from '../support/own-server';

/**
 * The owner checks that every lead reached someone, on a phone and on a laptop. The spec has a
 * store of its own (10,000 seeded leads and one sent through the API) and a server of its own
 * (no mail settings, so e-mails go to the local outbox folder; the webhook to a receiver started
 * here), so the other specs' records neither crowd nor change what it sees.
 */
const WIDTH = 375;
const LEADS = 10_000;
/** 64 characters before the @ and 254 in all: the longest address the forms accept. */
const LONG_EMAIL = `${'l'.repeat(64)}@${`${'a'.repeat(40)}.`.repeat(4)}${'b'.repeat(13)}.example.com`;
const NAME = 'Maximiliane Wolkenstein-Oberhollenzer';
/** Seeded subscribers: one in ten never confirms, one in twenty confirms and later leaves (scripts/admin/seed-store.ts). */
const SUBSCRIBERS = 500;

test.describe.configure({ mode: 'serial', timeout: 90_000 });

let folder = '';
let server: SiteServer | undefined;

/** The owner's CRM. */
let receiver: WebhookReceiver | undefined;

/** The outbox's figures, read from the store itself. */
async function outboxCounts() {
  const store = createSqliteStore(folder);
  try {
    return await store.countOutbox();
  } finally {
    store.close();
  }
}

test.beforeAll(async () => {
  folder = ownStoreFolder('admin-delivery');
  // Seeding reads its store settings from the environment; this worker's stays as it was.
  const saved = { ...process.env };
  try {
    await seedStore({ subscribers: SUBSCRIBERS, leads: LEADS, env: { LOCAL_STORE_DIR: folder } });
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
  receiver = await startWebhookReceiver();
  // 410 (gone) is a permanent failure: the lead's webhook is dead at once.
  receiver.answer(410);
  server = await startServerAt(folder, {
    LEAD_WEBHOOK_URL: receiver.url,
    LEAD_WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
  });
  // The newest lead has the longest address the form takes, a note and a first page with no place to break a line.
  const response = await fetch(`${server.origin}/api/leads/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: NAME,
      email: LONG_EMAIL,
      source: 'contact_form',
      notes: `See https://example.com/${'a-long-path-segment-'.repeat(12)}`,
      altcha: await proofFrom(server.origin),
      page: '/contact',
      attribution: {
        utm_source: 'linkedin',
        utm_medium: 'social',
        utm_campaign: 'automation-for-property-managers-autumn',
        landingPage: `/sectors/property?utm_source=linkedin&utm_medium=social&utm_content=${'x'.repeat(60)}`,
      },
    }),
  });
  expect(response.status).toBe(201);
  // Right after its answer the server writes the team's e-mail to the outbox folder and tries the webhook.
  await expect.poll(outboxCounts).toEqual({ total: 2, pending: 0, dead: 1 });
});

test.afterAll(async () => {
  await receiver?.stop();
  await stopServerAt(server, folder);
});

/** The page's own width against the window's: the page scrolls sideways when the first is larger. */
async function pageWidth(page: Page) {
  return page.evaluate(() => ({
    scrollWidth: document.scrollingElement?.scrollWidth ?? Number.POSITIVE_INFINITY,
    innerWidth: window.innerWidth,
  }));
}

async function expectNoSidewaysScroll(page: Page, where: string, width = WIDTH) {
  const { scrollWidth, innerWidth } = await pageWidth(page);
  // A phone widens its layout viewport to fit content wider than the screen: the window stays the screen's width only when nothing is.
  expect(innerWidth, `the window's width ${where}`).toBe(width);
  const { causes } = await overflow(page, width);
  expect(causes, `what sticks out ${where}`).toEqual([]);
  expect(scrollWidth, `the page's width ${where}`).toBeLessThanOrEqual(innerWidth);
  test.info().annotations.push({ type: 'width', description: `${where}: ${scrollWidth} of ${innerWidth} px` });
}

test.describe(`on a ${WIDTH} px phone`, () => {
  test.use({ viewport: { width: WIDTH, height: 740 }, isMobile: true, hasTouch: true });

  test(`with ${LEADS.toLocaleString('en-US')} leads the dashboard fits a ${WIDTH} px phone, and each lead's card says how its delivery went`, async ({
    page,
  }) => {
    await logIn(page, server?.origin);
    const leads = page.getByRole('region', { name: /^Leads/ });
    const all = (LEADS + 1).toLocaleString('en-GB');
    await expect(leads.getByRole('heading', { name: `Leads (${all} new of ${all})` })).toBeVisible();
    await expect(leads.getByText(LONG_EMAIL)).toBeVisible();
    await page.getByRole('region', { name: 'Last 90 days' }).locator('canvas').first().waitFor();
    await expectNoSidewaysScroll(page, 'on the dashboard');
    await expectNoViolations(page);

    // The leads are a list of cards, never a table wider than the screen.
    await expect(leads.getByRole('table')).toHaveCount(0);
    // The list's own items, not those of a lead's deliveries inside them.
    const cards = leads.getByRole('list', { name: 'Leads' }).locator(':scope > li');
    await expect(cards).toHaveCount(20);
    const newest = cards.first();
    await expect(newest).toContainText(NAME);
    // A delivery that failed for good shows at once, with its Retry.
    for (const status of [/^Team notified/, /^Webhook failed/, 'Last error: HTTP 410']) {
      const line = newest.getByText(status);
      await line.scrollIntoViewIfNeeded();
      await expect(line).toBeInViewport({ ratio: 1 });
    }
    // The list shows 32 characters of a first-touch value; the CSV has it whole.
    await expect(newest.getByText('Campaign: automation-for-property-manager…')).toBeVisible();
    // A seeded lead never had anything to deliver, and says so.
    await expect(cards.nth(1).getByText('E-mails and webhook: nothing sent')).toBeVisible();

    // The CRM is back: Retry sends the same webhook again, with the same webhook-id.
    receiver?.answer(200);
    await newest.getByRole('button', { name: /^Retry the webhook/ }).click();
    await expect(page.getByRole('region', { name: 'Notification' })).toContainText('Sending again');
    await expect.poll(outboxCounts).toEqual({ total: 2, pending: 0, dead: 0 });
    const ids = receiver?.requests.map((request) => request.headers['webhook-id']);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(1);
    await page.reload();
    await expect(cards.first().getByText('E-mails and webhook: all sent')).toBeVisible();
    await cards.first().getByText('E-mails and webhook: all sent').click();
    await expect(cards.first().getByText(/^Webhook delivered/)).toBeVisible();
    await expect(cards.first().getByRole('button', { name: /^Retry/ })).toHaveCount(0);

    // Another page of leads fits too.
    await leads.getByRole('button', { name: 'Next' }).click();
    await expect(leads.getByText('Page 2 of 501')).toBeVisible();
    await expectNoSidewaysScroll(page, 'on the second page of leads');
  });

  test(`the outbox, open with a message shown, fits a ${WIDTH} px phone`, async ({ page }) => {
    await logIn(page, server?.origin);
    const outbox = page.getByRole('region', { name: /^Outbox/ });
    const toggle = outbox.getByRole('button', { name: 'Show the outbox' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await expect(outbox.getByRole('button', { name: 'Hide the outbox' })).toHaveAttribute('aria-expanded', 'true');
    const entries = outbox.getByRole('list', { name: 'Outbox' }).locator(':scope > li');
    await expect(entries).toHaveCount(2);
    // The team's e-mail, as it was written to the outbox folder, readable in full.
    const notification = entries.filter({ hasText: 'Team notification' });
    await notification.getByText('Read it').click();
    const message = notification.locator('pre');
    await expect(message).toContainText(NAME);
    await expect(message).toContainText(LONG_EMAIL);
    await expectNoSidewaysScroll(page, 'with the outbox open and a message shown');
    await expectNoViolations(page);
  });
});

test.describe('on an 800 px tablet', () => {
  test.use({ viewport: { width: 800, height: 1000 } });

  test('the lists are tables that scroll inside their own boxes, never the page', async ({ page }) => {
    await logIn(page, server?.origin);
    const outbox = page.getByRole('region', { name: /^Outbox/ });
    await outbox.getByRole('button', { name: 'Show the outbox' }).click();
    await outbox
      .getByRole('table')
      .getByRole('row', { name: /Team notification/ })
      .getByText('Read it')
      .click();
    await expect(page.getByRole('region', { name: /^Subscribers \(/ }).getByRole('table')).toBeVisible();
    await expectNoSidewaysScroll(page, 'with the tables shown', 800);
  });
});

test.describe('on a laptop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('leads say how their delivery went; campaigns, subscriber status and the outbox are there', async ({ page }) => {
    await logIn(page, server?.origin);
    // Run locally without mail settings: e-mails go to the outbox folder, and nothing warns.
    const delivery = page.getByRole('region', { name: 'Delivery' });
    await expect(delivery).toContainText('Not sent: written to the local outbox folder');
    await expect(delivery).toContainText('On: leads and confirmed subscribers are posted to your webhook');
    await expect(page.getByRole('alert')).toHaveCount(0);

    const leads = page.getByRole('region', { name: /^Leads \(/ });
    const lead = leads.getByRole('article', { name: new RegExp(NAME) });
    await expect(lead).toContainText('Contact form');
    await expect(lead).toContainText('Page: /contact');
    await lead.getByText('E-mails and webhook: all sent').click();
    await expect(lead.getByText(/^Team notified/)).toBeVisible();
    await expect(lead.getByText(/^Webhook delivered/)).toBeVisible();

    // Campaigns are counted in one place, the Visits section, for the range shown (30 days first).
    const campaigns = page.getByRole('region', { name: 'Campaigns', exact: true });
    await expect(campaigns.getByRole('row', { name: /^automation-for-property-managers-autumn 0 1 0 / })).toBeVisible();
    await expect(campaigns.getByRole('row', { name: /^spring-launch / })).toBeVisible();

    const pending = SUBSCRIBERS / 10;
    const unsubscribed = SUBSCRIBERS / 20;
    await expect(page.getByText(`${pending} awaiting confirmation · ${unsubscribed} unsubscribed`)).toBeVisible();
    const confirmed = page.getByRole('term').filter({ hasText: 'Confirmed subscribers' });
    await expect(confirmed.locator('xpath=following-sibling::dd[1]')).toHaveText(
      String(SUBSCRIBERS - pending - unsubscribed),
    );
    // The week's and month's figures count confirmations, and say so: those who left are not taken off them.
    await expect(confirmed.locator('xpath=following-sibling::dd[2]')).toHaveText(
      /^\+[\d,]+ confirmed in the last 7 days · \+[\d,]+ in the last 30 days$/,
    );
    const subscribers = page.getByRole('region', { name: /^Subscribers \(/ }).getByRole('table');
    for (const [email, status] of [
      ['seed-499@example.com', 'Confirmed'],
      ['seed-493@example.com', 'Pending'],
      ['seed-487@example.com', 'Unsubscribed'],
    ])
      await expect(subscribers.getByRole('row', { name: new RegExp(email) })).toContainText(status);
    await expectNoViolations(page);

    const outbox = page.getByRole('region', { name: /^Outbox/ });
    await outbox.getByRole('button', { name: 'Show the outbox' }).click();
    const entries = outbox.getByRole('table');
    await expect(entries.getByRole('columnheader', { name: 'Message' })).toBeVisible();
    const notification = entries.getByRole('row', { name: /Team notification/ });
    await notification.getByText('Read it').click();
    await expect(notification.locator('pre')).toContainText(NAME);
    await expectNoViolations(page);
  });
});
