import type { Config } from '@netlify/functions';
import type { SpamPage } from '../src/shared/api-responses';
import { listed, PAGE_SIZE } from './_lib/admin/insights';
import { PageQuery, parseQuery } from './_lib/admin/query';
import { ADMIN_HEADERS, requireActionId, requireAdmin } from './_lib/admin/session';
import { deliverySettings } from './_lib/delivery/settings';
import { endpoint, errorResponse, json, requireMethod } from './_lib/platform/http';
import { leadEntries } from './_lib/delivery/entries';
import { deliverAfterAnswer } from './_lib/delivery/outbox';
import { getStore } from './_lib/store/get-store';

const NOT_HELD = 'No lead of that id is held as spam';

/**
 * GET /api/admin/spam: the leads held as spam, newest first, one page at a time, with what the
 * honeypot and the proof of work refused per form. POST /api/admin/spam/{id}/release ("Not
 * spam") makes a held lead an ordinary one and sends its notification and webhook at once.
 */
export default endpoint({ name: 'admin-spam', headers: ADMIN_HEADERS }, async (req, context) => {
  // The list answers GET; a held lead's release, POST.
  requireMethod(req, context.params.id === undefined ? ['GET'] : ['POST']);
  await requireAdmin(req);
  const store = await getStore();
  if (req.method === 'POST') {
    const id = requireActionId(req, context.params.id, NOT_HELD);
    const settings = deliverySettings(req, context);
    const released = await store.releaseSpam(id, new Date(), { outbox: (lead) => leadEntries(lead, settings) });
    if (!released) return errorResponse(404, NOT_HELD);
    deliverAfterAnswer(
      context,
      store,
      released.queued.map((entry) => entry.id),
      'admin-spam',
    );
    return json(200, { lead: released.record });
  }
  const { page = 1 } = parseQuery(PageQuery, req);
  const spam = await store.spamOverview({ offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE });
  const body: SpamPage = {
    leads: { items: spam.leads.map(listed), total: spam.held, page, pageSize: PAGE_SIZE },
    honeypot: spam.honeypot,
    challengeFailures: spam.challengeFailures,
  };
  return json(200, body);
});

export const config: Config = { path: ['/api/admin/spam', '/api/admin/spam/:id/release'] };
