import type { Config } from '@netlify/functions';
import type { SubscriptionAnswer, SubscriptionRefusal } from '../src/shared/api-responses';
import { SubscriptionTokenRequest } from '../src/shared/schemas';
import { deliverySettings } from './_lib/delivery/settings';
import { endpoint, errorResponse, json, parseWith, readJsonBody, requireMethod } from './_lib/platform/http';
import { LINK_MESSAGES, sentAtOf, verifyLink } from './_lib/delivery/links';
import { confirmedEntries } from './_lib/delivery/entries';
import { deliverAfterAnswer } from './_lib/delivery/outbox';
import { policyDate } from './_lib/platform/policy';
import { getStore } from './_lib/store/get-store';

/**
 * The confirmation page POSTs the e-mailed link's token here (never a GET: mail scanners open
 * links). The subscriber becomes confirmed with the names, form and sign-up the link carries, and
 * the subscriber.confirmed webhook is queued in the same step. A link sent before the person
 * unsubscribed, or before their address bounced, answers 409 and confirms nothing.
 */
export default endpoint({ name: 'newsletter-confirm', retryAfterSeconds: 30 }, async (req, context) => {
  requireMethod(req, ['POST']);
  const { token } = parseWith(SubscriptionTokenRequest, await readJsonBody(req));
  const now = new Date();
  const check = verifyLink(token, now);
  if (!check.ok && check.reason === 'expired' && check.action === 'confirm')
    return errorResponse(410, LINK_MESSAGES.expired);
  if (!check.ok || check.payload.a !== 'confirm') return errorResponse(400, LINK_MESSAGES.invalid);
  const link = check.payload;
  const { e: email, f: firstName, l: lastName, s: source } = link;
  const sentAt = sentAtOf(link).toISOString();

  const store = await getStore();
  const settings = deliverySettings(req, context);
  const change = await store.confirmSubscriber(
    {
      email,
      firstName,
      ...(lastName ? { lastName } : {}),
      source,
      ...(link.t !== undefined
        ? { signUp: { at: sentAt, ...(link.p ? { page: link.p } : {}), ...(link.d ? { policyDate: link.d } : {}) } }
        : {}),
      sentAt,
      policyDate: await policyDate(),
    },
    now,
    { outbox: (subscriber) => confirmedEntries(subscriber, now, settings) },
  );
  if (!change) return errorResponse(404, LINK_MESSAGES.gone);
  if (change.refused) {
    const bounced = change.refused === 'bounced-since';
    const refusal: SubscriptionRefusal = {
      error: bounced ? LINK_MESSAGES.bouncedSince : LINK_MESSAGES.unsubscribedSince,
      status: bounced ? 'bounced' : 'unsubscribed',
    };
    return json(409, refusal);
  }
  deliverAfterAnswer(
    context,
    store,
    change.queued.map((entry) => entry.id),
    'newsletter-confirm',
  );
  const answer: SubscriptionAnswer = { ok: true, status: 'confirmed' };
  return json(200, answer);
});

export const config: Config = { path: '/api/newsletter/confirm' };
