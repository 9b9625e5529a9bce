/**
 * The newsletter is sent once to each confirmed subscriber, on both stores: the owner presses
 * Send in the admin endpoint, the real scheduled sweep (runSweep) writes the entries and delivers
 * them to a real SMTP server, on a clock the test moves. The mailings are the build file's
 * fixture (tests/support/build-files.ts): an issue and the two posts it features.
 */
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import adminNewsletter from '../../functions/admin-newsletter';
import adminOutbox from '../../functions/admin-outbox';
import adminSubscribers from '../../functions/admin-subscribers';
import newsletterUnsubscribe from '../../functions/newsletter-unsubscribe';
import { confirmationEntry } from '../../functions/_lib/delivery/emails/confirmation';
import { mailingId, newsletterEntryId } from '../../functions/_lib/delivery/emails/newsletter-email';
import { fanOut, publishedMailings } from '../../functions/_lib/delivery/newsletter-sending';
import { runSweep } from '../../functions/_lib/delivery/scheduled-sweep';
import { resetEnv } from '../../functions/_lib/platform/env';
import { startSmtpSink, type SmtpSink } from '../../scripts/harness/smtp-sink';
import type { NewsletterItem, NewsletterPage } from '../../src/shared/api-responses';
import type { Mailing } from '../../src/shared/mailing-types';
import { call, logIn, ORIGIN } from '../support/admin-calls';
import { useBuildFiles } from '../support/build-files';
import { useStores } from '../support/store-setup';
import type { Store } from '../support/stores';

const PASSWORD = 'a password for the newsletter test';

useBuildFiles();
const stores = useStores();
let smtp: SmtpSink;
let mailings: Mailing[];

beforeAll(async () => {
  smtp = await startSmtpSink();
  mailings = await publishedMailings();
});
afterAll(() => smtp?.stop());

/** An action of the Newsletter section, as the admin page sends it. */
async function press(cookie: string, id: string, action: 'send' | 'test' | 'skip', body: object = {}) {
  const response = await call(adminNewsletter, `/api/admin/newsletter/${id}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: ORIGIN },
    body: JSON.stringify(body),
    params: { id, action },
  });
  return { status: response.status, body: (await response.json()) as { item?: NewsletterItem } };
}

async function section(cookie: string): Promise<NewsletterPage> {
  const response = await call(adminNewsletter, '/api/admin/newsletter', { headers: { cookie } });
  expect(response.status).toBe(200);
  return (await response.json()) as NewsletterPage;
}

/** A header as it was written (mailparser reads List-* headers into objects). */
const rawHeader = (mail: ParsedMail, name: string) =>
  mail.headerLines
    .find((header) => header.key === name)
    ?.line.slice(name.length + 1)
    .trim();

const recipients = (mails: ParsedMail[]) =>
  mails.flatMap((mail) => [mail.to].flat().flatMap((group) => group?.value.map((address) => address.address) ?? []));

describe.each(stores.backends)('the newsletter on %s', (_name, backend) => {
  let store: Store;
  /** The test's clock: the sweep reads it, the test moves it. */
  let at: number;
  const clock = () => new Date(at);

  /** A sign-up, confirmed through its link unless `confirm` is false. */
  async function subscriber(email: string, firstName: string, confirm = true) {
    const input = { email, firstName, source: 'newsletter_footer', page: '/blog' };
    await store.subscribe(input, clock());
    if (confirm)
      await store.confirmSubscriber({ ...input, signUp: { at: clock().toISOString(), page: '/blog' } }, clock());
    at += 1000;
  }

  beforeEach(async () => {
    store = await stores.fresh(backend, {
      // These tests count the e-mails a sweep sends; the owner's weekly letter has tests of its own.
      WEEKLY_REPORT: 'off',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Loopwork <hello@loopwork.example>',
      LEADS_NOTIFY_TO: 'owner@loopwork.example',
      ADMIN_PASSWORD: PASSWORD,
      SESSION_SECRET: 'a session secret of at least thirty-two characters',
      MAIL_RATE_PER_MINUTE: '0',
    });
    smtp.refuse([]);
    smtp.messages.length = 0;
    at = Date.parse('2026-12-01T09:00:00Z');
  });

  test('a new post goes once to the one who stays confirmed, with one-click unsubscribe; Send again sends nothing', async () => {
    const post = mailings.find((mailing) => mailing.kind === 'post');
    if (!post) throw new Error('the mailings fixture holds no post');
    const id = mailingId(post);
    await subscriber('ada@example.com', 'Ada');
    await subscriber('ben@example.com', 'Ben', false);
    await subscriber('cleo@example.com', 'Cleo');
    const cookie = await logIn(PASSWORD);
    expect((await section(cookie)).items.find((item) => item.id === id)).toMatchObject({ status: 'unsent' });
    expect((await section(cookie)).confirmed).toBe(2);

    expect(await press(cookie, id, 'send')).toMatchObject({ status: 200, body: { item: { status: 'sending' } } });
    // The fan-out writes Ada's and Cleo's entries (Ben is pending); Cleo then leaves before hers goes.
    expect(await fanOut(store, { now: clock })).toBe(2);
    await store.unsubscribe('cleo@example.com', clock());
    at += 60_000;
    await runSweep(store, clock);

    expect(recipients(smtp.messages)).toEqual(['ada@example.com']);
    const [mail] = smtp.messages as [ParsedMail];
    expect(mail.subject).toBe(post.subject);
    expect(rawHeader(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(rawHeader(mail, 'list-id')).toMatch(/<newsletter\.[a-z0-9.-]+>$/);
    expect(rawHeader(mail, 'precedence')).toBe('bulk');
    expect(mail.text).toContain('Hi Ada,');
    // Its page, where the admin page was opened, as its unsubscribe link.
    expect(mail.text).toContain(`Read the post: ${ORIGIN}${new URL(post.url).pathname}`);
    expect(mail.text).toMatch(
      /You get this because you subscribed to the .+ newsletter on 1 December 2026 on .+\/blog\./,
    );
    expect(mail.html).not.toMatch(/<img[^>]+(?:width="1"|height="1")/);
    expect((await section(cookie)).items.find((item) => item.id === id)).toMatchObject({
      status: 'sent',
      progress: { queued: 2, sent: 1, failed: 0, bounced: 0, cancelled: 1 },
    });

    // RFC 8058: a POST to the List-Unsubscribe URL unsubscribes at once.
    const oneClick = new URL(/^<(.+)>$/.exec(rawHeader(mail, 'list-unsubscribe') ?? '')?.[1] ?? '');
    const left = await call(newsletterUnsubscribe, `${oneClick.pathname}${oneClick.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(left.status).toBe(200);
    expect(
      (await store.listSubscribers({ offset: 0, limit: 10 })).find((one) => one.email === 'ada@example.com')?.status,
    ).toBe('unsubscribed');

    // Pressing Send again, and more sweeps, send nothing more.
    await subscriber('ada@example.com', 'Ada');
    expect(await press(cookie, id, 'send')).toMatchObject({ status: 200, body: { item: { status: 'sent' } } });
    for (let minute = 0; minute < 3; minute += 1) {
      at += 60_000;
      await runSweep(store, clock);
    }
    expect(smtp.messages).toHaveLength(1);
  });

  test('the section previews, tests and declines; wrong requests get a 4xx that says why', async () => {
    const [issue, post] = [
      mailings.find((mailing) => mailing.kind === 'issue'),
      mailings.find((mailing) => mailing.kind === 'post'),
    ];
    if (!issue || !post) throw new Error('the mailings fixture holds no post or no issue');
    const cookie = await logIn(PASSWORD);
    const get = (pathname: string, headers: Record<string, string> = { cookie }) =>
      call(adminNewsletter, pathname, {
        headers,
        params: Object.fromEntries(
          Object.entries(/\/newsletter\/(?<id>[^/]+)\/(?<action>[^/]+)$/.exec(pathname)?.groups ?? {}),
        ),
      });

    expect((await get('/api/admin/newsletter', {})).status).toBe(401);
    const preview = await get(`/api/admin/newsletter/${mailingId(issue)}/preview`);
    expect(preview.status).toBe(200);
    const shown = (await preview.json()) as {
      subject: string;
      html: string;
      text: string;
      headers: Record<string, string>;
    };
    expect(shown.subject).toBe(issue.subject);
    expect(shown.html).toContain(issue.html.slice(0, 200));
    expect(shown.text).toContain('Unsubscribe with one click: ');
    expect(shown.headers).toMatchObject({ 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click', Precedence: 'bulk' });
    expect((await get('/api/admin/newsletter/post-no-such-post/preview')).status).toBe(404);
    expect((await get(`/api/admin/newsletter/${mailingId(issue)}/launch`)).status).toBe(404);
    expect((await get(`/api/admin/newsletter/${mailingId(issue)}/send`)).status).toBe(405);

    // A test goes at once, to LEADS_NOTIFY_TO or to the one address typed in; a bad address is a 422.
    expect(await press(cookie, mailingId(issue), 'test')).toMatchObject({
      status: 200,
      body: { to: ['owner@loopwork.example'], sent: true },
    });
    expect(await press(cookie, mailingId(issue), 'test', { to: 'Editor@Example.com' })).toMatchObject({
      status: 200,
      body: { to: ['editor@example.com'], sent: true },
    });
    expect(recipients(smtp.messages)).toEqual(['owner@loopwork.example', 'editor@example.com']);
    // With the mail server down, the answer says the test has not gone; it waits in the Outbox.
    await smtp.stop();
    try {
      expect(await press(cookie, mailingId(issue), 'test', { to: 'later@example.com' })).toMatchObject({
        status: 200,
        body: { to: ['later@example.com'], sent: false },
      });
    } finally {
      await smtp.start();
    }
    const waiting = (await store.listOutbox({ offset: 0, limit: 1 }))[0];
    expect(waiting).toMatchObject({ to: 'later@example.com', status: 'pending' });
    expect(waiting?.lastError).toMatch(/ECONNREFUSED/);
    expect(smtp.messages[0]?.subject).toBe(`[Test] ${issue.subject}`);
    const refused = await press(cookie, mailingId(issue), 'test', { to: 'not an address' });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ fields: { to: expect.any(String) } });
    expect((await press(cookie, mailingId(issue), 'test', { to: 'a@example.com', bcc: 'b@example.com' })).status).toBe(
      422,
    );

    // Don't send: the item says so; it cannot be declined once sending began.
    expect(await press(cookie, mailingId(post), 'skip')).toMatchObject({
      status: 200,
      body: { item: { status: 'skipped' } },
    });
    await press(cookie, mailingId(issue), 'send');
    expect((await press(cookie, mailingId(issue), 'skip')).status).toBe(409);
    // Nor sent once declined: "Never e-mail it" holds for the API as for the page.
    expect(await press(cookie, mailingId(post), 'send')).toMatchObject({
      status: 409,
      body: { error: 'It was declined (Don’t send), which cannot be undone' },
    });
    expect(await store.mailingsFanningOut()).toEqual([mailingId(issue)]);

    // From another site, nothing happens.
    const crossSite = await call(adminNewsletter, `/api/admin/newsletter/${mailingId(post)}/send`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie,
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      },
      body: '{}',
      params: { id: mailingId(post), action: 'send' },
    });
    expect(crossSite.status).toBe(403);
    expect((await section(cookie)).items.find((item) => item.id === mailingId(post))?.status).toBe('skipped');
  });

  test.each([
    ['a 1 MB body', 'x'.repeat(1024 * 1024), 413],
    ['a body that is not JSON', '{not json', 400],
    ['a field the action does not take', '{"to":"a@example.com"}', 422],
  ])('Send and Don’t send refuse %s, and nothing is sent or declined', async (_, body, status) => {
    const post = mailings.find((mailing) => mailing.kind === 'post');
    if (!post) throw new Error('the mailings fixture holds no post');
    const id = mailingId(post);
    await subscriber('ada@example.com', 'Ada');
    const cookie = await logIn(PASSWORD);
    for (const action of ['send', 'skip'] as const) {
      const answer = await call(adminNewsletter, `/api/admin/newsletter/${id}/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, origin: ORIGIN },
        body,
        params: { id, action },
      });
      expect(answer.status, `${action} with ${_}`).toBe(status);
      expect(await answer.json()).toEqual({
        error: expect.any(String),
        ...(status === 422 ? { fields: expect.anything() } : {}),
      });
    }
    await runSweep(store, clock);
    expect(smtp.messages).toHaveLength(0);
    expect((await section(cookie)).items.find((item) => item.id === id)?.status).toBe('unsent');
  });

  test('notifications and confirmations go before the newsletter, which keeps to MAIL_RATE_PER_MINUTE', async () => {
    const post = mailings.find((mailing) => mailing.kind === 'post');
    if (!post) throw new Error('the mailings fixture holds no post');
    process.env.MAIL_RATE_PER_MINUTE = '10';
    resetEnv();
    for (let index = 0; index < 25; index += 1) await subscriber(`reader${index}@example.com`, 'Reader');
    const cookie = await logIn(PASSWORD);
    await press(cookie, mailingId(post), 'send');
    expect(await fanOut(store, { now: clock })).toBe(25);
    // A sign-up arrives while the newsletter waits: its confirmation is sent first.
    const input = { email: 'new@example.com', firstName: 'Nova', source: 'newsletter_footer' };
    const settings = { origin: ORIGIN, notifyTo: ['owner@loopwork.example'], webhookHost: undefined };
    await store.subscribe(input, clock(), { outbox: () => [confirmationEntry(input, clock(), settings)] });
    // One reader asks to be erased before theirs goes: it goes with them, counted as not sent.
    expect(await store.deleteSubscriber('reader0@example.com')).toBeDefined();
    await runSweep(store, clock);
    expect(smtp.messages[0]?.subject).toMatch(/^Please confirm/);
    expect(smtp.messages).toHaveLength(1 + 10);
    at += 60_000;
    await runSweep(store, clock);
    expect(smtp.messages).toHaveLength(1 + 20);
    at += 60_000;
    await runSweep(store, clock);
    expect(smtp.messages).toHaveLength(1 + 24);
    expect(new Set(recipients(smtp.messages.slice(1))).size).toBe(24);
    expect(recipients(smtp.messages)).not.toContain('reader0@example.com');
    expect((await section(cookie)).items.find((item) => item.id === mailingId(post))).toMatchObject({
      status: 'sent',
      progress: { queued: 25, sent: 24, cancelled: 1 },
    });
  });

  test('NEWSLETTER_AUTO_SEND_HOURS sends what is published from then on, after that many hours, unless declined', async () => {
    const [post, older] = mailings.filter((mailing) => mailing.kind === 'post');
    if (!post || !older) throw new Error('the mailings fixture holds fewer than two posts');
    process.env.NEWSLETTER_AUTO_SEND_HOURS = '2';
    resetEnv();
    await subscriber('ada@example.com', 'Ada');
    const cookie = await logIn(PASSWORD);
    // Automatic sending was turned on the day the newest post was published: the older ones
    // (published on an earlier day) never go by themselves.
    at = Date.parse(`${post.publishedDate}T06:00:00Z`);
    await runSweep(store, clock);
    const items = (await section(cookie)).items;
    expect(items.find((item) => item.id === mailingId(post))).toMatchObject({
      status: 'unsent',
      autoSendAt: new Date(at + 2 * 3600_000).toISOString(),
    });
    expect(older.publishedDate < post.publishedDate).toBe(true);
    expect(items.find((item) => item.id === mailingId(older))?.autoSendNote).toMatch(/goes only if you send it/);
    at += 2 * 3600_000 - 60_000;
    await runSweep(store, clock);
    expect(smtp.messages).toHaveLength(0);
    at += 60_000;
    await runSweep(store, clock);
    expect(recipients(smtp.messages)).toEqual(['ada@example.com']);
    expect(smtp.messages[0]?.subject).toBe(post.subject);
    expect((await section(cookie)).items.find((item) => item.id === mailingId(post))).toMatchObject({
      status: 'sent',
      requestedBy: 'automatic',
    });
  });

  test('a 5xx for one recipient marks them bounced; the next mailing skips them; the CSV says so', async () => {
    const [first, second] = [
      mailings.find((mailing) => mailing.kind === 'post'),
      mailings.find((mailing) => mailing.kind === 'issue'),
    ];
    if (!first || !second) throw new Error('the mailings fixture holds no post or no issue');
    await subscriber('ada@example.com', 'Ada');
    await subscriber('gone@example.com', 'Gil');
    smtp.refuse(['gone@example.com']);
    const cookie = await logIn(PASSWORD);

    await press(cookie, mailingId(first), 'send');
    await runSweep(store, clock);
    expect(recipients(smtp.messages)).toEqual(['ada@example.com']);
    const gil = (await store.listSubscribers({ offset: 0, limit: 10 })).find((one) => one.email === 'gone@example.com');
    expect(gil).toMatchObject({ status: 'bounced', consent: { bounce: expect.stringMatching(/^SMTP 550/) } });
    expect((await section(cookie)).items.find((item) => item.id === mailingId(first))).toMatchObject({
      // A bounce is the address's doing: the mailing still went out.
      status: 'sent',
      progress: { queued: 2, sent: 1, bounced: 1 },
    });

    // A refusal that is not about the mailbox (a provider's daily cap) fails the e-mail, not the person.
    await subscriber('busy@example.com', 'Bea');
    smtp.refuse(['busy@example.com'], '5.4.5 Daily user sending quota exceeded');
    at += 60_000;
    await press(cookie, mailingId(second), 'send');
    await runSweep(store, clock);
    expect(recipients(smtp.messages)).toEqual(['ada@example.com', 'ada@example.com']);
    expect(smtp.messages[1]?.subject).toBe(second.subject);
    expect((await section(cookie)).items.find((item) => item.id === mailingId(second))).toMatchObject({
      status: 'incomplete',
      progress: { queued: 2, sent: 1, failed: 1, bounced: 0 },
    });
    const statuses = Object.fromEntries(
      (await store.listSubscribers({ offset: 0, limit: 10 })).map((one) => [one.email, one.status]),
    );
    expect(statuses).toEqual({
      'ada@example.com': 'confirmed',
      'gone@example.com': 'bounced',
      'busy@example.com': 'confirmed',
    });

    // The cap is lifted the next day: the owner retries the failed e-mail from the Outbox, and it goes.
    smtp.refuse([]);
    const failed = newsletterEntryId(mailingId(second), 'busy@example.com');
    const retry = await call(adminOutbox, `/api/admin/outbox/${failed}/retry`, {
      method: 'POST',
      headers: { cookie, origin: ORIGIN, 'content-type': 'application/json' },
      body: '{}',
      params: { id: failed },
    });
    expect(retry.status).toBe(200);
    await runSweep(store, clock);
    expect(recipients(smtp.messages)).toEqual(['ada@example.com', 'ada@example.com', 'busy@example.com']);
    expect((await section(cookie)).items.find((item) => item.id === mailingId(second))).toMatchObject({
      status: 'sent',
      progress: { queued: 2, sent: 2, failed: 0, bounced: 0 },
    });

    const csv = await call(adminSubscribers, '/api/admin/subscribers?format=csv', { headers: { cookie } });
    const line = (await csv.text()).split('\n').find((row) => row.includes('gone@example.com'));
    expect(line).toContain('bounced');
    expect(line).toContain(gil?.consent.bouncedAt);
  });
});
