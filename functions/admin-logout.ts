import type { Config } from '@netlify/functions';
import { clearedSessionCookie } from './_lib/admin/auth';
import {
  ADMIN_HEADERS,
  adminConfig,
  cookieSession,
  requireAdmin,
  requireSameOrigin,
  secureCookie,
} from './_lib/admin/session';
import { endpoint, json, parseWith, readJsonBody, requireMethod } from './_lib/platform/http';
import { getStore } from './_lib/store/get-store';
import { AdminLogoutRequest } from '../src/shared/schemas';

/**
 * Ends the session: removed from the store, so the cookie is worthless even if it was copied.
 * With `{ "everywhere": true }` the logged-in owner ends every session opened until now, in every
 * browser (after a lost laptop, or a password seen by someone else).
 */
export default endpoint({ name: 'admin-logout', headers: ADMIN_HEADERS }, async (req) => {
  requireMethod(req, ['POST']);
  requireSameOrigin(req);
  const { everywhere = false } = parseWith(AdminLogoutRequest, await readJsonBody(req));
  const store = await getStore();
  if (everywhere) {
    // Only a live session may end the others: a stale cookie gets 401.
    await requireAdmin(req);
    await store.endAllSessions();
  }
  // The cookie's session is deleted whether or not the store still holds it.
  const session = cookieSession(req, adminConfig());
  if (session) await store.deleteSession(session.sessionId);
  return json(200, { authenticated: false }, { 'Set-Cookie': clearedSessionCookie(secureCookie(req)) });
});

export const config: Config = { path: '/api/admin/logout' };
