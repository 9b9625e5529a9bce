import type { Config } from '@netlify/functions';
import type { NewsletterPage, NewsletterPreview, NewsletterTestAnswer } from '../src/shared/api-responses';
import { NewsletterActionRequest, NewsletterTestRequest } from '../src/shared/schemas';
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
import type { TestRefusal } from './_lib/store/newsletter-tests';

const NOT_PUBLISHED = 'The site publishes no post or issue of that id';
/** How long "Send a test" waits for the mail server before it answers that the test is not sent yet. */
const TEST_DEADLINE_MS = 15_000;

const ACTIONS = ['preview', 'test', 'send', 'skip'] as const;
type Action = (typeof ACTIONS)[number];

/** Where "Send a test" without a limit goes: said in every refusal, so the owner knows the way on. */
const TEAM_WAY = 'Leave the address empty to send the test to LEADS_NOTIFY_TO, which has no limit.';

/** Why a test was not sent, as the admin page shows it: 409 for the address, 429 past a limit. */
function refusal(refused: TestRefusal, to: string, now: Date): Response {
  if (refused.reason === 'unsubscribed' || refused.reason === 'bounced') {
    const error =
      refused.reason === 'unsubscribed'
        ? `Not sent: ${to} unsubscribed from the newsletter, and the newsletter sends nothing to people who left, tests included.`
        : `Not sent: ${to} bounced (its mail server refused the address for good), and the newsletter sends nothing to an address that bounced, tests included.`;
    return errorResponse(409, error, { fields: { to: error } });
  }
  if (refused.reason === 'session-limit')
    return errorResponse(
      429,
      `Not sent: this session has sent ${refused.limit} tests to addresses typed in, the most one login may. ${TEAM_WAY}`,
    );
  const tomorrow = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return errorResponse(
    429,
    `Not sent: ${refused.limit} tests to addresses typed in have gone today, the most a day allows; more may go after midnight UTC. ${TEAM_WAY}`,
    { headers: { 'Retry-After': String(Math.ceil((tomorrow - now.getTime()) / 1000)) } },
  );
}

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
  const session = await requireAdmin(req);
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
    const team = notifyTo();
    // An address typed in is checked and counted; the team's own never is.
    const typed = to !== undefined && !team.some((address) => address.toLowerCase() === to) ? to : undefined;
    const recipients = to ? [to] : team;
    const outcome = await store.queueNewsletterTest(
      testEntry(ref, recipients, origin, now),
      { session: session.sessionId, ...(typed ? { typed } : {}) },
      now,
    );
    if ('refused' in outcome) return refusal(outcome.refused, recipients.join(', '), now);
    // Sent before the answer when its turn has come, so that the answer can say whether it went;
    // otherwise it waits for the sweep, and what fails waits in the Outbox with its error.
    const report = await deliverWhileWaiting(
      store,
      outcome.queued.map((entry) => entry.id),
      TEST_DEADLINE_MS,
    );
    const answer: NewsletterTestAnswer = {
      ok: true,
      to: recipients,
      sent: report.delivered === outcome.queued.length,
      waiting: report.waiting > 0,
    };
    return json(200, answer);
  }
  parseWith(NewsletterActionRequest, await readJsonBody(req));
  const known = async () => (await store.mailings([ref.id])).get(ref.id);
  if (action === 'send') {
    const { record } = await store.requestMailing(ref, 'owner', origin, now);
    if (record.status === 'skipped')
      throw new HttpError(errorResponse(409, 'It was declined (Don’t send), which cannot be undone'));
    return json(200, { ok: true, item: itemOf(mailing, await known(), undefined, now) });
  }
  if (!(await store.skipMailing(ref, now)))
    throw new HttpError(errorResponse(409, 'It is being sent (or was), which cannot be undone'));
  return json(200, { ok: true, item: itemOf(mailing, await known(), undefined, now) });
});

export const config: Config = { path: ['/api/admin/newsletter', '/api/admin/newsletter/:id/:action'] };
