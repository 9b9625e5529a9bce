import type { Config } from '@netlify/functions';
import { ADMIN_HEADERS, adminHandler, requireAdmin } from './_lib/admin';
import { getEnv } from './_lib/env';
import { storeCall } from './_lib/form-endpoint';
import { json, requireMethod } from './_lib/http';
import { overview } from './_lib/insights';

/** The dashboard's first view in one call: totals, 90 days of counts, sources and the newest records. */
export default adminHandler('admin-overview', async (req) => {
  requireMethod(req, ['GET']);
  const { backend } = await requireAdmin(req);
  return json(200, await storeCall(() => overview(backend.store, new Date()), getEnv().STORE_TIMEOUT_MS * 2), ADMIN_HEADERS);
});

export const config: Config = { path: '/api/admin/overview' };
