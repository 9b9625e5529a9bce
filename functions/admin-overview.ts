import type { Config } from '@netlify/functions';
import { ADMIN_HEADERS, requireAdmin } from './_lib/admin';
import { endpoint, json, requireMethod } from './_lib/http';
import { overview } from './_lib/insights';

/** The dashboard's first view in one call: totals, 90 days of counts, sources and the newest records. */
export default endpoint({ name: 'admin-overview', headers: ADMIN_HEADERS }, async (req) => {
  requireMethod(req, ['GET']);
  const { store } = await requireAdmin(req);
  return json(200, await overview(store, new Date()));
});

export const config: Config = { path: '/api/admin/overview' };
