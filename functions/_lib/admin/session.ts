// functions/_lib/admin is what only the admin endpoints use: login and session, the dashboard's figures, the CSV export.
/**
 * What every admin endpoint shares: its headers, the configuration check, same-origin checks
 * for calls that change state, and the session: its cookie, checked against the store.
 */
import { createHmac } from 'node:crypto';
import {
  readCookie,
  sessionCookieName,
  verifyPassword,
  verifyPlainPassword,
  verifySession,
  type Session,
} from './auth';
import { getEnv, isLocalRun } from '../platform/env';
import { decodePathSegment, errorResponse, HttpError } from '../platform/http';
import { getStore } from '../store/get-store';

/** Admin answers are private and never indexed: each admin endpoint gives these to endpoint(). */
export const ADMIN_HEADERS = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow' };

export const LOGIN_WINDOW_SECONDS = 15 * 60;
/** Password checks allowed per client and window; the attempts after them are refused unchecked. */
export const MAX_LOGIN_ATTEMPTS = 5;

/**
 * What a client's login attempts are counted under: a keyed hash of its address (an HMAC under
 * SESSION_SECRET), so that the store never holds an address, not even for a window's 15 minutes.
 */
export function loginClient(secret: string, client: string): string {
  return createHmac('sha256', secret).update(`login-attempts\0${client}`).digest('base64url');
}

export const NOT_CONFIGURED =
  'Admin login is not configured. Set ADMIN_PASSWORD_HASH (print one with `npm run admin:hash-password`) and SESSION_SECRET (32+ random characters) in the environment; locally, ADMIN_PASSWORD may replace the hash.';

export interface AdminConfig {
  secret: string;
  checkPassword: (password: string) => Promise<boolean>;
  /**
   * A tag of the password in force, kept with each session: when the password changes, so does
   * the tag, and every session opened with the old one ends (the owner changes it exactly when
   * they fear someone else has it). An HMAC under SESSION_SECRET, so the store learns nothing of it.
   */
  passwordTag: string;
}

const tagOf = (secret: string, password: string) =>
  createHmac('sha256', secret).update(`admin-password\0${password}`).digest('base64url');

/**
 * The password check and cookie secret, or undefined when admin login is not configured. Whether
 * this is a local run is decided here, once per request: an endpoint asks once and passes it on.
 */
export function adminConfig(): AdminConfig | undefined {
  const env = getEnv();
  if (!env.SESSION_SECRET) return undefined;
  const { ADMIN_PASSWORD_HASH: hash, ADMIN_PASSWORD: plain, SESSION_SECRET: secret } = env;
  if (hash)
    return { secret, checkPassword: (password) => verifyPassword(password, hash), passwordTag: tagOf(secret, hash) };
  // A plain password is for a developer's machine only, never for a deployed site.
  if (plain && isLocalRun())
    return {
      secret,
      checkPassword: async (password) => verifyPlainPassword(password, plain),
      passwordTag: tagOf(secret, plain),
    };
  return undefined;
}

/** A check's refusal. endpoint() sends a thrown HttpError as it was made, so it carries the admin headers itself. */
const refusal = (status: number, error: string) =>
  new HttpError(errorResponse(status, error, { headers: ADMIN_HEADERS }));

/** Calls that change state must come from this site's own pages, as JSON. */
export function requireSameOrigin(req: Request): void {
  if (req.headers.get('sec-fetch-site') === 'cross-site') throw refusal(403, 'Cross-site requests are not allowed');
  const origin = req.headers.get('origin');
  if (origin && origin !== new URL(req.url).origin) throw refusal(403, 'Requests from another origin are not allowed');
  const type = req.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') throw refusal(415, 'Send this request as JSON with Content-Type: application/json');
}

/** A lead's or a form's outbox entry's id. */
export const UUID = /^[0-9a-f-]{36}$/;

/**
 * The record an admin action (`POST …/{id}/…`) acts on: the request must come from the admin page
 * itself (requireSameOrigin), and the id have the shape of the ids of that record (`shape`: a UUID
 * by default); anything else answers 404 with `notFound`, without asking the store.
 */
export function requireActionId(req: Request, id: string | undefined, notFound: string, shape = UUID): string {
  requireSameOrigin(req);
  const decoded = decodePathSegment(id ?? '');
  if (!shape.test(decoded)) throw new HttpError(errorResponse(404, notFound));
  return decoded;
}

/**
 * Whether the session cookie is the Secure `__Host-` one: always on a deployed site, whatever the
 * request says of its scheme; in a local run only over https. Safari keeps no Secure cookie on
 * http://localhost, so a local run over http sets (and reads) a plain HttpOnly, strict one.
 */
export function secureCookie(req: Request): boolean {
  return !isLocalRun() || new URL(req.url).protocol === 'https:';
}

/**
 * The session the request's cookie names, if it is well signed and unexpired; the store is not
 * asked. Only the cookie this environment sets is read (see secureCookie).
 */
export function cookieSession(req: Request, config: AdminConfig | undefined): Session | null {
  const name = sessionCookieName(secureCookie(req));
  return config ? verifySession(readCookie(req.headers.get('cookie'), name), config.secret, new Date()) : null;
}

/**
 * The session of a well-signed, unexpired cookie that the store still holds (logout revokes it),
 * opened with the password in force; null for anything else, and when admin login is not configured. A store that cannot answer
 * throws (503): it never reads as logged out, nor as logged in.
 */
export async function readSession(req: Request, config = adminConfig()): Promise<Session | null> {
  const session = cookieSession(req, config);
  if (!session || !config) return null;
  const store = await getStore();
  return (await store.hasSession(session.sessionId, new Date(), config.passwordTag)) ? session : null;
}

/** The admin's session; without one, 401. */
export async function requireAdmin(req: Request): Promise<Session> {
  const session = await readSession(req);
  if (!session) throw refusal(401, 'Not logged in');
  return session;
}
