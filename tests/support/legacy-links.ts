/**
 * A newsletter link token as the site signed them before they were encrypted (`v1.<payload>.<mac>`,
 * the payload readable base64url JSON): such links are still in people's inboxes.
 */
import { createHmac } from 'node:crypto';
import { derivedKey } from '../../functions/_lib/platform/secrets';

export function legacyLinkToken(payload: { a: 'unsubscribe'; e: string } | Record<string, unknown>): string {
  const data = `v1.${Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url')}`;
  return `${data}.${createHmac('sha256', derivedKey('newsletter-links')).update(data, 'utf8').digest('base64url')}`;
}
