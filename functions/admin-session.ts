import type { Config } from '@netlify/functions';
import { ADMIN_HEADERS, adminConfig, NOT_CONFIGURED, requireAdmin } from './_lib/admin';
import { endpoint, errorResponse, HttpError, json, requireMethod } from './_lib/http';

/**
 * Tells the admin page whether its cookie is a live session, so a reload keeps the person logged
 * in. Not being logged in is an answer here (200), not an error: the data endpoints answer 401.
 */
export default endpoint({ name: 'admin-session', headers: ADMIN_HEADERS }, async (req) => {
  requireMethod(req, ['GET']);
  if (!adminConfig()) return errorResponse(503, NOT_CONFIGURED);
  try {
    await requireAdmin(req);
    return json(200, { authenticated: true });
  } catch (error) {
    if (error instanceof HttpError && error.response.status === 401) return json(200, { authenticated: false });
    throw error;
  }
});

export const config: Config = { path: '/api/admin/session' };
