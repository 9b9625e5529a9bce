// functions/_lib/booking holds the rules of booking a call: the owner's hours, their calendar, the open times.
/**
 * The secret of a booking's e-mailed link: 32 random bytes, of which the store keeps only a
 * SHA-256. Whoever holds the link may cancel or move the call; the store's copy cannot.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/** A new link secret and the hash the booking keeps. */
export function bookingToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashOf(token) };
}

/** Whether a link's secret is the one whose hash the booking keeps, compared in constant time. */
export function tokenMatches(token: string, tokenHash: string): boolean {
  const given = Buffer.from(hashOf(token));
  const kept = Buffer.from(tokenHash);
  return given.length === kept.length && timingSafeEqual(given, kept);
}
