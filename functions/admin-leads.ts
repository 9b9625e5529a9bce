import type { Config } from '@netlify/functions';
import { ATTRIBUTION_COLUMNS, csvDownload, toCsv } from './_lib/admin/csv';
import { ALL, listPage } from './_lib/admin/insights';
import { ADMIN_HEADERS, requireAdmin } from './_lib/admin/session';
import { endpoint, json, requireMethod } from './_lib/http';
import { getStore } from './_lib/store/get-store';
import type { Lead } from '../src/shared/records';

const COLUMNS: { header: string; value: (lead: Lead) => unknown }[] = [
  { header: 'created_at', value: (lead) => lead.createdAt },
  { header: 'name', value: (lead) => lead.name },
  { header: 'email', value: (lead) => lead.email },
  { header: 'company', value: (lead) => lead.company },
  { header: 'source', value: (lead) => lead.source },
  { header: 'notes', value: (lead) => lead.notes },
  { header: 'page', value: (lead) => lead.page },
  ...ATTRIBUTION_COLUMNS,
  {
    header: 'delivery',
    value: (lead) => lead.delivery?.map((delivery) => `${delivery.kind}: ${delivery.status}`).join('; '),
  },
  { header: 'id', value: (lead) => lead.id },
];

/** Leads, newest first: a page as JSON, or all of them as CSV with ?format=csv. */
export default endpoint({ name: 'admin-leads', headers: ADMIN_HEADERS }, async (req) => {
  requireMethod(req, ['GET']);
  await requireAdmin(req);
  const store = await getStore();
  const url = new URL(req.url);
  if (url.searchParams.get('format') === 'csv') return csvDownload('leads', toCsv(COLUMNS, await store.listLeads(ALL)));
  return json(200, await listPage(url, store.listLeads, store.countLeads));
});

export const config: Config = { path: '/api/admin/leads' };
