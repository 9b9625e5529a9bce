import type { Config } from '@netlify/functions';
import { ATTRIBUTION_COLUMNS, csvDownload, toCsv } from './_lib/admin/csv';
import { ALL, listed, listPage } from './_lib/admin/insights';
import { ExportQuery, parseQuery } from './_lib/admin/query';
import { ADMIN_HEADERS, requireActionId, requireAdmin } from './_lib/admin/session';
import { endpoint, errorResponse, json, requireMethod } from './_lib/platform/http';
import { forgetLocalCopies } from './_lib/delivery/mail-transport';
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

const NO_LEAD = 'No lead has that id';

/**
 * Leads, newest first: a page as JSON, or all of them as CSV with ?format=csv. DELETE
 * /api/admin/leads/{id} erases a lead, held as spam or not, with its e-mails and webhook.
 */
export default endpoint({ name: 'admin-leads', headers: ADMIN_HEADERS }, async (req, context) => {
  // The list answers GET; a lead's own path, DELETE.
  requireMethod(req, context.params.id === undefined ? ['GET'] : ['DELETE']);
  await requireAdmin(req);
  const store = await getStore();
  if (req.method === 'DELETE') {
    const id = requireActionId(req, context.params.id, NO_LEAD);
    const erased = await store.deleteLead(id);
    if (!erased) return errorResponse(404, NO_LEAD);
    await forgetLocalCopies(erased.entries);
    return json(200, { deleted: id });
  }
  const { page = 1, format } = parseQuery(ExportQuery, req);
  if (format === 'csv') return csvDownload('leads', toCsv(COLUMNS, await store.listLeads(ALL)));
  const leads = async (range: { offset: number; limit: number }) => (await store.listLeads(range)).map(listed);
  return json(200, await listPage(page, leads, store.countLeads));
});

export const config: Config = { path: ['/api/admin/leads', '/api/admin/leads/:id'] };
