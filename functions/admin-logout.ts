import type { Config } from '@netlify/functions';
import { ADMIN_HEADERS, adminConfig, adminHandler, requireBackend, requireSameOrigin } from './_lib/admin';
import { clearedSessionCookie, readCookie, SESSION_COOKIE, verifySession } from './_lib/auth';
import { getEnv } from './_lib/env';
import { storeCall } from './_lib/form-endpoint';
import { json, requireMethod } from './_lib/http';

/** Ends the session: removed from the store, so the cookie is worthless even if it was copied. */
export default adminHandler('admin-logout', async (req) => {
  requireMethod(req, ['POST']);
  requireSameOrigin(req);
  const config = adminConfig();
  const session = config ? verifySession(readCookie(req.headers.get('cookie'), SESSION_COOKIE), config.secret, new Date()) : null;
  if (session) {
    const { store } = await requireBackend();
    await storeCall(() => store.deleteSession(session.sessionId), getEnv().STORE_TIMEOUT_MS);
  }
  return json(200, { authenticated: false }, { ...ADMIN_HEADERS, 'Set-Cookie': clearedSessionCookie() });
});

export const config: Config = { path: '/api/admin/logout' };
