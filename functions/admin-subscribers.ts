import type { Config } from '@netlify/functions';
import { ADMIN_HEADERS, adminHandler, requireAdmin, requireSameOrigin } from './_lib/admin';
import { toCsv } from './_lib/csv';
import { getEnv } from './_lib/env';
import { storeCall } from './_lib/form-endpoint';
import { errorResponse, json, requireMethod } from './_lib/http';
import { PAGE_SIZE, pageParam } from './_lib/insights';
import { Email } from './_lib/schemas';
import type { Subscriber } from './_lib/store-types';

const COLUMNS: { header: string; value: (subscriber: Subscriber) => unknown }[] = [
  { header: 'created_at', value: (subscriber) => subscriber.createdAt },
  { header: 'updated_at', value: (subscriber) => subscriber.updatedAt },
  { header: 'email', value: (subscriber) => subscriber.email },
  { header: 'first_name', value: (subscriber) => subscriber.firstName },
  { header: 'last_name', value: (subscriber) => subscriber.lastName },
  { header: 'sources', value: (subscriber) => subscriber.sources },
];

/** Subscribers, newest first (a page as JSON, or all as CSV), and DELETE /api/admin/subscribers/{email} for erasure requests. */
export default adminHandler('admin-subscribers', async (req, context) => {
  requireMethod(req, ['GET', 'DELETE']);
  const { backend } = await requireAdmin(req, context);
  const timeoutMs = getEnv().STORE_TIMEOUT_MS * 2;

  if (req.method === 'DELETE') {
    requireSameOrigin(req);
    const parsed = Email.safeParse(decodeURIComponent(context.params.email ?? ''));
    if (!parsed.success) return errorResponse(400, 'Give the e-mail address of the subscriber to delete', { headers: ADMIN_HEADERS });
    const deleted = await storeCall(() => backend.store.deleteSubscriber(parsed.data), timeoutMs);
    return deleted ? json(200, { deleted: parsed.data }, ADMIN_HEADERS) : errorResponse(404, 'No subscriber has that address', { headers: ADMIN_HEADERS });
  }

  const url = new URL(req.url);
  if (url.searchParams.get('format') === 'csv') {
    const subscribers = await storeCall(() => backend.store.listSubscribers({ offset: 0, limit: 1_000_000 }), timeoutMs);
    return new Response(toCsv(COLUMNS, subscribers), {
      headers: { ...ADMIN_HEADERS, 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="subscribers-${new Date().toISOString().slice(0, 10)}.csv"`, 'X-Content-Type-Options': 'nosniff' },
    });
  }
  const page = pageParam(url);
  const [items, total] = await storeCall(() => Promise.all([backend.store.listSubscribers({ offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE }), backend.store.countSubscribers()]), timeoutMs);
  return json(200, { items, total, page, pageSize: PAGE_SIZE }, ADMIN_HEADERS);
});

export const config: Config = { path: ['/api/admin/subscribers', '/api/admin/subscribers/:email'] };
