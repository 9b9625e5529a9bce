import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { SiteServer } from '../../scripts/harness/site-server.ts';
import { logIn as logInAt } from '../support/admin-login';
import { E2E_ADMIN_PASSWORD, uniqueEmail } from '../support/e2e-env';
import { ownStoreFolder, startServerAt, stopServerAt } from '../support/own-server';

/** The example issue of content/newsletter, unsent on a fresh store. */
const NEWSLETTER_ISSUE = 'Three small automations to set up before the new year';
/** What the login form says when a call found the session ended. */
const SESSION_ENDED = 'Your session has ended. Log in again to continue.';

async function logIn(page: Page, password = E2E_ADMIN_PASSWORD) {
  await page.goto('/admin/insights');
  const form = page.getByRole('form', { name: 'Admin login' });
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Log in' }).click();
}

test('a wrong password shows "Invalid password"', async ({ page }) => {
  await logIn(page, 'not the password');
  await expect(page.getByRole('alert')).toHaveText('Invalid password');
  await expect(page.getByRole('button', { name: 'Logout' })).toHaveCount(0);
});

test('the owner sees what was just submitted, keeps the session on reload, exports CSV and logs out', async ({
  page,
  context,
}) => {
  const subscriberEmail = uniqueEmail('admin-sub');
  const leadEmail = uniqueEmail('admin-lead');
  const hostileName = '<img src=x onerror=alert(1)>';
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });

  // A visitor subscribes in the footer and sends the contact form.
  await page.goto('/contact');
  const footer = page.getByRole('form', { name: 'Newsletter signup' });
  await footer.getByLabel('Name').fill('Owner Check');
  await footer.getByLabel('E-mail').fill(subscriberEmail);
  await footer.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('region', { name: 'Notification' })).toContainText('Subscribed successfully!');
  const contact = page.getByRole('main').getByRole('form', { name: 'Contact form' });
  await contact.getByLabel('Name').fill(hostileName);
  await contact.getByLabel('E-mail').fill(leadEmail);
  await contact.getByLabel('How can we help?').fill('Please call me back.');
  await contact.getByRole('button', { name: 'Send message' }).click();
  await expect(contact.getByRole('status')).toBeVisible();

  // The owner logs in and finds both, under the page's title and the dashboard's own heading.
  await logIn(page);
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin insights');
  const leads = page.locator('section[aria-labelledby="leads-title"]');
  const subscribers = page.locator('section[aria-labelledby="subscribers-title"]');
  // The list opens on the New leads, this one among them.
  await leads.getByRole('searchbox', { name: 'Search leads' }).fill(leadEmail);
  const lead = leads.getByRole('article').filter({ hasText: leadEmail });
  await expect(lead).toBeVisible();
  await expect(subscribers.getByRole('row', { name: new RegExp(subscriberEmail) })).toBeVisible();
  // Until they open the e-mailed link, a new subscriber is pending.
  await expect(subscribers.getByRole('row', { name: new RegExp(subscriberEmail) })).toContainText('Pending');
  // The hostile name is text, not markup, and nothing ran.
  await expect(lead.getByRole('heading', { name: hostileName, exact: true })).toBeVisible();
  await expect(leads.locator('img')).toHaveCount(0);
  expect(dialogs).toEqual([]);

  // The session cookie is HttpOnly, and a reload keeps the person logged in. Over http on the
  // local server it is neither Secure nor __Host- (Safari keeps neither on http://localhost).
  const cookie = (await context.cookies()).find((item) => item.name === 'admin_session');
  expect(cookie).toMatchObject({ httpOnly: true, secure: false, sameSite: 'Strict', path: '/' });
  expect(await page.evaluate(() => document.cookie)).not.toContain('admin_session');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();

  // The CSV exports contain the new records.
  const leadsDownload = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export leads (CSV)' }).click();
  const leadsCsv = readFileSync((await (await leadsDownload).path()) ?? '', 'utf8');
  expect(leadsCsv).toContain(leadEmail);
  // A byte order mark first, so Excel reads accented names as UTF-8.
  expect(leadsCsv.split('\r\n')[0]).toBe(
    '\uFEFFcreated_at,name,email,company,source,notes,page,landing_page,referrer,utm_source,utm_medium,utm_campaign,utm_term,utm_content,delivery,status,note,updated_at,id',
  );
  const subscribersDownload = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export subscribers (CSV)' }).click();
  const subscribersCsv = readFileSync((await (await subscribersDownload).path()) ?? '', 'utf8');
  expect(subscribersCsv.split('\r\n').find((line) => line.includes(subscriberEmail))).toContain(',pending,');

  // An export the server cannot answer says why, and leaves the dashboard as it was.
  await page.route('**/api/admin/leads?*format=csv', (route) =>
    route.fulfill({
      status: 503,
      json: { error: 'The service is temporarily unavailable. Please try again in a moment.' },
    }),
  );
  await page.getByRole('link', { name: 'Export leads (CSV)' }).click();
  const toast = page.getByRole('region', { name: 'Notification' }).getByRole('listitem');
  await expect(toast.getByText('Could not export leads', { exact: true })).toBeVisible();
  await expect(toast).toContainText('The service is temporarily unavailable. Please try again in a moment.');
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await page.unroute('**/api/admin/leads?*format=csv');

  // Logout returns to the login form, for good.
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('form', { name: 'Admin login' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('form', { name: 'Admin login' })).toBeVisible();
});

test('/admin, as the owner would type it, leads to the dashboard', async ({ request, page }) => {
  for (const path of ['/admin', '/admin/']) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(302);
    expect(new URL(response.headers()['location'] ?? '', 'http://localhost').pathname, path).toBe('/admin/insights');
  }
  await page.goto('/admin');
  await expect(page.getByRole('form', { name: 'Admin login' })).toBeVisible();
});

test('the admin page is not for search engines', async ({ request }) => {
  const response = await request.get('/admin/insights');
  expect(response.headers()['x-robots-tag']).toContain('noindex');
  expect(await response.text()).toContain('<meta name="robots" content="noindex');
  expect(await (await request.get('/robots.txt')).text()).toContain('Disallow: /admin');
  expect(await (await request.get('/sitemap-0.xml')).text()).not.toContain('/admin');
});

/**
 * "Log out everywhere" ends every session of the server it is pressed on, so it gets a server and
 * store of its own: on the shared one it would log out the tests that run beside it.
 */
test.describe('"Log out everywhere"', () => {
  let folder: string;
  let server: SiteServer | undefined;
  test.beforeAll(async () => {
    folder = ownStoreFolder('logout-everywhere');
    server = await startServerAt(folder);
  });
  test.afterAll(async () => {
    await stopServerAt(server, folder);
  });

  test('ends the session of another browser too', async ({ page, browser }) => {
    const origin = server?.origin ?? '';
    await logInAt(page, origin);
    const other = await browser.newContext();
    try {
      const elsewhere = await other.newPage();
      await logInAt(elsewhere, origin);

      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Log out everywhere' }).click();
      await expect(page.getByRole('form', { name: 'Admin login' })).toBeVisible();
      // The other browser's cookie no longer opens the dashboard.
      await elsewhere.reload();
      await expect(elsewhere.getByRole('form', { name: 'Admin login' })).toBeVisible();
      await expect(elsewhere.getByRole('button', { name: 'Logout', exact: true })).toHaveCount(0);
    } finally {
      await other.close();
    }
  });

  test('sends another browser back to the login form at its next call, keeping what was typed', async ({
    page,
    browser,
  }) => {
    const origin = server?.origin ?? '';
    const address = uniqueEmail('kept-test-address');
    await logInAt(page, origin);
    const other = await browser.newContext();
    try {
      const elsewhere = await other.newPage();
      await logInAt(elsewhere, origin);
      // Marks this document: a reload would lose the mark.
      await elsewhere.evaluate(() => document.documentElement.setAttribute('data-not-reloaded', ''));
      const issue = elsewhere.getByRole('article', { name: NEWSLETTER_ISSUE });
      await issue.getByLabel('Test address').fill(address);

      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Log out everywhere' }).click();
      await expect(page.getByRole('form', { name: 'Admin login' })).toBeVisible();

      // An action answered 401: the dashboard and its data give way to the login form and a notice.
      await issue.getByRole('button', { name: 'Send a test' }).click();
      const login = elsewhere.getByRole('form', { name: 'Admin login' });
      await expect(login.getByRole('alert')).toHaveText(SESSION_ENDED);
      await expect(elsewhere.getByRole('heading', { name: /^Leads \(/ })).toHaveCount(0);
      await expect(elsewhere.getByText('Could not send the test')).toHaveCount(0);
      await expect(elsewhere.locator('html')).toHaveAttribute('data-not-reloaded');

      // Logged in again, the address typed before is still there.
      await login.getByLabel('Password').fill(E2E_ADMIN_PASSWORD);
      await login.getByRole('button', { name: 'Log in' }).click();
      await expect(issue.getByLabel('Test address')).toHaveValue(address);

      // A query answered 401 (the preview, fetched when shown) does the same.
      page.once('dialog', (dialog) => void dialog.accept());
      await logInAt(page, origin);
      await page.getByRole('button', { name: 'Log out everywhere' }).click();
      await expect(page.getByRole('form', { name: 'Admin login' })).toBeVisible();
      await issue.getByRole('button', { name: 'Preview' }).click();
      await expect(login.getByRole('alert')).toHaveText(SESSION_ENDED);
      await expect(elsewhere.locator('html')).toHaveAttribute('data-not-reloaded');

      // So does a CSV export, which downloads nothing then.
      await login.getByLabel('Password').fill(E2E_ADMIN_PASSWORD);
      await login.getByRole('button', { name: 'Log in' }).click();
      const exportLeads = elsewhere.getByRole('link', { name: 'Export leads (CSV)' });
      await expect(exportLeads).toBeVisible();
      page.once('dialog', (dialog) => void dialog.accept());
      await logInAt(page, origin);
      await page.getByRole('button', { name: 'Log out everywhere' }).click();
      await expect(page.getByRole('form', { name: 'Admin login' })).toBeVisible();
      const downloads: string[] = [];
      elsewhere.on('download', (download) => downloads.push(download.suggestedFilename()));
      await exportLeads.click();
      await expect(login.getByRole('alert')).toHaveText(SESSION_ENDED);
      await expect(elsewhere.locator('html')).toHaveAttribute('data-not-reloaded');
      expect(downloads).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
