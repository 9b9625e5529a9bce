import { expect, test, type Page } from '@playwright/test';
import { E2E_ADMIN_PASSWORD, storedSubscriber, uniqueEmail } from '../support/e2e-env';

/**
 * With no mail settings (as after `npm start`), nothing is sent and nothing is lost: each e-mail
 * is written to the local outbox folder and the owner reads it in the admin page's Outbox, links
 * and all. A newcomer can follow those links as the recipient would (the guide's link: guide.spec.ts).
 */

async function openOutbox(page: Page) {
  await page.goto('/admin/insights');
  const login = page.getByRole('form', { name: 'Admin login' });
  const logout = page.getByRole('button', { name: 'Logout' });
  await expect(login.or(logout)).toBeVisible();
  if (await login.isVisible()) {
    await login.getByLabel('Password').fill(E2E_ADMIN_PASSWORD);
    await login.getByRole('button', { name: 'Log in' }).click();
  }
  const outbox = page.getByRole('region', { name: /^Outbox/ });
  await outbox.getByRole('button', { name: 'Show the outbox' }).click();
  return outbox;
}

/** The plain text of the outbox message whose row shows each of `texts`, read as the owner reads it. */
async function readMessage(page: Page, ...texts: string[]): Promise<string> {
  const outbox = await openOutbox(page);
  let row = outbox.getByRole('listitem').or(outbox.getByRole('row'));
  for (const text of texts) row = row.filter({ hasText: text });
  await expect(row).toHaveCount(1);
  await row.getByText('Read it').click();
  return (await row.locator('pre').textContent()) ?? '';
}

function linkIn(text: string, label: string): string {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${label}: `));
  if (!line) throw new Error(`no "${label}" link in the message:\n${text}`);
  return line.slice(label.length + 2);
}

test('a contact-form message is in the admin Outbox as the notification the team would get', async ({ page }) => {
  const name = `Outbox Check ${Date.now()}`;
  await page.goto('/contact?utm_source=newsletter&utm_campaign=autumn');
  const form = page.getByRole('form', { name: 'Contact form' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('E-mail').fill(uniqueEmail('outbox'));
  await form.getByLabel('How can we help?').fill('Our invoices take a day a week.');
  await form.getByRole('button', { name: 'Send message' }).click();
  await expect(form.getByRole('status')).toBeVisible();

  const text = await readMessage(page, `New lead: ${name} – Contact form`);
  expect(text).toContain('> Our invoices take a day a week.');
  expect(text).toContain('Campaign: autumn');
  expect(text).toContain('Source (utm): newsletter');
  expect(text).toMatch(/Sent from: http:\/\/localhost:\d+\/contact/);
});

test("a newsletter sign-up's confirmation link, opened in the browser, confirms the subscriber", async ({ page }) => {
  const email = uniqueEmail('confirm');
  await page.goto('/contact');
  const signup = page.getByRole('form', { name: 'Newsletter signup' });
  await signup.getByLabel('Name').fill('Radia Perlman');
  await signup.getByLabel('E-mail').fill(email);
  await signup.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('region', { name: 'Notification' })).toContainText('Subscribed successfully!');
  expect(await storedSubscriber(email)).toMatchObject({ status: 'pending' });

  const text = await readMessage(page, email);
  await page.goto(linkIn(text, 'Confirm my subscription'));
  expect(await storedSubscriber(email)).toMatchObject({ status: 'pending' });
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Your subscription is confirmed' })).toBeVisible();
  expect(await storedSubscriber(email)).toMatchObject({ status: 'confirmed', consent: { form: 'website_footer' } });
});
