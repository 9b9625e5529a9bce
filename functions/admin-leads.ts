import type { Config } from '@netlify/functions';
import { ADMIN_HEADERS, adminHandler, csvDownload, requireAdmin } from './_lib/admin';
import { toCsv } from './_lib/csv';
import { getEnv } from './_lib/env';
import { storeCall } from './_lib/form-endpoint';
import { json, requireMethod } from './_lib/http';
import { ALL, listPage } from './_lib/insights';
import type { Lead } from '../src/shared/records';

const COLUMNS: { header: string; value: (lead: Lead) => unknown }[] = [
  { header: 'created_at', value: (lead) => lead.createdAt },
  { header: 'name', value: (lead) => lead.name },
  { header: 'email', value: (lead) => lead.email },
  { header: 'company', value: (lead) => lead.company },
  { header: 'source', value: (lead) => lead.source },
  { header: 'notes', value: (lead) => lead.notes },
  { header: 'id', value: (lead) => lead.id },
];

/** Leads, newest first: a page as JSON, or all of them as CSV with ?format=csv. */
export default adminHandler('admin-leads', async (req) => {
  requireMethod(req, ['GET']);
  const { backend } = await requireAdmin(req);
  const url = new URL(req.url);
  const timeoutMs = getEnv().STORE_TIMEOUT_MS * 2;
  if (url.searchParams.get('format') === 'csv') return csvDownload('leads', toCsv(COLUMNS, await storeCall(() => backend.store.listLeads(ALL), timeoutMs)));
  return json(200, await storeCall(() => listPage(url, backend.store.listLeads, backend.store.countLeads), timeoutMs), ADMIN_HEADERS);
});

export const config: Config = { path: '/api/admin/leads' };
