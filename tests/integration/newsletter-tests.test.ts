/**
 * "Send a test" cannot become a way to mail anyone, without limit, ahead of the leads: tests to
 * addresses typed in are counted per session and per UTC day, atomically, on both stores; they
 * wait in the newsletter's line at MAIL_RATE_PER_MINUTE, behind every lead notification; and an
 * address that unsubscribed or bounced is refused with a message that says so. The real admin
 * endpoint, the real sweep and a real SMTP server; the mailings are the build file's fixture.
 */
import type { ParsedMail } from 'mailparser';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import adminNewsletter from '../../functions/admin-newsletter';
import { leadNotification } from '../../functions/_lib/delivery/emails/lead-notification';
import { mailingId } from '../../functions/_lib/delivery/emails/newsletter-email';
import { publishedMailings } from '../../functions/_lib/delivery/newsletter-sending';
import { runSweep } from '../../functions/_lib/delivery/scheduled-sweep';
import { startSmtpSink, type SmtpSink } from '../../scripts/harness/smtp-sink';
import type { NewsletterTestAnswer } from '../../src/shared/api-responses';
import { call, logIn, ORIGIN } from '../support/admin-calls';
import { useBuildFiles } from '../support/build-files';
import { useStores } from '../support/store-setup';
import type { Store } from '../support/stores';

const PASSWORD = 'a password for the newsletter tests';
const TEAM = 'owner@loopwork.example';
const STRANGER = 'stranger@third-party.test';

useBuildFiles();
const stores = useStores();
let smtp: SmtpSink;
let issueId: string;

beforeAll(async () => {
  smtp = await startSmtpSink();
  const issue = (await publishedMailings()).find((mailing) => mailing.kind === 'issue');
  if (!issue) throw new Error('the mailings fixture holds no issue');
  issueId = mailingId(issue);
});
afterAll(() => smtp?.stop());

type Answer = Partial<NewsletterTestAnswer> & { error?: string; fields?: Record<string, string> };

/** "Send a test", as the admin page sends it. */
async function sendTest(cookie: string, body: { to?: string } = {}) {
  const response = await call(adminNewsletter, `/api/admin/newsletter/${issueId}/test`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: ORIGIN },
    body: JSON.stringify(body),
    params: { id: issueId, action: 'test' },
  });
  return { status: response.status, body: (await response.json()) as Answer };
}

const recipients = (mails: ParsedMail[]) =>
  mails.map((mail) => [mail.to].flat().flatMap((group) => group?.value.map((address) => address.address) ?? [])[0]);

describe.each(stores.backends)('"Send a test" on %s', (_name, backend) => {
  let store: Store;
  /** The clock of the handlers (Date) and of the sweep: the test moves it, nothing waits. */
  let at: number;
  const clock = () => new Date(at);
  const setClock = (ms: number) => {
    at = ms;
    vi.setSystemTime(ms);
  };

  beforeEach(async () => {
    store = await stores.fresh(backend, {
      // These tests count the e-mails a sweep sends; the owner's weekly letter has tests of its own.
      WEEKLY_REPORT: 'off',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Loopwork <hello@loopwork.example>',
      LEADS_NOTIFY_TO: TEAM,
      ADMIN_PASSWORD: PASSWORD,
      SESSION_SECRET: 'a session secret of at least thirty-two characters',
      MAIL_RATE_PER_MINUTE: '5',
      // Sixty requests at once commit one after another; on a busy machine the last wait past the
      // default 3 s bound on a store call and answer 503. The count is what these tests check,
      // and the form and admin handler tests check the bound.
      STORE_TIMEOUT_MS: '30000',
    });
    smtp.refuse([]);
    smtp.messages.length = 0;
    // Only Date is faked: the handlers read the time the test sets; timers and I/O run as ever.
    vi.useFakeTimers({ toFake: ['Date'] });
    setClock(Date.parse('2026-12-01T09:00:05Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('sixty tests at once to a stranger: twenty go, at the newsletter pace and after a lead; forty are refused', async () => {
    const cookie = await logIn(PASSWORD);
    const answers = await Promise.all(Array.from({ length: 60 }, () => sendTest(cookie, { to: STRANGER })));

    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused, 'tests refused past the limit of 20').toHaveLength(40);
    expect(refused[0]?.body.error).toMatch(/20 tests/);
    const accepted = answers.filter((answer) => answer.status === 200);
    expect(accepted).toHaveLength(20);
    // Within MAIL_RATE_PER_MINUTE (5) they go at once; the others wait their turn in the newsletter's line.
    expect(accepted.filter((answer) => answer.body.sent)).toHaveLength(5);
    expect(accepted.filter((answer) => answer.body.waiting)).toHaveLength(15);
    expect(smtp.messages).toHaveLength(5);

    // A lead arrives while fifteen tests wait: its notification is sent before any of them.
    const settings = { origin: ORIGIN, notifyTo: [TEAM], webhookHost: undefined };
    await store.createLead({ name: 'Nia Okafor', email: 'nia@example.com', source: 'contact_form' }, clock(), {
      outbox: (lead) => [leadNotification(lead, settings)],
    });
    await runSweep(store, clock);
    expect(smtp.messages.map((mail) => mail.subject)).toEqual([
      ...Array.from({ length: 5 }, () => expect.stringMatching(/^\[Test\] /)),
      expect.stringMatching(/^New lead: Nia Okafor/),
    ]);
    // Then five a minute, and never more than the twenty accepted.
    for (const total of [11, 16, 21, 21]) {
      setClock(at + 60_000);
      await runSweep(store, clock);
      expect(smtp.messages).toHaveLength(total);
    }
    expect(recipients(smtp.messages).filter((to) => to === STRANGER)).toHaveLength(20);

    // The team's own address is never refused.
    expect(await sendTest(cookie)).toMatchObject({ status: 200, body: { to: [TEAM] } });
    expect(await sendTest(cookie, { to: TEAM })).toMatchObject({ status: 200, body: { to: [TEAM] } });
  });

  test('the limit holds per session and per UTC day', async () => {
    setClock(Date.parse('2026-12-01T23:50:00Z'));
    const first = await logIn(PASSWORD);
    for (let index = 0; index < 20; index += 1)
      expect((await sendTest(first, { to: `reader${index}@example.com` })).status).toBe(200);
    // Another login the same day: the day's twenty are spent.
    const second = await logIn(PASSWORD);
    const today = await sendTest(second, { to: STRANGER });
    expect(today.status).toBe(429);
    expect(today.body.error).toMatch(/today/);
    // The next day, the first session has spent its twenty; the second has its own.
    setClock(Date.parse('2026-12-02T00:10:00Z'));
    const spent = await sendTest(first, { to: STRANGER });
    expect(spent.status).toBe(429);
    expect(spent.body.error).toMatch(/session/);
    expect((await sendTest(second, { to: STRANGER })).status).toBe(200);
  });

  test('an address that unsubscribed or bounced gets no test, and the answer says why', async () => {
    const subscribe = async (email: string) => {
      const input = { email, firstName: 'Ada', source: 'newsletter_footer' };
      await store.subscribe(input, clock());
      await store.confirmSubscriber(input, clock());
    };
    await subscribe('left@example.com');
    await store.unsubscribe('left@example.com', clock());
    await subscribe('gone@example.com');
    await store.markBounced('gone@example.com', clock(), 'SMTP 550 5.1.1 Mailbox unavailable');
    await subscribe('stays@example.com');
    const cookie = await logIn(PASSWORD);

    const left = await sendTest(cookie, { to: 'Left@Example.com' });
    expect(left.status, 'a test to an unsubscribed address').toBe(409);
    expect(left.body.error).toMatch(/unsubscribed/);
    expect(left.body.fields?.to).toBe(left.body.error);
    const gone = await sendTest(cookie, { to: 'gone@example.com' });
    expect(gone.status, 'a test to a bounced address').toBe(409);
    expect(gone.body.error).toMatch(/bounced/);
    expect(await sendTest(cookie, { to: 'stays@example.com' })).toMatchObject({ status: 200, body: { sent: true } });
    expect(recipients(smtp.messages)).toEqual(['stays@example.com']);
  });
});
