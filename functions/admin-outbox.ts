import type { Config } from '@netlify/functions';
import type { OutboxItem } from '../src/shared/api';
import { listPage } from './_lib/admin/insights';
import { ADMIN_HEADERS, requireActionId, requireAdmin } from './_lib/admin/session';
import { endpoint, errorResponse, json, requireMethod } from './_lib/platform/http';
import { deliverAfterAnswer } from './_lib/delivery/outbox';
import { deliveryOf } from './_lib/store/outbox-state';
import { getStore } from './_lib/store/get-store';
import type { ListedOutboxEntry } from './_lib/store/types';

/** What the admin's Outbox shows of an entry: its state, and the message as it is sent (or its subject alone, once its text is no longer kept). */
function itemOf(entry: ListedOutboxEntry): OutboxItem {
  const { message, ...state } = entry;
  const item = { ...deliveryOf(state), ref: entry.ref };
  if ('pruned' in message) return { ...item, subject: message.title, text: '', textKept: false };
  return {
    ...item,
    subject: message.channel === 'mail' ? message.subject : message.type,
    text: message.channel === 'mail' ? message.text : JSON.stringify(JSON.parse(message.body), null, 2),
  };
}

/**
 * GET /api/admin/outbox: the outbox, newest first, one page at a time. POST
 * /api/admin/outbox/{id}/retry puts a dead entry back in line and tries it at once.
 */
export default endpoint({ name: 'admin-outbox', headers: ADMIN_HEADERS }, async (req, context) => {
  requireMethod(req, ['GET', 'POST']);
  await requireAdmin(req);
  const store = await getStore();
  if (req.method === 'POST') {
    const id = requireActionId(req, context.params.id, 'No outbox entry has that id');
    if (!(await store.retryOutbox(id, new Date())))
      return errorResponse(409, 'Only an entry that failed for good can be retried');
    deliverAfterAnswer(context, store, [id], 'admin-outbox');
    return json(200, { ok: true });
  }
  const url = new URL(req.url);
  const page = await listPage(url, store.listOutbox, async () => (await store.countOutbox()).total);
  return json(200, { ...page, items: page.items.map(itemOf) });
});

export const config: Config = { path: ['/api/admin/outbox', '/api/admin/outbox/:id/retry'] };
