import type { Config } from '@netlify/functions';
import { ATTRIBUTION_COLUMNS, csvDownload, toCsv } from './_lib/admin/csv';
import { ALL, listed, listPage } from './_lib/admin/insights';
import { ExportFormat, OneOf, PageNumber, parseQuery, queryOf, SearchText } from './_lib/admin/query';
import { ADMIN_HEADERS, requireActionId, requireAdmin } from './_lib/admin/session';
import { endpoint, errorResponse, json, parseWith, readJsonBody, requireMethod } from './_lib/platform/http';
import { forgetLocalCopies } from './_lib/delivery/mail-transport';
import { getStore } from './_lib/store/get-store';
import { statusOf } from './_lib/store/lead-lists';
import type { LeadsPage } from '../src/shared/api-responses';
import { LEAD_STATUSES, type Lead } from '../src/shared/records';
import { LeadUpdateRequest, SOURCES, sourceName } from '../src/shared/schemas';

const COLUMNS: { header: string; value: (lead: Lead) => unknown }[] = [
  { header: 'created_at', value: (lead) => lead.createdAt },
  { header: 'name', value: (lead) => lead.name },
  { header: 'email', value: (lead) => lead.email },
  { header: 'company', value: (lead) => lead.company },
  // The form's plain name, as the admin page shows it (`Contact form`).
  { header: 'source', value: (lead) => sourceName(lead.source) },
  { header: 'notes', value: (lead) => lead.notes },
  { header: 'page', value: (lead) => lead.page },
  ...ATTRIBUTION_COLUMNS,
  {
    header: 'delivery',
    value: (lead) => lead.delivery?.map((delivery) => `${delivery.kind}: ${delivery.status}`).join('; '),
  },
  // The owner's own columns last, so that a sheet built on the earlier ones keeps its columns.
  { header: 'status', value: (lead) => statusOf(lead) },
  { header: 'note', value: (lead) => lead.note },
  { header: 'updated_at', value: (lead) => lead.updatedAt },
  { header: 'id', value: (lead) => lead.id },
];

const NO_LEAD = 'No lead has that id';

/** Longer than any name, e-mail or company a person types to find a lead. */
const MAX_SEARCH = 100;

/** ?page=n or ?format=csv, narrowed by ?q=text (name, e-mail or company), ?status= and ?form=. */
const LeadsQuery = queryOf({
  page: PageNumber,
  format: ExportFormat,
  q: SearchText(MAX_SEARCH),
  status: OneOf('status', LEAD_STATUSES),
  form: OneOf('form', SOURCES),
});

/**
 * Leads, newest first: a page as JSON with the counts per status, or all of them as CSV with
 * ?format=csv, either narrowed by the filters. PATCH /api/admin/leads/{id} sets the owner's status
 * and note and answers the lead; DELETE erases a lead, held as spam or not, with its e-mails and
 * webhook.
 */
export default endpoint({ name: 'admin-leads', headers: ADMIN_HEADERS }, async (req, context) => {
  // The list answers GET; a lead's own path, DELETE and PATCH.
  requireMethod(req, context.params.id === undefined ? ['GET'] : ['DELETE', 'PATCH']);
  await requireAdmin(req);
  const store = await getStore();
  if (req.method === 'PATCH') {
    const id = requireActionId(req, context.params.id, NO_LEAD);
    const update = parseWith(LeadUpdateRequest, await readJsonBody(req));
    const lead = await store.updateLead(id, update, new Date());
    if (!lead) return errorResponse(404, NO_LEAD);
    // The lead itself, as the list shows it: the page puts it in place of the one it showed.
    return json(200, listed(lead) satisfies Lead);
  }
  if (req.method === 'DELETE') {
    const id = requireActionId(req, context.params.id, NO_LEAD);
    const erased = await store.deleteLead(id);
    if (!erased) return errorResponse(404, NO_LEAD);
    await forgetLocalCopies(erased.entries);
    return json(200, { deleted: id });
  }
  const { page = 1, format, ...filter } = parseQuery(LeadsQuery, req);
  if (format === 'csv') return csvDownload('leads', toCsv(COLUMNS, await store.listLeads(ALL, filter)));
  const leads = async (range: { offset: number; limit: number }) => (await store.listLeads(range, filter)).map(listed);
  const [list, statuses] = await Promise.all([
    listPage(page, leads, () => store.countLeads(filter)),
    store.leadStatusCounts(),
  ]);
  return json(200, { ...list, statuses } satisfies LeadsPage);
});

export const config: Config = { path: ['/api/admin/leads', '/api/admin/leads/:id'] };
