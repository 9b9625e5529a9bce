import { expect, test, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seedStore } from '../../scripts/admin/seed-store.ts';
import { startSiteServer, type SiteServer } from '../../scripts/harness/site-server.ts';
import { E2E_ADMIN_PASSWORD, E2E_SESSION_SECRET, E2E_STORE_PREFIX } from '../support/e2e-env';
import { overflow } from '../support/overflow';

/**
 * The owner reads the dashboard on a phone: a store of its own with 10,000 leads, served by a
 * server of its own, so the other specs' records neither crowd nor change what this one sees.
 */
const WIDTH = 375;
const LEADS = 10_000;
/** 64 characters before the @ and 254 in all: the longest address the forms accept. */
const LONG_EMAIL = `${'l'.repeat(64)}@${`${'a'.repeat(40)}.`.repeat(4)}${'b'.repeat(13)}.example.com`;

test.describe.configure({ mode: 'serial', timeout: 90_000 });
test.use({ viewport: { width: WIDTH, height: 740 }, isMobile: true, hasTouch: true });

let folder = '';
let server: SiteServer | undefined;

test.beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), `${E2E_STORE_PREFIX}admin-phone-`));
  // Seeding reads its store settings from the environment; this worker's stays as it was.
  const saved = { ...process.env };
  try {
    await seedStore({ subscribers: 500, leads: LEADS, env: { LOCAL_STORE_DIR: folder } });
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
  server = await startSiteServer({
    LOCAL_STORE_DIR: folder,
    ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
    SESSION_SECRET: E2E_SESSION_SECRET,
  });
  // The newest lead has the longest address the form takes and a note with no place to break a line.
  const response = await fetch(`${server.origin}/api/leads/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Maximiliane Wolkenstein-Oberhollenzer',
      email: LONG_EMAIL,
      source: 'contact_form',
      notes: `See https://example.com/${'a-long-path-segment-'.repeat(12)}`,
      page: '/contact',
    }),
  });
  expect(response.status).toBe(201);
});

test.afterAll(() => {
  server?.stop();
  rmSync(folder, { recursive: true, force: true });
});

async function logIn(page: Page) {
  await page.goto(`${server?.origin}/admin/insights`);
  const form = page.getByRole('form', { name: 'Admin login' });
  await form.getByLabel('Password').fill(E2E_ADMIN_PASSWORD);
  await form.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
}

/** The page's own width against the window's: the page scrolls sideways when the first is larger. */
async function pageWidth(page: Page) {
  return page.evaluate(() => ({
    scrollWidth: document.scrollingElement?.scrollWidth ?? Number.POSITIVE_INFINITY,
    innerWidth: window.innerWidth,
  }));
}

async function expectNoSidewaysScroll(page: Page, where: string) {
  const { scrollWidth, innerWidth } = await pageWidth(page);
  // A phone widens its layout viewport to fit content wider than the screen: the window stays the screen's width only when nothing is.
  expect(innerWidth, `the window's width ${where}`).toBe(WIDTH);
  const { causes } = await overflow(page, WIDTH);
  expect(causes, `what sticks out ${where}`).toEqual([]);
  expect(scrollWidth, `the page's width ${where}`).toBeLessThanOrEqual(innerWidth);
  test.info().annotations.push({ type: 'width', description: `${where}: ${scrollWidth} of ${innerWidth} px` });
}

test(`with ${LEADS.toLocaleString('en-US')} leads the dashboard fits a ${WIDTH} px phone, each lead in a card that says how its delivery went`, async ({
  page,
}) => {
  await logIn(page);
  const leads = page.getByRole('region', { name: /^Leads/ });
  await expect(leads.getByRole('heading', { name: `Leads (${(LEADS + 1).toLocaleString('en-US')})` })).toBeVisible();
  await expect(leads.getByText(LONG_EMAIL)).toBeVisible();
  await expect(leads.getByText('lead-9999@example.com')).toBeVisible();
  await page.getByRole('region', { name: 'Last 90 days' }).locator('canvas').first().waitFor();
  await expectNoSidewaysScroll(page, 'on the dashboard');

  // On a phone the leads are a list of labelled cards, not a table wider than the screen.
  await expect(leads.getByRole('table')).toHaveCount(0);
  const cards = leads.getByRole('list', { name: 'Leads' }).getByRole('listitem');
  await expect(cards).toHaveCount(20);

  const newest = cards.first();
  await expect(newest.getByRole('term').filter({ hasText: 'Delivery' })).toBeVisible();
  const status = newest.getByRole('definition').filter({ has: page.getByText(/Nothing sent|Team notif/) });
  await status.scrollIntoViewIfNeeded();
  await expect(status).toBeInViewport({ ratio: 1 });

  // Another page of leads fits too.
  await leads.getByRole('button', { name: 'Next' }).click();
  await expect(leads.getByText('Page 2 of 501')).toBeVisible();
  await expectNoSidewaysScroll(page, 'on the second page of leads');
});

test(`the outbox, open with a message shown, fits a ${WIDTH} px phone`, async ({ page }) => {
  await logIn(page);
  const outbox = page.getByRole('region', { name: /^Outbox/ });
  const toggle = outbox.getByRole('button', { name: 'Show the outbox' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(outbox.getByRole('button', { name: 'Hide the outbox' })).toHaveAttribute('aria-expanded', 'true');
  await expect(outbox.getByText('Loading…')).toHaveCount(0);
  await expectNoSidewaysScroll(page, 'with the outbox open');
});
