import type { Config } from '@netlify/functions';
import { ADMIN_HEADERS, adminConfig, requireSameOrigin } from './_lib/admin';
import { clearedSessionCookie, readCookie, SESSION_COOKIE, verifySession } from './_lib/auth';
import { endpoint, json, requireMethod } from './_lib/http';
import { getStore } from './_lib/store/get-store';

/** Ends the session: removed from the store, so the cookie is worthless even if it was copied. */
export default endpoint({ name: 'admin-logout', headers: ADMIN_HEADERS }, async (req) => {
  requireMethod(req, ['POST']);
  requireSameOrigin(req);
  const config = adminConfig();
  const session = config ? verifySession(readCookie(req.headers.get('cookie'), SESSION_COOKIE), config.secret, new Date()) : null;
  if (session) {
    const store = await getStore();
    await store.deleteSession(session.sessionId);
  }
  return json(200, { authenticated: false }, { 'Set-Cookie': clearedSessionCookie() });
});

export const config: Config = { path: '/api/admin/logout' };
