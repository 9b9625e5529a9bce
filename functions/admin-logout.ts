import type { Config } from '@netlify/functions';
import { clearedSessionCookie } from './_lib/admin/auth';
import { ADMIN_HEADERS, adminConfig, cookieSession, requireSameOrigin, secureCookie } from './_lib/admin/session';
import { endpoint, json, requireMethod } from './_lib/platform/http';
import { getStore } from './_lib/store/get-store';

/** Ends the session: removed from the store, so the cookie is worthless even if it was copied. */
export default endpoint({ name: 'admin-logout', headers: ADMIN_HEADERS }, async (req) => {
  requireMethod(req, ['POST']);
  requireSameOrigin(req);
  // The cookie's session is deleted whether or not the store still holds it.
  const session = cookieSession(req, adminConfig());
  if (session) {
    const store = await getStore();
    await store.deleteSession(session.sessionId);
  }
  return json(200, { authenticated: false }, { 'Set-Cookie': clearedSessionCookie(secureCookie(req)) });
});

export const config: Config = { path: '/api/admin/logout' };
