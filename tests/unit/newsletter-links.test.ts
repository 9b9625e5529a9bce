/**
 * The tokens of the newsletter's e-mailed links, as the confirmation e-mail carries them: they end
 * up in logs, browser history and forwarded mail, so nothing in them may be readable, and an
 * unsubscribe link must keep working long after its e-mail was sent, but not for ever.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { verifyLink } from '../../functions/_lib/delivery/links';
import { confirmationEntry } from '../../functions/_lib/delivery/emails/confirmation';
import { resetEnv } from '../../functions/_lib/platform/env';
import { legacyLinkToken } from '../support/legacy-links';

const T0 = new Date('2026-11-24T09:00:00.000Z');
const DAY = 24 * 3600_000;
const at = (ms: number) => new Date(T0.getTime() + ms);
const SETTINGS = {
  origin: 'https://www.loopwork.example',
  notifyTo: ['team@loopwork.example'],
  webhookHost: undefined,
};
// Each value is long enough that a token's random characters never spell it by chance: a token
// holds about 220 characters, and a three-letter name turned up in one run in 80.
const INPUT = {
  email: 'chiamaka.okafor@example.com',
  firstName: 'Chiamaka',
  lastName: 'Okafor',
  source: 'website_footer',
  page: '/blog/zoho-tips',
};

const saved = process.env.SESSION_SECRET;
beforeAll(() => {
  process.env.SESSION_SECRET = 'newsletter-links-test-secret-0123456789';
  resetEnv();
});
afterAll(() => {
  if (saved === undefined) delete process.env.SESSION_SECRET;
  else process.env.SESSION_SECRET = saved;
  resetEnv();
});

/** The confirm and unsubscribe tokens of the confirmation e-mail of a sign-up at `now`. */
function tokensOf(now = T0) {
  const { message } = confirmationEntry(INPUT, now, SETTINGS);
  if (message.channel !== 'mail') throw new Error('not an e-mail');
  const confirm = /Confirm my subscription: (\S+)/.exec(message.text)?.[1] ?? '';
  const oneClick = /^<(.+)>$/.exec(message.headers?.['List-Unsubscribe'] ?? '')?.[1] ?? '';
  return {
    confirm: new URL(confirm).searchParams.get('token') ?? '',
    unsubscribe: new URL(oneClick).searchParams.get('token') ?? '',
  };
}

/** Everything a token says to someone who decodes its parts as base64. */
const decoded = (token: string) =>
  [token, ...token.split('.').map((part) => Buffer.from(part, 'base64url').toString('latin1'))].join(' ').toLowerCase();

describe('the tokens of the newsletter links', () => {
  test('decoded, say nothing of the address, the name, the form or the page', () => {
    for (const token of Object.values(tokensOf())) {
      expect(token).toMatch(/^[A-Za-z0-9._~-]{20,}$/);
      for (const secret of ['chiamaka', 'okafor', 'example.com', 'website_footer', 'zoho-tips'])
        expect(decoded(token)).not.toContain(secret);
    }
  });

  test('differ in every e-mail, even to one address at one moment', () => {
    const first = tokensOf();
    const second = tokensOf();
    expect(second.confirm).not.toBe(first.confirm);
    expect(second.unsubscribe).not.toBe(first.unsubscribe);
  });

  test('changed anywhere, are refused as not valid', () => {
    const { confirm, unsubscribe } = tokensOf();
    for (const token of [confirm, unsubscribe])
      for (const index of [5, Math.floor(token.length / 2), token.length - 1]) {
        const changed = `${token.slice(0, index)}${token[index] === 'A' ? 'B' : 'A'}${token.slice(index + 1)}`;
        expect(verifyLink(changed, T0)).toMatchObject({ ok: false, reason: 'invalid' });
      }
  });

  test('of a confirmation expire after 7 days; of an unsubscription, after a year', () => {
    const { confirm, unsubscribe } = tokensOf();
    expect(verifyLink(confirm, at(7 * DAY - 1))).toMatchObject({
      ok: true,
      payload: { a: 'confirm', e: INPUT.email, f: 'Chiamaka', l: 'Okafor', s: 'website_footer', p: '/blog/zoho-tips' },
    });
    expect(verifyLink(confirm, at(7 * DAY))).toMatchObject({ ok: false, reason: 'expired' });
    expect(verifyLink(unsubscribe, at(365 * DAY - 1))).toMatchObject({
      ok: true,
      payload: { a: 'unsubscribe', e: INPUT.email },
    });
    expect(verifyLink(unsubscribe, at(365 * DAY))).toMatchObject({ ok: false, reason: 'expired' });
  });

  test('of the earlier signed format still unsubscribe, as they are in people’s inboxes', () => {
    const legacy = legacyLinkToken({ a: 'unsubscribe', e: INPUT.email });
    expect(verifyLink(legacy, at(3 * 365 * DAY))).toEqual({ ok: true, payload: { a: 'unsubscribe', e: INPUT.email } });
    expect(verifyLink(`${legacy.slice(0, -1)}${legacy.endsWith('A') ? 'B' : 'A'}`, T0)).toMatchObject({ ok: false });
  });
});
