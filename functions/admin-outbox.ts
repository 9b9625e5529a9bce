import type { Config } from '@netlify/functions';
import type { OutboxItem } from '../src/shared/api-responses';
import { listPage } from './_lib/admin/insights';
import { PageQuery, parseQuery } from './_lib/admin/query';
import { ADMIN_HEADERS, requireActionId, requireAdmin, UUID } from './_lib/admin/session';
import { endpoint, errorResponse, json, requireMethod } from './_lib/platform/http';
import { deliverAfterAnswer } from './_lib/delivery/outbox';
import { deliveryOf } from './_lib/store/outbox-state';
import { getStore } from './_lib/store/get-store';
import type { ListedOutboxEntry, OutboxMessage } from './_lib/store/types';
import type { Mailing } from '../src/shared/mailing-types';
import { composeNewsletter, mailingId, NEWSLETTER_ENTRY_ID } from './_lib/delivery/emails/newsletter-email';
import { publishedMailings } from './_lib/delivery/newsletter-sending';

/** An outbox entry's id: a form's entries have UUIDs, a newsletter's its own (newsletterEntryId). */
const OUTBOX_ENTRY_ID = new RegExp(`${UUID.source}|${NEWSLETTER_ENTRY_ID.source}`);
/** The text an entry's message shows: an e-mail's plain-text part (a newsletter's composed as it is sent), a webhook's JSON. */
function textOf(message: OutboxMessage, mailings: readonly Mailing[]): string {
  if (message.channel === 'mail') return message.text;
  if (message.channel === 'webhook') return JSON.stringify(JSON.parse(message.body), null, 2);
  const mailing = mailings.find((candidate) => mailingId(candidate) === message.mailing);
  return mailing
    ? composeNewsletter(mailing, message, mailings).text
    : 'The site no longer publishes this post or issue, so this e-mail cannot be shown or sent.';
}

/** What the admin's Outbox shows of an entry: its state, and the message as it is sent (or its subject alone, once its text is no longer kept). */
function itemOf(entry: ListedOutboxEntry, mailings: readonly Mailing[]): OutboxItem {
  const { message, ...state } = entry;
  const item = { ...deliveryOf(state), ref: entry.ref };
  if ('pruned' in message) return { ...item, subject: message.title, text: '', textKept: false };
  return {
    ...item,
    subject: message.channel === 'webhook' ? message.type : message.subject,
    text: textOf(message, mailings),
  };
}

/**
 * GET /api/admin/outbox: the outbox, newest first, one page at a time. POST
 * /api/admin/outbox/{id}/retry puts a dead entry back in line and tries it at once.
 */
export default endpoint({ name: 'admin-outbox', headers: ADMIN_HEADERS }, async (req, context) => {
  // The list answers GET; an entry's retry, POST.
  requireMethod(req, context.params.id === undefined ? ['GET'] : ['POST']);
  await requireAdmin(req);
  const store = await getStore();
  if (req.method === 'POST') {
    const id = requireActionId(req, context.params.id, 'No outbox entry has that id', OUTBOX_ENTRY_ID);
    if (!(await store.retryOutbox(id, new Date())))
      return errorResponse(409, 'Only an entry that failed for good can be retried');
    deliverAfterAnswer(context, store, [id], 'admin-outbox');
    return json(200, { ok: true });
  }
  const { page: number = 1 } = parseQuery(PageQuery, req);
  const page = await listPage(number, store.listOutbox, async () => (await store.countOutbox()).total);
  const newsletter = page.items.some((entry) => 'channel' in entry.message && entry.message.channel === 'newsletter');
  const mailings = newsletter ? await publishedMailings() : [];
  return json(200, { ...page, items: page.items.map((entry) => itemOf(entry, mailings)) });
});

export const config: Config = { path: ['/api/admin/outbox', '/api/admin/outbox/:id/retry'] };
