/**
 * The newsletter's e-mailed links: confirm (expires after 7 days) and unsubscribe (after a year: a
 * mailing's unsubscribe link must keep working long after it was sent). Their tokens end up in
 * logs, browser history and forwarded mail, so they are opaque: `v2.` and, in base64url, a random
 * 12-byte IV, the payload encrypted with AES-256-GCM under a key derived for these links alone,
 * and the 16-byte tag. Nothing in one is readable, no two are alike (not even two for one address
 * at one moment), and a changed one fails to decrypt. The key differs from every other derived
 * key, so a link can never pass for an admin session cookie or the other way round.
 *
 * Links sent before (`v1.<payload>.<mac>`: the payload readable base64url JSON, the MAC an
 * HMAC-SHA256) are still in people's inboxes: they are verified as they always were (an
 * unsubscribe one has no expiry), and none is issued any more.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { NEWSLETTER_PATHS } from '../../../src/shared/pages';
import { site } from '../../../src/site.config';
import { derivedKey } from '../platform/secrets';

const DAY_MS = 24 * 3600_000;
export const CONFIRM_LINK_TTL_MS = 7 * DAY_MS;
export const UNSUBSCRIBE_LINK_TTL_MS = 365 * DAY_MS;

const ConfirmPayload = z.object({
  a: z.literal('confirm'),
  e: z.string().min(3).max(254),
  f: z.string().max(200),
  l: z.string().max(100).optional(),
  s: z.string().max(40),
  /** Expiry, ms since the epoch. */
  x: z.number().int(),
  /** When the sign-up was made and the link sent, ms since the epoch (links sent before it was carried have none). */
  t: z.number().int().optional(),
  /** The page of the sign-up's form. */
  p: z.string().max(500).optional(),
  /** The privacy policy's updatedDate in force at the sign-up. */
  d: z.string().max(10).optional(),
});
const UnsubscribePayload = z.object({
  a: z.literal('unsubscribe'),
  e: z.string().min(3).max(254),
  /** Expiry, ms since the epoch: every encrypted link has one; a signed one of the earlier format has none. */
  x: z.number().int().optional(),
});
const Payload = z.discriminatedUnion('a', [ConfirmPayload, UnsubscribePayload]);

export type ConfirmLink = z.infer<typeof ConfirmPayload>;
export type LinkPayload = z.infer<typeof Payload>;

export type LinkCheck =
  | { ok: true; payload: LinkPayload }
  | { ok: false; reason: 'invalid' }
  /** A genuine link past its expiry, and what it was for. */
  | { ok: false; reason: 'expired'; action: LinkPayload['a'] };

const VERSION = 'v2';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Changing the site's secret invalidates links already sent. */
const encryptionKey = () => derivedKey('newsletter-link-encryption');

/** An opaque token for `payload`, which must carry its expiry (`x`). */
export function sealLink(payload: LinkPayload & { x: number }): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey(), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(VERSION, 'utf8'));
  const sealed = [iv, cipher.update(JSON.stringify(payload), 'utf8'), cipher.final(), cipher.getAuthTag()];
  return `${VERSION}.${Buffer.concat(sealed).toString('base64url')}`;
}

/** The payload of a genuine `v2` token's body, else undefined. */
function opened(body: string): unknown {
  const bytes = Buffer.from(body, 'base64url');
  // Only the one spelling of those bytes: base64url's spare bits would let a changed token pass.
  if (bytes.toString('base64url') !== body || bytes.length <= IV_BYTES + TAG_BYTES) return undefined;
  // Outside the try: a missing or short secret is the site's fault, not the link's, and must reach
  // the log as itself rather than tell the person their link is not valid.
  const key = encryptionKey();
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(VERSION, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const plain = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, -TAG_BYTES)), decipher.final()]);
    return JSON.parse(plain.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The payload of a genuine token of the earlier signed format (`v1.<payload>.<mac>`), else undefined. */
function signedPayload(body: string, signature: string): unknown {
  const expected = Buffer.from(
    createHmac('sha256', derivedKey('newsletter-links')).update(`v1.${body}`, 'utf8').digest('base64url'),
    'utf8',
  );
  const given = Buffer.from(signature, 'utf8');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The payload of a genuine token; `expired` for a genuine one past its expiry. */
export function verifyLink(token: string, now: Date): LinkCheck {
  const [version, body, signature, extra] = token.split('.');
  let decoded: unknown;
  if (version === VERSION && body && signature === undefined) decoded = opened(body);
  else if (version === 'v1' && body && signature && extra === undefined) decoded = signedPayload(body, signature);
  const parsed = Payload.safeParse(decoded);
  if (!parsed.success || (version === VERSION && parsed.data.x === undefined)) return { ok: false, reason: 'invalid' };
  if (parsed.data.x !== undefined && parsed.data.x <= now.getTime())
    return { ok: false, reason: 'expired', action: parsed.data.a };
  return { ok: true, payload: parsed.data };
}

/** The site's pages that open these links (the e-mails carry them, the pages POST the token back), and the one-click endpoint of List-Unsubscribe (RFC 8058: POST unsubscribes, GET shows the page). */
export const LINK_PAGES = { ...NEWSLETTER_PATHS, oneClick: '/api/newsletter/unsubscribe' } as const;

export function linkUrl(origin: string, page: string, token: string): string {
  return `${origin}${page}?token=${encodeURIComponent(token)}`;
}

/** What a person reads when a link fails. */
export const LINK_MESSAGES = {
  invalid:
    'This link is not valid. Open it again from the e-mail, or subscribe again from the form at the bottom of any page.',
  expired:
    'This confirmation link has expired. Subscribe again from the form at the bottom of any page and we will send you a new one.',
  unsubscribeExpired: `This unsubscribe link has expired: unsubscribe links work for a year after their e-mail was sent. Use the link in a more recent e-mail from us, or write to ${site.email} and we will remove you.`,
  gone: 'This subscription no longer exists. Subscribe again from the form at the bottom of any page.',
  unsubscribedSince:
    'You unsubscribed after this link was sent, so it no longer confirms anything. To subscribe again, use the form at the bottom of any page.',
  bouncedSince:
    'Mail to this address was refused after this link was sent, so it no longer confirms anything. To subscribe again, use the form at the bottom of any page.',
} as const;

/** When a confirm link was sent: its own record of it, or (older links) 7 days before it expires. */
export const sentAtOf = (link: ConfirmLink) => new Date(link.t ?? link.x - CONFIRM_LINK_TTL_MS);
