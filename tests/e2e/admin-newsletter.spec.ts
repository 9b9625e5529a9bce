/**
 * The owner sends the newsletter from the admin page: finds the published issue in the Newsletter
 * section, reads its preview, sends a test to the team's address, then sends it to the one
 * confirmed subscriber and watches it go out. The spec has a server and a store of its own (no
 * mail settings, so e-mails go to its outbox folder), so the subscribers it counts are its own and
 * sending the issue changes nothing the other specs see.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { SiteServer } from '../../scripts/harness/site-server.ts';
import type { ListPage, OutboxItem } from '../../src/shared/api-responses';
import { NEWSLETTER_PATHS } from '../../src/shared/pages';
import { logIn } from '../support/admin-login';
import { uniqueEmail } from '../support/e2e-env';
import { linkTo, mailsTo } from '../support/e2e-outbox';
import { proofFrom } from '../support/solved-proofs';
import { ownStoreFolder, startServerAt, stopServerAt } from '../support/own-server';

/** The example issue of content/newsletter, and the first paragraph of its letter after the greeting. */
const ISSUE = {
  path: '/newsletter/three-automations-before-the-new-year',
  subject: 'Three small automations to set up before the new year',
  opening: 'December is a strange month for a small business.',
};
/** LEADS_NOTIFY_TO of the spec's server: where "Send a test" goes unless told otherwise. */
const TEAM = 'team.newsletter@example.com';
/**
 * The scheduled sweep writes a mailing's e-mails and delivers them. Netlify runs it each minute;
 * the spec's server every SWEEP_SECONDS (LOCAL_SCHEDULE_SECONDS), so the send is not a minute's wait.
 */
const SWEEP_SECONDS = 2;
const SWEEP_WAIT_MS = 30_000;

test.describe.configure({ mode: 'serial' });

let folder = '';
let server: SiteServer | undefined;

const origin = () => {
  if (!server) throw new Error('the server of this spec did not start');
  return server.origin;
};

test.beforeAll(async () => {
  folder = ownStoreFolder('admin-newsletter');
  server = await startServerAt(folder, {
    LEADS_NOTIFY_TO: TEAM,
    RATE_LIMIT_PER_MINUTE: '1000',
    LOCAL_SCHEDULE_SECONDS: String(SWEEP_SECONDS),
  });
});

test.afterAll(async () => {
  await stopServerAt(server, folder);
});

/** The dashboard's Newsletter section (the footer's sign-up is a region of that name too). */
const newsletterSection = (page: Page) =>
  page.getByRole('main').getByRole('region', { name: 'Newsletter', exact: true });

/** The issue's card in the section, named by its subject. */
const issueCard = (page: Page): Locator => newsletterSection(page).getByRole('article', { name: ISSUE.subject });

/** The outbox's newsletter entries to `to`, as GET /api/admin/outbox lists them with the page's session. */
async function newsletterEntries(page: Page, to: string): Promise<OutboxItem[]> {
  const response = await page.request.get(`${origin()}/api/admin/outbox`);
  expect(response.ok(), `GET /api/admin/outbox answered ${response.status()}`).toBe(true);
  const { items } = (await response.json()) as ListPage<OutboxItem>;
  return items.filter((item) => item.kind === 'newsletter' && item.to === to);
}

/** A confirmed subscriber: signs up through the footer form's endpoint, then opens the e-mailed confirmation link. */
async function confirmedSubscriber(page: Page): Promise<string> {
  const email = uniqueEmail('newsletter-send');
  const response = await page.request.post(`${origin()}/api/newsletter/subscribe`, {
    data: { email, firstName: 'Ada', source: 'website_footer', page: '/', altcha: await proofFrom(origin()) },
  });
  expect(response.ok()).toBe(true);
  await expect.poll(async () => (await mailsTo(email, folder)).length).toBe(1);
  const [confirmation] = await mailsTo(email, folder);
  if (!confirmation) throw new Error(`no confirmation e-mail to ${email}`);
  await page.goto(linkTo(confirmation, NEWSLETTER_PATHS.confirm));
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Your subscription is confirmed' })).toBeFocused();
  return email;
}

test('the published issue is listed, not sent yet, and its preview is the e-mail as it arrives', async ({ page }) => {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('Content Security Policy')) refused.push(message.text());
  });
  await logIn(page, origin());
  const section = newsletterSection(page);
  await expect(section).toContainText('0 confirmed subscribers');
  const issue = issueCard(page);
  await expect(issue).toContainText('Issue');
  await expect(issue).toContainText('Not sent yet');
  await expect(issue.getByRole('link', { name: ISSUE.subject })).toHaveAttribute('href', new RegExp(`${ISSUE.path}$`));
  // Nobody to send to yet: the button says so and cannot be pressed.
  await expect(issue.getByRole('button', { name: 'Send to 0 subscribers' })).toBeDisabled();

  await issue.getByRole('button', { name: 'Preview' }).click();
  await expect(issue.getByRole('button', { name: 'Hide the preview' })).toHaveAttribute('aria-expanded', 'true');
  await expect(issue.getByText(`Subject: ${ISSUE.subject}`)).toBeVisible();
  const mail = issue.locator('iframe').contentFrame();
  await expect(mail.locator(':root')).toContainText(ISSUE.subject);
  await expect(mail.locator(':root')).toContainText(ISSUE.opening);
  await expect(mail.locator(`a[href*="${NEWSLETTER_PATHS.unsubscribe}"]`).first()).toBeAttached();
  // The plain-text part is there too, on demand.
  await issue.getByText('Plain-text part').click();
  await expect(issue.locator('pre')).toContainText(ISSUE.opening);
  // The e-mail's inline styles reach the frame through the CSSOM: the page's policy refused nothing.
  expect(refused).toEqual([]);
});

test('"Send a test" e-mails the issue to the team address, and the Outbox lists it', async ({ page }) => {
  await logIn(page, origin());
  const issue = issueCard(page);
  await expect(issue).toContainText(`the test goes to ${TEAM}`);
  await issue.getByRole('button', { name: 'Send a test' }).click();
  await expect(page.getByRole('region', { name: 'Notification' })).toContainText(`went to ${TEAM}`);

  await expect.poll(async () => (await newsletterEntries(page, TEAM)).length).toBe(1);
  const [entry] = await newsletterEntries(page, TEAM);
  expect(entry?.subject).toContain(ISSUE.subject);
  const outbox = page.getByRole('region', { name: /^Outbox/ });
  await outbox.getByRole('button', { name: 'Show the outbox' }).click();
  await expect(outbox.getByRole('row').filter({ hasText: 'Newsletter' }).filter({ hasText: TEAM })).toHaveCount(1);
  // A test sends nothing to subscribers: the issue is still waiting.
  await expect(issue).toContainText('Not sent yet');
});

test('"Send a test" to an address that unsubscribed is refused, and the page says why beside it', async ({ page }) => {
  // Someone signs up, then leaves with the unsubscribe link of their confirmation e-mail.
  const email = uniqueEmail('newsletter-left');
  const signUp = await page.request.post(`${origin()}/api/newsletter/subscribe`, {
    data: { email, firstName: 'Lee', source: 'website_footer', page: '/', altcha: await proofFrom(origin()) },
  });
  expect(signUp.ok()).toBe(true);
  await expect.poll(async () => (await mailsTo(email, folder)).length).toBe(1);
  const [confirmation] = await mailsTo(email, folder);
  if (!confirmation) throw new Error(`no confirmation e-mail to ${email}`);
  const token = new URL(linkTo(confirmation, NEWSLETTER_PATHS.unsubscribe)).searchParams.get('token');
  expect((await page.request.post(`${origin()}/api/newsletter/unsubscribe`, { data: { token } })).ok()).toBe(true);

  await logIn(page, origin());
  const issue = issueCard(page);
  const address = issue.getByRole('textbox', { name: /Test address/ });
  await address.fill(email);
  await issue.getByRole('button', { name: 'Send a test' }).click();
  const why = `Not sent: ${email} unsubscribed from the newsletter, and the newsletter sends nothing to people who left, tests included.`;
  await expect(address).toHaveAccessibleDescription(why);
  await expect(page.getByRole('region', { name: 'Notification' })).toContainText(why);
  expect(await newsletterEntries(page, email)).toEqual([]);
  // Another address: the refusal of the last one goes.
  await address.fill('');
  await expect(address).not.toHaveAttribute('aria-invalid');
});

test('"Send to 1 subscriber", once confirmed, e-mails the issue to the subscriber, and the section shows it sent', async ({
  page,
}) => {
  test.setTimeout(SWEEP_WAIT_MS + 60_000);
  const email = await confirmedSubscriber(page);
  await logIn(page, origin());
  await expect(newsletterSection(page)).toContainText('1 confirmed subscriber');
  const issue = issueCard(page);

  const question = new Promise<string>((resolve) =>
    page.once('dialog', (dialog) => {
      resolve(dialog.message());
      void dialog.accept();
    }),
  );
  await issue.getByRole('button', { name: 'Send to 1 subscriber' }).click();
  expect(await question).toBe(`Send “${ISSUE.subject}” to 1 subscriber? This cannot be undone.`);
  await expect(page.getByRole('region', { name: 'Notification' })).toContainText('is on its way to 1 subscriber');
  // Sending cannot be asked for twice.
  await expect(issue.getByRole('button', { name: /^Send to/ })).toHaveCount(0);

  await expect
    .poll(async () => (await newsletterEntries(page, email)).map((entry) => entry.status), {
      timeout: SWEEP_WAIT_MS,
      intervals: [1000, 2000, 5000],
    })
    .toEqual(['delivered']);
  // The e-mail as the subscriber's mail client reads it: the letter, and a link to leave.
  const sent = (await mailsTo(email, folder)).find((mail) => mail.subject === ISSUE.subject);
  if (!sent) throw new Error(`no "${ISSUE.subject}" e-mail to ${email} in the outbox folder`);
  expect(sent.text).toContain(ISSUE.opening);
  expect(() => linkTo(sent, NEWSLETTER_PATHS.unsubscribe)).not.toThrow();

  // The section fetches itself again while a mailing is under way, so the progress moves without a reload.
  await expect(issue.getByText('Sent', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(issue).toContainText('1 e-mail · 1 sent · 0 failed · 0 bounced');
  await expect(issue).toContainText(/Started .+ by you/);
});
