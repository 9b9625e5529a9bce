import type { Config } from '@netlify/functions';
import { ADMIN_HEADERS, adminHandler, requireAdmin } from './_lib/admin';
import { toCsv } from './_lib/csv';
import { getEnv } from './_lib/env';
import { storeCall } from './_lib/form-endpoint';
import { json, requireMethod } from './_lib/http';
import { PAGE_SIZE, pageParam } from './_lib/insights';
import type { Lead } from './_lib/store-types';

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
export default adminHandler('admin-leads', async (req, context) => {
  requireMethod(req, ['GET']);
  const { backend } = await requireAdmin(req, context);
  const url = new URL(req.url);
  const timeoutMs = getEnv().STORE_TIMEOUT_MS * 2;
  if (url.searchParams.get('format') === 'csv') {
    const leads = await storeCall(() => backend.store.listLeads({ offset: 0, limit: 1_000_000 }), timeoutMs);
    return new Response(toCsv(COLUMNS, leads), {
      headers: { ...ADMIN_HEADERS, 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="leads-${new Date().toISOString().slice(0, 10)}.csv"`, 'X-Content-Type-Options': 'nosniff' },
    });
  }
  const page = pageParam(url);
  const [items, total] = await storeCall(() => Promise.all([backend.store.listLeads({ offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE }), backend.store.countLeads()]), timeoutMs);
  return json(200, { items, total, page, pageSize: PAGE_SIZE }, ADMIN_HEADERS);
});

export const config: Config = { path: '/api/admin/leads' };
