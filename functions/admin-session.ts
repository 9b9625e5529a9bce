import type { Config } from '@netlify/functions';
import { ADMIN_HEADERS, adminConfig, NOT_CONFIGURED, readSession } from './_lib/admin/session';
import { endpoint, errorResponse, json, requireMethod } from './_lib/platform/http';

/**
 * Tells the admin page whether its cookie is a live session, so a reload keeps the person logged
 * in. Not being logged in is an answer here (200), not an error: the data endpoints answer 401.
 */
export default endpoint({ name: 'admin-session', headers: ADMIN_HEADERS }, async (req) => {
  requireMethod(req, ['GET']);
  const config = adminConfig();
  if (!config) return errorResponse(503, NOT_CONFIGURED);
  return json(200, { authenticated: (await readSession(req, config)) !== null });
});

export const config: Config = { path: '/api/admin/session' };
