import type { Config } from '@netlify/functions';
import { ATTRIBUTION_COLUMNS, csvDownload, toCsv } from './_lib/admin/csv';
import { ALL, listed, listPage } from './_lib/admin/insights';
import { ExportQuery, parseQuery } from './_lib/admin/query';
import { ADMIN_HEADERS, requireAdmin, requireSameOrigin } from './_lib/admin/session';
import { decodePathSegment, endpoint, errorResponse, json, requireMethod } from './_lib/platform/http';
import { forgetLocalCopies } from './_lib/delivery/mail-transport';
import { getStore } from './_lib/store/get-store';
import type { Subscriber } from '../src/shared/records';
import { Email, StoredEmail } from '../src/shared/schemas';

const COLUMNS: { header: string; value: (subscriber: Subscriber) => unknown }[] = [
  { header: 'created_at', value: (subscriber) => subscriber.createdAt },
  { header: 'updated_at', value: (subscriber) => subscriber.updatedAt },
  { header: 'email', value: (subscriber) => subscriber.email },
  { header: 'first_name', value: (subscriber) => subscriber.firstName },
  { header: 'last_name', value: (subscriber) => subscriber.lastName },
  { header: 'sources', value: (subscriber) => subscriber.sources },
  { header: 'status', value: (subscriber) => subscriber.status },
  { header: 'subscribed_at', value: (subscriber) => subscriber.consent.subscribedAt },
  { header: 'consent_form', value: (subscriber) => subscriber.consent.form },
  { header: 'consent_page', value: (subscriber) => subscriber.consent.page },
  { header: 'privacy_policy_date', value: (subscriber) => subscriber.consent.policyDate },
  { header: 'confirmed_at', value: (subscriber) => subscriber.consent.confirmedAt },
  { header: 'confirmed_privacy_policy_date', value: (subscriber) => subscriber.consent.confirmedPolicyDate },
  { header: 'unsubscribed_at', value: (subscriber) => subscriber.consent.unsubscribedAt },
  { header: 'bounced_at', value: (subscriber) => subscriber.consent.bouncedAt },
  { header: 'bounce', value: (subscriber) => subscriber.consent.bounce },
  ...ATTRIBUTION_COLUMNS,
];

/** Subscribers, newest first (a page as JSON, or all as CSV), and DELETE /api/admin/subscribers/{email} for erasure requests. */
export default endpoint({ name: 'admin-subscribers', headers: ADMIN_HEADERS }, async (req, context) => {
  // The list answers GET; a subscriber's own path, DELETE.
  requireMethod(req, context.params.email === undefined ? ['GET'] : ['DELETE']);
  await requireAdmin(req);
  const store = await getStore();

  if (req.method === 'DELETE') {
    requireSameOrigin(req);
    const given = decodePathSegment(context.params.email ?? '');
    // The address as the admin page lists it first: a record kept before addresses were
    // normalised may hold another spelling, and must stay erasable. Then its one spelling.
    let address = given;
    let erased = StoredEmail.safeParse(given).success ? await store.deleteSubscriber(given) : undefined;
    if (!erased) {
      const parsed = Email.safeParse(given);
      if (!parsed.success) return errorResponse(400, 'Give the e-mail address of the subscriber to delete');
      address = parsed.data;
      erased = await store.deleteSubscriber(address);
    }
    if (!erased) return errorResponse(404, 'No subscriber has that address');
    await forgetLocalCopies(erased.entries);
    return json(200, { deleted: address });
  }

  const { page = 1, format } = parseQuery(ExportQuery, req);
  if (format === 'csv') return csvDownload('subscribers', toCsv(COLUMNS, await store.listSubscribers(ALL)));
  const subscribers = async (range: { offset: number; limit: number }) =>
    (await store.listSubscribers(range)).map(listed);
  return json(200, await listPage(page, subscribers, store.countSubscribers));
});

export const config: Config = { path: ['/api/admin/subscribers', '/api/admin/subscribers/:email'] };
