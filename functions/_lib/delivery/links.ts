/**
 * The signed links of the newsletter's e-mails: confirm (expires after 7 days) and unsubscribe
 * (never expires: an old e-mail's link must still work). A token is `v1.<payload>.<mac>`, both
 * base64url, the MAC an HMAC-SHA256 under a key derived for links alone, so a link can never
 * pass for an admin session cookie or the other way round.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { NEWSLETTER_PATHS } from '../../../src/shared/pages';
import { derivedKey } from '../platform/secrets';

export const CONFIRM_LINK_TTL_MS = 7 * 24 * 3600_000;

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
const UnsubscribePayload = z.object({ a: z.literal('unsubscribe'), e: z.string().min(3).max(254) });
const Payload = z.discriminatedUnion('a', [ConfirmPayload, UnsubscribePayload]);

export type ConfirmLink = z.infer<typeof ConfirmPayload>;
export type LinkPayload = z.infer<typeof Payload>;

export type LinkCheck = { ok: true; payload: LinkPayload } | { ok: false; reason: 'invalid' | 'expired' };

/** Changing the site's secret invalidates links already sent. */
const mac = (data: string) =>
  createHmac('sha256', derivedKey('newsletter-links')).update(data, 'utf8').digest('base64url');

export function signLink(payload: LinkPayload): string {
  const data = `v1.${Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url')}`;
  return `${data}.${mac(data)}`;
}

/** The payload of a genuine token; `expired` for a genuine confirm link past its 7 days. */
export function verifyLink(token: string, now: Date): LinkCheck {
  const [version, body, signature, extra] = token.split('.');
  if (version !== 'v1' || !body || !signature || extra !== undefined) return { ok: false, reason: 'invalid' };
  const expected = Buffer.from(mac(`${version}.${body}`), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'invalid' };
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  const parsed = Payload.safeParse(decoded);
  if (!parsed.success) return { ok: false, reason: 'invalid' };
  if (parsed.data.a === 'confirm' && parsed.data.x <= now.getTime()) return { ok: false, reason: 'expired' };
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
  gone: 'This subscription no longer exists. Subscribe again from the form at the bottom of any page.',
  unsubscribedSince:
    'You unsubscribed after this link was sent, so it no longer confirms anything. To subscribe again, use the form at the bottom of any page.',
} as const;

/** When a confirm link was sent: its own record of it, or (older links) 7 days before it expires. */
export const sentAtOf = (link: ConfirmLink) => new Date(link.t ?? link.x - CONFIRM_LINK_TTL_MS);
