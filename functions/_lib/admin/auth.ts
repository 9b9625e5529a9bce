// functions/_lib/admin is what only the admin endpoints use: login and session, the dashboard's figures, the CSV export.
/**
 * Admin authentication primitives: password hashing, the signed session cookie and cookie parsing.
 *
 * Server only: it uses node:crypto and handles secrets, so nothing in src/ may import it.
 * It has no relative imports on purpose, so that scripts/admin/hash-password.ts can load it with
 * Node's own type stripping, without a bundler.
 */
import { createHash, createHmac, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * The session cookie deployed, and on any https origin. `__Host-` makes the browser refuse the
 * cookie unless it is Secure, has Path=/ and no Domain, so no other site on the domain can plant one.
 */
export const SESSION_COOKIE = '__Host-admin_session';

/**
 * The session cookie of a local run over plain http (session.ts decides). Safari keeps no Secure
 * cookie on http://localhost, and so no `__Host-` one: with it the admin page never stayed logged
 * in there. HttpOnly, SameSite=Strict and Path=/ stay.
 */
export const LOCAL_SESSION_COOKIE = 'admin_session';

/** The cookie's name: the `__Host-` one whenever it is Secure. */
export function sessionCookieName(secure: boolean): string {
  return secure ? SESSION_COOKIE : LOCAL_SESSION_COOKIE;
}

/** An admin session lasts a working day at most, then the admin logs in again. */
export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

/** OWASP's minimum for scrypt: N=2^17, r=8, p=1. */
const SCRYPT_DEFAULTS = { N: 2 ** 17, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 32;

/**
 * scrypt needs about 128 * r * (N + p + 2) bytes; Node refuses anything above `maxmem`
 * (32 MiB by default), so the defaults need it raised. The same ceiling bounds what a stored
 * hash may ask for, so that a wrong ADMIN_PASSWORD_HASH cannot exhaust the function's memory.
 */
const SCRYPT_MAXMEM = 288 * 1024 * 1024;
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;
/** Four times the default work at most: a login must stay well under the function's time limit. */
const MAX_WORK = 4 * SCRYPT_DEFAULTS.N * SCRYPT_DEFAULTS.r * SCRYPT_DEFAULTS.p;

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const DIGITS = /^[0-9]+$/;

/** NFC first, so a password typed on another system, with é as one or two code points, still matches. */
function deriveKey(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyLength, { ...options, maxmem: SCRYPT_MAXMEM }, (error, key) => {
      if (error) reject(error);
      else resolve(key);
    });
  });
}

/**
 * Hashes a password for ADMIN_PASSWORD_HASH as `scrypt$N$r$p$<salt>$<hash>` (base64url), so that
 * the parameters travel with the hash and can be raised later without breaking old hashes.
 */
export async function hashPassword(password: string): Promise<string> {
  const { N, r, p } = SCRYPT_DEFAULTS;
  const salt = randomBytes(SALT_BYTES);
  const key = await deriveKey(password, salt, KEY_BYTES, { N, r, p });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Decodes base64url only when it is canonical, so one stored value has exactly one meaning. */
function decodeBase64url(text: string): Buffer | undefined {
  if (!BASE64URL.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}

function parseSmallInteger(text: string | undefined): number | undefined {
  if (text === undefined || !DIGITS.test(text) || text.length > 8) return undefined;
  return Number(text);
}

interface ParsedHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parseStoredHash(stored: string): ParsedHash | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = [parts[1], parts[2], parts[3]].map(parseSmallInteger);
  const salt = decodeBase64url(parts[4] ?? '');
  const key = decodeBase64url(parts[5] ?? '');
  if (N === undefined || r === undefined || p === undefined || !salt || !key) return undefined;

  const powerOfTwo = N >= 2 && (N & (N - 1)) === 0;
  const affordable =
    N <= MAX_N &&
    r >= 1 &&
    r <= MAX_R &&
    p >= 1 &&
    p <= MAX_P &&
    N * r * p <= MAX_WORK &&
    128 * r * (N + p + 2) <= SCRYPT_MAXMEM;
  const sane = salt.length >= SALT_BYTES && salt.length <= 64 && key.length >= 16 && key.length <= 64;
  return powerOfTwo && affordable && sane ? { N, r, p, salt, key } : undefined;
}

/**
 * Checks a password against a stored `scrypt$…` hash. Any malformed or unaffordable stored
 * value is a plain `false`, never an exception: a login must answer 401, not 500, and must
 * not reveal that the configuration is broken.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStoredHash(stored);
  if (!parsed) return false;
  try {
    const key = await deriveKey(password, parsed.salt, parsed.key.length, { N: parsed.N, r: parsed.r, p: parsed.p });
    return timingSafeEqual(key, parsed.key);
  } catch {
    return false;
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * Compares the local-only plain ADMIN_PASSWORD in constant time. Hashing both sides first gives
 * timingSafeEqual two buffers of equal length, so neither the length nor a prefix leaks.
 */
export function verifyPlainPassword(password: string, expected: string): boolean {
  return timingSafeEqual(sha256(password), sha256(expected));
}

/** A fresh, unguessable session id for every login, so a planted id can never be fixed. */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

function sessionMac(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(payload, 'utf8').digest('base64url');
}

/**
 * The cookie value `<sessionId>.<expires unix seconds>.<HMAC-SHA256>`: the signature lets a
 * function reject forged or stretched cookies before it asks the store about the session.
 */
export function signSession(sessionId: string, expiresAt: Date, secret: string): string {
  if (!BASE64URL.test(sessionId)) throw new Error('A session id must be base64url');
  if (secret === '') throw new Error('The session secret is empty');
  const expires = Math.floor(expiresAt.getTime() / 1000);
  if (!Number.isSafeInteger(expires) || expires < 0) throw new Error('The session expiry is not a valid date');
  const payload = `${sessionId}.${expires}`;
  return `${payload}.${sessionMac(payload, secret)}`;
}

/** An admin session as its cookie names it. */
export interface Session {
  sessionId: string;
  expiresAt: Date;
}

/** Far above a real cookie value (about 100 characters), far below what could cost anything. */
const MAX_SESSION_VALUE_LENGTH = 512;
const SESSION_VALUE = /^([A-Za-z0-9_-]+)\.([0-9]{1,12})\.([A-Za-z0-9_-]{43})$/;

/**
 * Reads a signed cookie value back. Anything malformed, forged, expired or expiring further
 * ahead than a session may last is `null`, never an exception: the caller answers 401 either way.
 * A valid signature does not prove the session is still open; the store decides that.
 */
export function verifySession(value: string | undefined, secret: string, now: Date): Session | null {
  if (!value || !secret || value.length > MAX_SESSION_VALUE_LENGTH) return null;
  const match = SESSION_VALUE.exec(value);
  if (!match) return null;
  const [, sessionId = '', expiresText = '', mac = ''] = match;

  // Compared as text, not decoded bytes: base64url has several spellings of the same last byte.
  const expected = Buffer.from(sessionMac(`${sessionId}.${expiresText}`, secret), 'utf8');
  const given = Buffer.from(mac, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;

  const expires = Number(expiresText);
  const nowSeconds = now.getTime() / 1000;
  if (expires <= nowSeconds || expires - nowSeconds > SESSION_MAX_AGE_SECONDS + 60) return null;
  return { sessionId, expiresAt: new Date(expires * 1000) };
}

/**
 * Strict, script-proof and host-only: the cookie is only ever sent back to this site's pages and
 * API. Secure (and `__Host-`) unless `secure` is false, which only a local run over http asks for.
 */
export function sessionCookie(value: string, maxAgeSeconds: number, secure = true): string {
  if (!/^[A-Za-z0-9._-]*$/.test(value)) throw new Error('A session cookie value must be base64url and dots');
  if (!Number.isSafeInteger(maxAgeSeconds) || maxAgeSeconds < 0)
    throw new Error('Max-Age must be a whole number of seconds');
  const attributes = [
    'Path=/',
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    ...(secure ? ['Secure'] : []),
    'SameSite=Strict',
  ];
  return [`${sessionCookieName(secure)}=${value}`, ...attributes].join('; ');
}

/** Logout: the same name and attributes, or the browser would treat it as another cookie and keep the session. */
export function clearedSessionCookie(secure = true): string {
  return sessionCookie('', 0, secure);
}

/**
 * The first value of a cookie in a Cookie header, as sent (no decoding). Malformed pairs are
 * skipped: a stray cookie set by something else on the domain must not lock the admin out.
 */
export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals <= 0) continue;
    if (pair.slice(0, equals).trim() !== name) continue;
    return pair.slice(equals + 1).trim();
  }
  return undefined;
}
