import type { Config } from '@netlify/functions';
import type { NewsletterPage, NewsletterPreview, NewsletterTestAnswer } from '../src/shared/api';
import { NewsletterTestRequest } from '../src/shared/schemas';
import { newsletterItems, itemOf } from './_lib/admin/newsletter-items';
import { ADMIN_HEADERS, requireAdmin, requireSameOrigin } from './_lib/admin/session';
import {
  composeNewsletter,
  testEntry,
  unsubscribeToken,
  type NewsletterMessage,
} from './_lib/delivery/emails/newsletter-email';
import { findMailing, mailRatePerMinute, publishedMailings } from './_lib/delivery/newsletter-sending';
import { deliverWhileWaiting } from './_lib/delivery/outbox';
import { notifyTo, siteOrigin } from './_lib/delivery/settings';
import { getEnv } from './_lib/platform/env';
import {
  decodePathSegment,
  endpoint,
  errorResponse,
  HttpError,
  json,
  parseWith,
  readJsonBody,
  requireMethod,
} from './_lib/platform/http';
import { getStore } from './_lib/store/get-store';

const NOT_PUBLISHED = 'The site publishes no post or issue of that id';
/** How long "Send a test" waits for the mail server before it answers that the test is not sent yet. */
const TEST_DEADLINE_MS = 15_000;

const ACTIONS = ['preview', 'test', 'send', 'skip'] as const;
type Action = (typeof ACTIONS)[number];

/** The recipient a preview is drawn for: what a subscriber reads, with a stand-in's name, date and link. */
function sampleMessage(mailing: { id: string; subject: string }, origin: string, now: Date): NewsletterMessage {
  return {
    channel: 'newsletter',
    mailing: mailing.id,
    to: ['subscriber@example.com'],
    subject: mailing.subject,
    firstName: 'there',
    consent: { subscribedAt: now.toISOString(), page: '/' },
    origin,
    unsubscribe: unsubscribeToken('subscriber@example.com', now),
  };
}

/**
 * GET /api/admin/newsletter: every published post and issue, and where its sending stands.
 * GET …/{id}/preview: its e-mail as a subscriber gets it. POST …/{id}/test sends it now to
 * LEADS_NOTIFY_TO or the address given; POST …/{id}/send asks for it to go to every confirmed
 * subscriber (the sweep writes their entries, a batch a minute at most, and sends them at
 * MAIL_RATE_PER_MINUTE); POST …/{id}/skip is "Don't send".
 */
export default endpoint({ name: 'admin-newsletter', headers: ADMIN_HEADERS }, async (req, context) => {
  requireMethod(req, ['GET', 'POST']);
  await requireAdmin(req);
  const store = await getStore();
  const now = new Date();
  const action = context.params.action as Action | undefined;
  if (action === undefined) {
    if (req.method !== 'GET') return errorResponse(405, 'Use GET', { headers: { Allow: 'GET' } });
    const [items, counts] = await Promise.all([
      newsletterItems(store, await publishedMailings(), now),
      store.subscriberStatusCounts(),
    ]);
    const hours = getEnv().NEWSLETTER_AUTO_SEND_HOURS;
    const page: NewsletterPage = {
      confirmed: counts.confirmed,
      testTo: notifyTo(),
      ratePerMinute: mailRatePerMinute(),
      items,
      ...(hours !== undefined ? { autoSendHours: hours } : {}),
    };
    return json(200, page);
  }
  if (!ACTIONS.includes(action)) return errorResponse(404, 'No such action');
  const expected = action === 'preview' ? 'GET' : 'POST';
  if (req.method !== expected) return errorResponse(405, `Use ${expected}`, { headers: { Allow: expected } });
  const id = decodePathSegment(context.params.id ?? '');
  const found = await findMailing(id);
  if (!found) return errorResponse(404, NOT_PUBLISHED);
  const { mailing, all } = found;
  const ref = { id, subject: mailing.subject };
  const origin = siteOrigin(req, context);
  if (action === 'preview') {
    const { subject, html, text, headers = {} } = composeNewsletter(mailing, sampleMessage(ref, origin, now), all);
    const preview: NewsletterPreview = { subject, html, text, headers };
    return json(200, preview);
  }
  requireSameOrigin(req);
  if (action === 'test') {
    const { to } = parseWith(NewsletterTestRequest, await readJsonBody(req));
    const recipients = to ? [to] : notifyTo();
    const queued = await store.queueEntries([testEntry(ref, recipients, origin, now)], now);
    // Sent before the answer, so that the answer can say whether it went; what fails waits in
    // the Outbox with its error and is retried.
    const report = await deliverWhileWaiting(
      store,
      queued.map((entry) => entry.id),
      TEST_DEADLINE_MS,
    );
    const answer: NewsletterTestAnswer = { ok: true, to: recipients, sent: report.delivered === queued.length };
    return json(200, answer);
  }
  const known = async () => (await store.mailings([ref.id])).get(ref.id);
  if (action === 'send') {
    await store.requestMailing(ref, 'owner', origin, now);
    return json(200, { ok: true, item: itemOf(mailing, await known(), undefined, now) });
  }
  if (!(await store.skipMailing(ref, now)))
    throw new HttpError(errorResponse(409, 'It is being sent (or was), which cannot be undone'));
  return json(200, { ok: true, item: itemOf(mailing, await known(), undefined, now) });
});

export const config: Config = { path: ['/api/admin/newsletter', '/api/admin/newsletter/:id/:action'] };
