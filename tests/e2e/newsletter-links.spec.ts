import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { ParsedMail } from 'mailparser';
import { NEWSLETTER_CHECK_INBOX } from '../../src/lib/form-messages';
import { NEWSLETTER_PATHS } from '../../src/shared/pages';
import { bounceSubscriber, e2eOrigin, eraseSubscriber, storedSubscriber, uniqueEmail } from '../support/e2e-env';
import { proofFrom } from '../support/solved-proofs';
import { linkTo, mailsTo } from '../support/e2e-outbox';

/** Every request the page sends to the newsletter endpoints. */
function newsletterPosts(page: Page): string[] {
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/newsletter/')) posts.push(`${request.method()} ${request.url()}`);
  });
  return posts;
}

/** Presses the confirmation page's button, as the person does: opening the page confirms nothing. */
const pressConfirm = (page: Page) => page.getByRole('button', { name: 'Confirm', exact: true }).click();

/** Holds the page's POSTs to a newsletter endpoint until `release` is called, then lets them through. */
async function holdRequests(page: Page, endpoint: 'confirm' | 'unsubscribe'): Promise<{ release: () => void }> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/api/newsletter/${endpoint}`, async (route) => {
    await held;
    await route.continue();
  });
  return { release };
}

/** The confirmation e-mail the server sent to `email`, once it is in the outbox. */
async function confirmationMail(email: string): Promise<ParsedMail> {
  await expect.poll(async () => (await mailsTo(email)).length).toBe(1);
  const [mail] = await mailsTo(email);
  if (!mail) throw new Error(`no e-mail to ${email}`);
  expect(mail.subject).toMatch(/^Please confirm your subscription/);
  return mail;
}

/** Subscribes through the footer form's endpoint, as the form does (with a solved proof of work), and gives back the confirmation e-mail. */
async function subscribe(request: APIRequestContext, label: string): Promise<{ email: string; mail: ParsedMail }> {
  const email = uniqueEmail(label);
  const response = await request.post('/api/newsletter/subscribe', {
    data: { email, firstName: 'Ada Lovelace', source: 'website_footer', page: '/', altcha: await proofFrom(e2eOrigin) },
  });
  expect(response.ok()).toBe(true);
  return { email, mail: await confirmationMail(email) };
}

test.describe('a newsletter sign-up, confirmed and left through the e-mailed links', () => {
  test('the confirmation link confirms from the page when Confirm is pressed, never on a GET; the unsubscribe link unsubscribes', async ({
    page,
    request,
  }) => {
    const email = uniqueEmail('optin');
    await page.goto('/blog?utm_source=linkedin&utm_campaign=optin', { referer: 'https://www.linkedin.com/' });
    await page.getByRole('banner').getByRole('link', { name: 'Contact', exact: true }).first().click();
    const form = page.getByRole('form', { name: 'Newsletter signup' });
    await form.getByLabel('Name').fill('Ada Lovelace');
    await form.getByLabel('E-mail').fill(email);
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByRole('region', { name: 'Notification' })).toContainText(NEWSLETTER_CHECK_INBOX);
    expect(await storedSubscriber(email)).toMatchObject({
      status: 'pending',
      consent: { form: 'website_footer', page: '/contact' },
      attribution: {
        landingPage: '/blog?utm_source=linkedin&utm_campaign=optin',
        referrer: 'www.linkedin.com',
        utm_source: 'linkedin',
        utm_campaign: 'optin',
      },
    });

    const mail = await confirmationMail(email);
    const confirm = linkTo(mail, NEWSLETTER_PATHS.confirm);
    // A mail scanner opens the link without running the page: nothing changes.
    expect((await request.get(confirm)).status()).toBe(200);
    expect((await storedSubscriber(email))?.status).toBe('pending');

    await page.goto(confirm);
    await pressConfirm(page);
    const confirmed = page.getByRole('status').getByRole('heading', { name: 'Your subscription is confirmed' });
    await expect(confirmed).toBeFocused();
    const subscriber = await storedSubscriber(email);
    expect(subscriber?.status).toBe('confirmed');
    expect(subscriber?.consent.confirmedAt).toEqual(expect.any(String));

    await page.goto(linkTo(mail, NEWSLETTER_PATHS.unsubscribe));
    expect((await storedSubscriber(email))?.status).toBe('confirmed');
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('status').getByRole('heading', { name: 'You are unsubscribed' })).toBeFocused();
    expect((await storedSubscriber(email))?.status).toBe('unsubscribed');
  });

  test('a confirmation link confirms nothing until Confirm is pressed, and the first press confirms', async ({
    page,
    request,
  }) => {
    const { email, mail } = await subscribe(request, 'press');
    const confirm = linkTo(mail, NEWSLETTER_PATHS.confirm);
    const posts = newsletterPosts(page);

    // A mail scanner that opens the link in a browser and runs its scripts confirms nobody.
    await page.goto(confirm, { waitUntil: 'networkidle' });
    expect(posts, 'requests of the page, opened and left alone').toEqual([]);
    expect((await storedSubscriber(email))?.status, 'the subscriber, before Confirm is pressed').toBe('pending');
    await expect(page.getByRole('main')).toContainText('Press Confirm to receive our newsletter');

    // A person presses Confirm as soon as the page has loaded: it confirms.
    await page.goto(confirm);
    const button = page.getByRole('button', { name: 'Confirm', exact: true });
    await button.click();
    await expect(
      page.getByRole('status').getByRole('heading', { name: 'Your subscription is confirmed' }),
    ).toBeFocused();
    expect(posts).toEqual([`POST ${e2eOrigin}/api/newsletter/confirm`]);
    expect((await storedSubscriber(email))?.status, 'the subscriber, after Confirm is pressed').toBe('confirmed');
  });

  test('a changed link is refused as not valid, and confirms nobody', async ({ page, request }) => {
    const { email, mail } = await subscribe(request, 'forged');
    const confirm = new URL(linkTo(mail, NEWSLETTER_PATHS.confirm));
    const token = confirm.searchParams.get('token') ?? '';
    confirm.searchParams.set('token', `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`);
    await page.goto(confirm.href);
    await pressConfirm(page);
    const alert = page.getByRole('alert');
    await expect(alert.getByRole('heading', { name: 'This confirmation link is not valid' })).toBeFocused();
    expect((await storedSubscriber(email))?.status).toBe('pending');
  });

  test('a confirmation link opened after unsubscribing confirms nothing, and says why', async ({ page, request }) => {
    const { email, mail } = await subscribe(request, 'left');
    const confirm = linkTo(mail, NEWSLETTER_PATHS.confirm);
    await page.goto(confirm);
    await pressConfirm(page);
    await expect(
      page.getByRole('status').getByRole('heading', { name: 'Your subscription is confirmed' }),
    ).toBeFocused();
    await page.goto(linkTo(mail, NEWSLETTER_PATHS.unsubscribe));
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('status').getByRole('heading', { name: 'You are unsubscribed' })).toBeFocused();

    // Opened again and pressed (a second look at the same e-mail): the person stays unsubscribed.
    await page.goto(confirm);
    await pressConfirm(page);
    const alert = page.getByRole('alert');
    await expect(alert.getByRole('heading', { name: 'You unsubscribed after this link was sent' })).toBeFocused();
    await expect(page.getByRole('button', { name: 'Try again' })).toBeHidden();
    expect(await storedSubscriber(email)).toMatchObject({
      status: 'unsubscribed',
      consent: { confirmedAt: expect.any(String), unsubscribedAt: expect.any(String) },
    });
  });

  test('a confirmation link opened after the address bounced confirms nothing, and says why', async ({
    page,
    request,
  }) => {
    const { email, mail } = await subscribe(request, 'bounced');
    const confirm = linkTo(mail, NEWSLETTER_PATHS.confirm);
    await page.goto(confirm);
    await pressConfirm(page);
    await expect(
      page.getByRole('status').getByRole('heading', { name: 'Your subscription is confirmed' }),
    ).toBeFocused();
    await bounceSubscriber(email);

    await page.goto(confirm);
    await pressConfirm(page);
    const alert = page.getByRole('alert');
    await expect(
      alert.getByRole('heading', { name: 'Mail to this address was refused after this link was sent' }),
    ).toBeFocused();
    expect((await storedSubscriber(email))?.status).toBe('bounced');
  });

  test('a subscription erased since the e-mail was sent is reported as gone', async ({ page, request }) => {
    const { email, mail } = await subscribe(request, 'erased');
    expect(await eraseSubscriber(email)).toBe(true);
    await page.goto(linkTo(mail, NEWSLETTER_PATHS.confirm));
    await pressConfirm(page);
    const alert = page.getByRole('alert');
    await expect(alert.getByRole('heading', { name: 'We cannot find this subscription' })).toBeFocused();
    await expect(alert.getByRole('link', { name: 'the form at the bottom of this page' })).toHaveAttribute(
      'href',
      '#footer-newsletter',
    );
    expect(await storedSubscriber(email)).toBeUndefined();
  });

  test('the unsubscribe page announces its progress in a status region that is there before the button is pressed', async ({
    page,
    request,
  }) => {
    const { mail } = await subscribe(request, 'progress');
    // The request is held until the page has said what it is doing, then let through.
    const { release } = await holdRequests(page, 'unsubscribe');
    await page.goto(linkTo(mail, NEWSLETTER_PATHS.unsubscribe));
    // Empty but in the accessibility tree: a live region that appears with its first message is often not announced.
    const status = page.getByRole('main').getByRole('status');
    await expect(status).toBeAttached();
    await expect(status).toHaveText('');
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(status).toHaveText('Unsubscribing...');
    release();
    await expect(status.getByRole('heading', { name: 'You are unsubscribed' })).toBeFocused();
  });

  test('the confirm page keeps room for its outcome on a phone, so nothing below it moves when it arrives', async ({
    page,
    request,
  }) => {
    const { mail } = await subscribe(request, 'no-shift');
    const { release } = await holdRequests(page, 'confirm');
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto(linkTo(mail, NEWSLETTER_PATHS.confirm));
    const footer = page.getByRole('contentinfo');
    const before = await footer.boundingBox();
    await pressConfirm(page);
    await expect(page.getByRole('main').getByRole('status')).toHaveText('Confirming your subscription...');
    expect(await footer.boundingBox()).toEqual(before);
    release();
    await expect(page.getByRole('heading', { name: 'Your subscription is confirmed' })).toBeFocused();
    expect(await footer.boundingBox()).toEqual(before);
  });

  test('when the server cannot be reached, the page offers a retry, which confirms', async ({ page, request }) => {
    const { email, mail } = await subscribe(request, 'retry');
    // The connection drops once (a fault the real server cannot be made to cause); the retry reaches it.
    let dropped = false;
    await page.route('**/api/newsletter/confirm', (route) => {
      if (dropped) return route.continue();
      dropped = true;
      return route.abort('connectionfailed');
    });
    await page.goto(linkTo(mail, NEWSLETTER_PATHS.confirm));
    await pressConfirm(page);
    const alert = page.getByRole('alert');
    await expect(alert.getByRole('heading', { name: 'We could not confirm your subscription just now' })).toBeFocused();
    expect((await storedSubscriber(email))?.status).toBe('pending');
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(
      page.getByRole('status').getByRole('heading', { name: 'Your subscription is confirmed' }),
    ).toBeFocused();
    expect((await storedSubscriber(email))?.status).toBe('confirmed');
  });
});

test.describe('a newsletter link opened without its token', () => {
  test('the confirm page says the link is not valid, moves focus to it and sends nothing', async ({ page }) => {
    const posts = newsletterPosts(page);
    await page.goto(NEWSLETTER_PATHS.confirm);
    await expect(page.getByRole('heading', { level: 1, name: 'Confirm your subscription' })).toBeVisible();
    const alert = page.getByRole('alert');
    await expect(alert.getByRole('heading', { name: 'This confirmation link is not valid' })).toBeFocused();
    await expect(alert).toContainText('Open the link from the e-mail again');
    expect(posts).toEqual([]);
  });

  for (const [label, search] of [
    ['without a token', ''],
    ['with something that is no token', '?token=abc'],
  ]) {
    test(`the unsubscribe page ${label} says at once that the link is not valid, and sends nothing`, async ({
      page,
    }) => {
      const posts = newsletterPosts(page);
      await page.goto(`${NEWSLETTER_PATHS.unsubscribe}${search}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Unsubscribe from the newsletter' })).toBeVisible();
      const alert = page.getByRole('alert');
      await expect(alert.getByRole('heading', { name: 'This unsubscribe link is not valid' })).toBeFocused();
      await expect(alert.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);
      await expect(page.getByRole('button', { name: 'Unsubscribe' })).toBeHidden();
      expect(posts).toEqual([]);
    });
  }
});
