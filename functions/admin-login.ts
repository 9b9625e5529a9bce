import type { Config } from '@netlify/functions';
import { newSessionId, SESSION_MAX_AGE_SECONDS, sessionCookie, signSession } from './_lib/admin/auth';
import {
  ADMIN_HEADERS,
  adminConfig,
  LOGIN_WINDOW_SECONDS,
  loginClient,
  MAX_LOGIN_ATTEMPTS,
  NOT_CONFIGURED,
  requireSameOrigin,
  secureCookie,
} from './_lib/admin/session';
import { requireClientKey } from './_lib/forms/client';
import {
  endpoint,
  errorResponse,
  json,
  parseWith,
  readJsonBody,
  requireMethod,
  tooManyRequests,
} from './_lib/platform/http';
import { getStore } from './_lib/store/get-store';
import { AdminLoginRequest } from '../src/shared/schemas';

/** Checks the admin password on the server and starts a session: a fresh id each time, kept in the store. */
export default endpoint({ name: 'admin-login', headers: ADMIN_HEADERS }, async (req, context) => {
  requireMethod(req, ['POST']);
  requireSameOrigin(req);
  const client = requireClientKey(context.ip, ADMIN_HEADERS);
  const config = adminConfig();
  if (!config) {
    console.error('[admin-login] admin login is not configured');
    return errorResponse(503, NOT_CONFIGURED);
  }
  const store = await getStore();
  const now = new Date();
  const { password } = parseWith(AdminLoginRequest, await readJsonBody(req));

  // Each attempt is counted, in one atomic step, before its password is looked at: however many
  // arrive at once, only the first MAX_LOGIN_ATTEMPTS of a window are checked, and the rest are
  // refused even with the right password. If the count cannot be made in time, the store throws
  // and the login is refused (503), never let through.
  const attemptsOf = loginClient(config.secret, client);
  const attempts = await store.countLoginAttempt(attemptsOf, LOGIN_WINDOW_SECONDS, now);
  if (attempts.count > MAX_LOGIN_ATTEMPTS) return tooManyRequests('failed attempts', attempts.resetAt, now.getTime());
  if (!(await config.checkPassword(password))) return errorResponse(401, 'Invalid password');

  // The right password: the attempts before it no longer count against this client.
  await store.clearLoginAttempts(attemptsOf);

  const sessionId = newSessionId();
  const expiresAt = new Date(now.getTime() + SESSION_MAX_AGE_SECONDS * 1000);
  await store.createSession(sessionId, expiresAt, config.passwordTag);
  return json(
    200,
    { authenticated: true, expiresAt: expiresAt.toISOString() },
    {
      'Set-Cookie': sessionCookie(
        signSession(sessionId, expiresAt, config.secret),
        SESSION_MAX_AGE_SECONDS,
        secureCookie(req),
      ),
    },
  );
});

export const config: Config = { path: '/api/admin/login' };
