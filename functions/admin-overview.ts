import type { Config } from '@netlify/functions';
import { overview } from './_lib/admin/insights';
import { ADMIN_HEADERS, requireAdmin } from './_lib/admin/session';
import { getEnv } from './_lib/platform/env';
import { endpoint, json, requireMethod } from './_lib/platform/http';
import { getStore } from './_lib/store/get-store';

/** The dashboard's first view in one call: totals, 90 days of counts, sources and the newest records. */
export default endpoint({ name: 'admin-overview', headers: ADMIN_HEADERS }, async (req) => {
  requireMethod(req, ['GET']);
  await requireAdmin(req);
  const store = await getStore();
  return json(200, await overview(store, new Date(), getEnv().SITE_TIME_ZONE));
});

export const config: Config = { path: '/api/admin/overview' };
