/**
 * What every admin endpoint shares: the configuration check, same-origin checks for calls
 * that change state, the session cookie check against the store, and one error handling.
 */
import type { Context } from '@netlify/functions';
import { readCookie, SESSION_COOKIE, verifyPassword, verifyPlainPassword, verifySession } from './auth';
import { getEnv, isLocalRun } from './env';
import { errorResponse, HttpError, STORE_UNAVAILABLE } from './http';
import { getStore } from './store/get-store';
import { StoreNotConfiguredError, StoreUnavailableError, type StoreVerbs } from './store/types';

/** Admin answers are private and never indexed. */
export const ADMIN_HEADERS = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow' };

export const LOGIN_WINDOW_SECONDS = 15 * 60;
/** Password checks allowed per client and window; the attempts after them are refused unchecked. */
export const MAX_LOGIN_ATTEMPTS = 5;

export const NOT_CONFIGURED =
  'Admin login is not configured. Set ADMIN_PASSWORD_HASH (print one with `npm run admin:hash-password`) and SESSION_SECRET (32+ random characters) in the environment; locally, ADMIN_PASSWORD may replace the hash.';

export interface AdminConfig {
  secret: string;
  checkPassword: (password: string) => Promise<boolean>;
}

/** The password check and cookie secret, or undefined when admin login is not configured. */
export function adminConfig(): AdminConfig | undefined {
  const env = getEnv();
  if (!env.SESSION_SECRET) return undefined;
  const { ADMIN_PASSWORD_HASH: hash, ADMIN_PASSWORD: plain, SESSION_SECRET: secret } = env;
  if (hash) return { secret, checkPassword: (password) => verifyPassword(password, hash) };
  // A plain password is for a developer's machine only, never for a deployed site.
  if (plain && isLocalRun()) return { secret, checkPassword: async (password) => verifyPlainPassword(password, plain) };
  return undefined;
}

/** Calls that change state must come from this site's own pages, as JSON. */
export function requireSameOrigin(req: Request): void {
  if (req.headers.get('sec-fetch-site') === 'cross-site') throw new HttpError(errorResponse(403, 'Cross-site requests are not allowed', { headers: ADMIN_HEADERS }));
  const origin = req.headers.get('origin');
  if (origin && origin !== new URL(req.url).origin) throw new HttpError(errorResponse(403, 'Requests from another origin are not allowed', { headers: ADMIN_HEADERS }));
  const type = req.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') throw new HttpError(errorResponse(415, 'Send this request as JSON with Content-Type: application/json', { headers: ADMIN_HEADERS }));
}

const unauthorized = () => new HttpError(errorResponse(401, 'Not logged in', { headers: ADMIN_HEADERS }));

/** The session of a valid, unexpired, unrevoked cookie; anything else is 401. */
export async function requireAdmin(req: Request): Promise<{ store: StoreVerbs; sessionId: string }> {
  const config = adminConfig();
  if (!config) throw unauthorized();
  const session = verifySession(readCookie(req.headers.get('cookie'), SESSION_COOKIE), config.secret, new Date());
  if (!session) throw unauthorized();
  const store = await getStore();
  if (!(await store.hasSession(session.sessionId, new Date()))) throw unauthorized();
  return { store, sessionId: session.sessionId };
}

/** A CSV file to download, named after what it holds and the day. */
export function csvDownload(name: string, csv: string): Response {
  return new Response(csv, {
    headers: {
      ...ADMIN_HEADERS,
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${name}-${new Date().toISOString().slice(0, 10)}.csv"`,
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/** Runs an admin handler with the shared error handling: no internal detail ever reaches the client. */
export function adminHandler(name: string, handler: (req: Request, context: Context) => Promise<Response>) {
  return async (req: Request, context: Context): Promise<Response> => {
    try {
      return await handler(req, context);
    } catch (error) {
      if (error instanceof HttpError) return error.response;
      if (error instanceof StoreNotConfiguredError) {
        console.error(`[${name}] ${error.message}`);
        return errorResponse(503, 'Storage is not configured', { headers: ADMIN_HEADERS });
      }
      if (error instanceof StoreUnavailableError) {
        console.error(`[${name}] store unavailable: ${error.message}`);
        return errorResponse(503, STORE_UNAVAILABLE, { headers: ADMIN_HEADERS });
      }
      console.error(`[${name}] unexpected failure: ${error instanceof Error ? error.name : 'unknown error'}`);
      return errorResponse(500, 'Something went wrong on our side. Please try again.', { headers: ADMIN_HEADERS });
    }
  };
}
