// functions/_lib/booking holds the rules of booking a call: the owner's hours, their calendar, the open times.
/**
 * The secrets of a booking. The e-mailed link's: 32 random bytes, of which the store keeps only a
 * SHA-256. Whoever holds the link may cancel or move the call; the store's copy cannot.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { derivedKey } from '../platform/secrets';

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

/**
 * What a booking keeps of the network it came from, for the limit of calls to come per network:
 * a keyed hash of its address (as clientKey() gives it), never the address.
 */
export function bookingClient(client: string): string {
  return createHmac('sha256', derivedKey('booking-clients')).update(client).digest('base64url');
}
