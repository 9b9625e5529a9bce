import { describe, expect, test } from 'vitest';
import { headerAddress } from '../../functions/_lib/delivery/mail-transport';
import { greeting, mailbox } from '../../functions/_lib/delivery/addresses';
import { answerFailure } from '../../functions/_lib/delivery/webhooks';
import {
  afterAttempt,
  backoffMs,
  newState,
  NOT_SET_UP_RECHECK_MS,
  OUTBOX_RETRY_WINDOW_MS,
  revived,
} from '../../functions/_lib/store/outbox-state';
import { confirmed, newSubscriber, unsubscribed } from '../../functions/_lib/store/subscriber-rules';
import type { OutboxState } from '../../functions/_lib/store/types';
import { EARLIER_CONSENTS_KEPT } from '../../src/shared/records';

/**
 * The rules both stores apply, as the pure functions they are: how an attempt moves an outbox
 * entry on, and what a confirmation link makes of a subscriber's consent record.
 */

const T0 = new Date('2026-11-24T09:00:00.000Z');
const minutes = (count: number) => new Date(T0.getTime() + count * 60_000);

function entry(): OutboxState {
  return newState(
    {
      id: 'e1',
      kind: 'webhook',
      ref: 'lead-1',
      to: 'hooks.example.com',
      message: { channel: 'webhook', type: 'lead.created', body: '{}' },
      throttle: { key: 'k', seconds: 60 },
    },
    T0,
  );
}

describe('the outbox’s retries', () => {
  test('wait 1, 2, 4 … minutes after each failure, never more than an hour', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map((attempts) => backoffMs(attempts) / 60_000)).toEqual([
      1, 2, 4, 8, 16, 32, 60, 60, 60,
    ]);
  });

  test('keep a failing entry for 24 hours, then mark it dead with its last error', () => {
    let state = entry();
    let now = T0;
    const gaps: number[] = [];
    while (state.status === 'pending') {
      const next = afterAttempt(state, { kind: 'failed', error: 'HTTP 503', permanent: false }, now);
      if (next.nextAttemptAt) {
        gaps.push((Date.parse(next.nextAttemptAt) - now.getTime()) / 60_000);
        now = new Date(next.nextAttemptAt);
      }
      state = next;
    }
    expect(gaps.slice(0, 8)).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    expect(Math.max(...gaps)).toBe(60);
    expect(now.getTime() - T0.getTime()).toBeLessThanOrEqual(OUTBOX_RETRY_WINDOW_MS);
    expect(state).toMatchObject({ status: 'dead', lastError: 'HTTP 503 (gave up after 24 hours)' });
  });

  test('an entry whose channel is not set up is not counted as tried, and is looked at again in a minute', () => {
    const waiting = afterAttempt(
      { ...entry(), attempts: 2 },
      { kind: 'failed', error: 'E-mail is not set up: set SMTP_URL', permanent: false, notSetUp: true },
      minutes(10),
    );
    expect(waiting).toMatchObject({ status: 'pending', attempts: 2, lastError: 'E-mail is not set up: set SMTP_URL' });
    expect(Date.parse(waiting.nextAttemptAt ?? '')).toBe(minutes(10).getTime() + NOT_SET_UP_RECHECK_MS);
    // Past its 24 hours it is dead all the same.
    const late = afterAttempt(
      waiting,
      { kind: 'failed', error: 'E-mail is not set up: set SMTP_URL', permanent: false, notSetUp: true },
      minutes(24 * 60),
    );
    expect(late.status).toBe('dead');
  });

  test('a retried dead entry starts its backoff again from a minute, with a new 24 hours', () => {
    const dead = { ...entry(), status: 'dead' as const, attempts: 9, lastError: 'HTTP 503' };
    const again = revived(dead, minutes(30 * 60));
    expect(again).toMatchObject({ status: 'pending', attempts: 0, nextAttemptAt: minutes(30 * 60).toISOString() });
    const failed = afterAttempt(again, { kind: 'failed', error: 'HTTP 503', permanent: false }, minutes(30 * 60));
    expect(failed.nextAttemptAt).toBe(minutes(30 * 60 + 1).toISOString());
  });

  test('a throttle is the write’s business: the entry’s state does not carry it', () => {
    expect(entry()).not.toHaveProperty('throttle');
  });
});

describe('a confirmation link', () => {
  const footer = { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', source: 'newsletter_footer' };
  const pending = () => newSubscriber({ ...footer, page: '/blog/a', policyDate: '2026-01-01' }, minutes(0));
  const link = (at: Date, extra: object = {}) => ({
    ...footer,
    signUp: { at: at.toISOString(), page: '/blog/a', policyDate: '2026-01-01' },
    sentAt: at.toISOString(),
    policyDate: '2026-02-02',
    ...extra,
  });

  /** The consent of the sign-up at minute 0, confirmed at minute 5. */
  const FIRST_CONSENT = {
    subscribedAt: minutes(0).toISOString(),
    form: 'newsletter_footer',
    page: '/blog/a',
    policyDate: '2026-01-01',
    confirmedAt: minutes(5).toISOString(),
    confirmedPolicyDate: '2026-02-02',
  };

  test('records the sign-up it was sent for as the consent, confirmed now', () => {
    const change = confirmed(pending(), link(minutes(0)), minutes(5));
    expect(change.next.consent).toEqual(FIRST_CONSENT);
  });

  test('sent before the person unsubscribed confirms nothing', () => {
    const first = confirmed(pending(), link(minutes(0)), minutes(5)).next;
    const left = unsubscribed(first, minutes(10)).next;
    const change = confirmed(left, link(minutes(0)), minutes(20));
    expect(change).toMatchObject({ changed: false, refused: 'unsubscribed-since' });
    expect(change.next).toBe(left);
  });

  test('of a later sign-up, after an unsubscription, keeps the earlier consent and its withdrawal', () => {
    const first = confirmed(pending(), link(minutes(0)), minutes(5)).next;
    const left = unsubscribed(first, minutes(10)).next;
    const back = confirmed(
      left,
      link(minutes(60), {
        source: 'website_footer',
        firstName: 'Ada Lovelace',
        lastName: undefined,
        signUp: { at: minutes(60).toISOString(), page: '/contact' },
      }),
      minutes(61),
    );
    expect(back.confirmedNow).toBe(true);
    expect(back.next).toMatchObject({ firstName: 'Ada Lovelace', status: 'confirmed' });
    expect(back.next).not.toHaveProperty('lastName');
    expect(back.next.consent).toEqual({
      subscribedAt: minutes(60).toISOString(),
      form: 'website_footer',
      page: '/contact',
      confirmedAt: minutes(61).toISOString(),
      confirmedPolicyDate: '2026-02-02',
      earlier: [{ ...FIRST_CONSENT, unsubscribedAt: minutes(10).toISOString() }],
    });
  });

  test(`keeps at most ${EARLIER_CONSENTS_KEPT} earlier consents, the newest`, () => {
    let subscriber = pending();
    for (let round = 0; round < EARLIER_CONSENTS_KEPT + 3; round += 1) {
      const at = minutes(round * 10);
      subscriber = confirmed(subscriber, link(at), minutes(round * 10 + 1)).next;
      subscriber = unsubscribed(subscriber, minutes(round * 10 + 2)).next;
    }
    const earlier = subscriber.consent.earlier ?? [];
    expect(earlier).toHaveLength(EARLIER_CONSENTS_KEPT);
    expect(earlier.at(-1)?.subscribedAt).toBe(minutes((EARLIER_CONSENTS_KEPT + 1) * 10).toISOString());
  });
});

describe('the greeting of an e-mail to an unverified address', () => {
  test.each([
    ['Ada Lovelace', 'Hi Ada,'],
    ['Zoë', 'Hi Zoë,'],
    ["O'Brien", "Hi O'Brien,"],
    ['Jean-Luc Picard', 'Hi Jean-Luc,'],
    ['  Łukasz  ', 'Hi Łukasz,'],
  ])('names a plain first name: %s', (name, expected) => {
    expect(greeting(name)).toBe(expected);
  });

  test.each([
    'https://evil.example/win',
    'evil.example/win a prize',
    'WIN$$$ now',
    '1234',
    '<b>Hi</b>',
    'Averyveryveryverylongfirstnamethatgoeson',
    '',
  ])('carries nothing of a stranger’s choosing: %s', (name) => {
    expect(greeting(name)).toBe('Hello,');
  });
});

describe('the mailbox an address delivers to, for the e-mail limits', () => {
  test.each([
    ['ada@example.com', 'ada@example.com'],
    ['Ada@Example.COM', 'ada@example.com'],
    ['ada+news@example.com', 'ada@example.com'],
    ['ada+1+2@example.com', 'ada@example.com'],
    ['a.d.a@gmail.com', 'ada@gmail.com'],
    ['A.da+x@googlemail.com', 'ada@gmail.com'],
    ['a.da@example.com', 'a.da@example.com'],
    ['m.box9@proton.me', 'mbox9@proton.me'],
    ['m_box9@protonmail.com', 'mbox9@proton.me'],
    ['m-box9+x@pm.me', 'mbox9@proton.me'],
    ['mbox9@protonmail.ch', 'mbox9@proton.me'],
    ['ivan.petrov@yandex.com', 'ivan-petrov@yandex.ru'],
    ['ivan-petrov@ya.ru', 'ivan-petrov@yandex.ru'],
    ['ivan.petrov@yandex.kz', 'ivan-petrov@yandex.ru'],
    ['m_box9@example.com', 'm_box9@example.com'],
    ['victim@fastmail.com', 'victim@fastmail.com'],
    ['a@victim.fastmail.com', 'victim@fastmail.com'],
    ['shop+x@victim.fastmail.com', 'victim@fastmail.com'],
    ['a@victim.fastmail.fm', 'victim@fastmail.fm'],
    ['a@victim.example.com', 'a@victim.example.com'],
  ])('%s is %s', (email, expected) => {
    expect(mailbox({ email })).toBe(expected);
  });

  test('an internationalised domain counts in its ASCII form', () => {
    expect(mailbox({ email: 'ada@bücher.de', emailAscii: 'ada@xn--bcher-kva.de' })).toBe('ada@xn--bcher-kva.de');
  });
});

describe('the addresses of an e-mail, as nodemailer is handed them', () => {
  test.each([
    ['"Nia Okafor" <nia@example.com>', { name: 'Nia Okafor', address: 'nia@example.com' }],
    // A name that spells an address keeps no <, > or @: no look-alike in the owner's mail client.
    ['"Zoë <ceo@loopwork.test>" <nia@example.com>', { name: 'Zoë ceo loopwork.test', address: 'nia@example.com' }],
    ['Loopwork <hello@loopwork.example>', { name: 'Loopwork', address: 'hello@loopwork.example' }],
    ['nia@example.com', 'nia@example.com'],
    ['"=?utf-8?B?Q0VP?=" <nia@example.com>', { name: '= ?utf-8?B?Q0VP?=', address: 'nia@example.com' }],
  ])('%s, as stored, is %j', (stored, expected) => {
    expect(headerAddress(stored)).toEqual(expected);
  });
});

describe('a webhook answer other than 2xx', () => {
  const RECEIVER = 'https://hooks.example.com/catch';
  test.each([
    ...[301, 302, 303, 307, 308, 408, 429, 500, 502, 503].map((status) => [status, 'retried', false] as const),
    ...[400, 401, 403, 404, 409, 410, 422].map((status) => [status, 'dead at once', true] as const),
  ])('%i is %s', (status, _label, permanent) => {
    expect(answerFailure(status, null, RECEIVER).permanent).toBe(permanent);
  });

  test.each([
    ['https://hooks.example.net/new?key=secret', 'to https://hooks.example.net/new'],
    ['/catch/', 'to https://hooks.example.com/catch/'],
    ['http://[', 'without saying where'],
    [null, 'without saying where'],
  ])('a redirect to %s says it went %s, without its query', (location, said) => {
    expect(answerFailure(301, location, RECEIVER).message).toBe(
      `HTTP 301: the receiver redirected ${said}; redirects are not followed, so set LEAD_WEBHOOK_URL to where it points`,
    );
  });
});
