// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/**
 * What a subscription, a confirmation and an unsubscription make of a subscriber, as pure
 * functions; subscribers.ts writes the result.
 */
import { EARLIER_CONSENTS_KEPT, type Consent, type Subscriber } from '../../../src/shared/records';
import type { ConfirmInput, StatusChange, SubscribeInput, SubscriberStatusCounts } from './types';

/** A new address's record: pending until the person opens the confirmation link. */
export function newSubscriber(input: SubscribeInput, now: Date): Subscriber {
  const at = now.toISOString();
  const subscriber: Subscriber = {
    email: input.email,
    firstName: input.firstName,
    sources: [input.source],
    createdAt: at,
    updatedAt: at,
    status: 'pending',
    consent: { subscribedAt: at, form: input.source },
  };
  if (input.emailAscii !== undefined) subscriber.emailAscii = input.emailAscii;
  if (input.lastName !== undefined) subscriber.lastName = input.lastName;
  if (input.page !== undefined) subscriber.consent.page = input.page;
  if (input.policyDate !== undefined) subscriber.consent.policyDate = input.policyDate;
  if (input.attribution !== undefined) subscriber.attribution = input.attribution;
  return subscriber;
}

export interface SubscriberChange {
  next: Subscriber;
  /** Whether the record changes at all. */
  changed: boolean;
  /** Whether it becomes confirmed now (counted for the day; the webhook goes out). */
  confirmedNow: boolean;
  /** Why the change is refused, if it is (the record is left as it is). */
  refused?: StatusChange['refused'];
}

const unchanged = (subscriber: Subscriber, refused?: StatusChange['refused']): SubscriberChange => ({
  next: subscriber,
  changed: false,
  confirmedNow: false,
  ...(refused ? { refused } : {}),
});

/**
 * The consent a confirmation records: the sign-up the link was sent for, confirmed now. A consent
 * given before (confirmed, and withdrawn since) moves to `earlier`, so its proof is kept.
 */
function confirmedConsent(consent: Consent, input: ConfirmInput, at: string): Consent {
  const { earlier = [], ...current } = consent;
  const kept = current.confirmedAt ? [...earlier, current].slice(-EARLIER_CONSENTS_KEPT) : earlier;
  const signUp: Consent = input.signUp
    ? {
        subscribedAt: input.signUp.at,
        form: input.source,
        ...(input.signUp.page ? { page: input.signUp.page } : {}),
        ...(input.signUp.policyDate ? { policyDate: input.signUp.policyDate } : {}),
      }
    : // A link from before links carried their sign-up: the record's own is the best there is.
      (({
        unsubscribedAt: _left,
        bouncedAt: _bounced,
        bounce: _why,
        confirmedAt: _at,
        confirmedPolicyDate: _date,
        ...rest
      }) => rest)(current);
  return {
    ...signUp,
    confirmedAt: at,
    ...(input.policyDate ? { confirmedPolicyDate: input.policyDate } : {}),
    ...(kept.length > 0 ? { earlier: kept } : {}),
  };
}

/**
 * Whether a link sent at `sentAt` came before the subscriber stopped: they unsubscribed, or their
 * address bounced, after it was sent. Such a link confirms nothing.
 */
function stoppedSince(subscriber: Subscriber, sentAt: string | undefined): SubscriberChange['refused'] {
  const { status, consent } = subscriber;
  const since =
    status === 'unsubscribed' ? consent.unsubscribedAt : status === 'bounced' ? consent.bouncedAt : undefined;
  if (!since || !sentAt || Date.parse(since) <= Date.parse(sentAt)) return undefined;
  return status === 'bounced' ? 'bounced-since' : 'unsubscribed-since';
}

/**
 * What opening a confirmation link makes of a subscriber: confirmed, with the names, form and
 * sign-up the link carries. A link sent before the person unsubscribed, or before their address
 * bounced, confirms nothing (a mail scanner opening an old e-mail must not subscribe them again).
 */
export function confirmed(subscriber: Subscriber, input: ConfirmInput, now: Date): SubscriberChange {
  const refused = stoppedSince(subscriber, input.sentAt);
  if (refused) return unchanged(subscriber, refused);
  const at = now.toISOString();
  const confirmedNow = subscriber.status !== 'confirmed';
  const sources = subscriber.sources.includes(input.source)
    ? subscriber.sources
    : [...subscriber.sources, input.source];
  const same =
    !confirmedNow &&
    subscriber.firstName === input.firstName &&
    subscriber.lastName === input.lastName &&
    sources === subscriber.sources;
  if (same) return unchanged(subscriber);
  // The names are the link's, both of them: a sign-up without a last name has none.
  const { lastName: _lastName, ...rest } = subscriber;
  const next: Subscriber = {
    ...rest,
    firstName: input.firstName,
    ...(input.lastName !== undefined ? { lastName: input.lastName } : {}),
    sources,
    updatedAt: at,
    status: 'confirmed',
    consent: confirmedNow ? confirmedConsent(subscriber.consent, input, at) : subscriber.consent,
  };
  return { next, changed: true, confirmedNow };
}

/** A subscriber who stops receiving the newsletter: their new status, and what their consent record notes of it. */
function stopped(
  subscriber: Subscriber,
  status: 'unsubscribed' | 'bounced',
  consent: Partial<Consent>,
  at: string,
): SubscriberChange {
  return {
    next: { ...subscriber, status, updatedAt: at, consent: { ...subscriber.consent, ...consent } },
    changed: true,
    confirmedNow: false,
  };
}

/** What an unsubscription makes of a subscriber; unchanged when they already left. */
export function unsubscribed(subscriber: Subscriber, now: Date): SubscriberChange {
  if (subscriber.status === 'unsubscribed') return unchanged(subscriber);
  const at = now.toISOString();
  return stopped(subscriber, 'unsubscribed', { unsubscribedAt: at }, at);
}

/**
 * What a message refused for good by the person's mail server makes of a subscriber: bounced,
 * never sent to again until they confirm a new sign-up. One who unsubscribed stays unsubscribed.
 */
export function bounced(subscriber: Subscriber, now: Date, reason: string): SubscriberChange {
  if (subscriber.status === 'bounced' || subscriber.status === 'unsubscribed') return unchanged(subscriber);
  const at = now.toISOString();
  return stopped(subscriber, 'bounced', { bouncedAt: at, bounce: reason.slice(0, 300) }, at);
}

/** A subscriber record as stored before double opt-in had no status: it counts as confirmed, with what it has for consent. */
export function withStatus(record: Omit<Subscriber, 'status' | 'consent'> & Partial<Subscriber>): Subscriber {
  return {
    ...record,
    // Lua's cjson wrote an empty table as {}; a subscriber always has at least one source.
    sources: Array.isArray(record.sources) ? record.sources : [],
    status: record.status ?? 'confirmed',
    consent: record.consent ?? { subscribedAt: record.createdAt, form: record.sources[0] ?? '' },
  };
}

/** Subscribers by status, from the index sizes: whoever is in none of the other indexes is confirmed. */
export function statusCounts(
  all: number,
  { pending, unsubscribed, bounced }: Omit<SubscriberStatusCounts, 'confirmed'>,
): SubscriberStatusCounts {
  return { pending, confirmed: Math.max(0, all - pending - unsubscribed - bounced), unsubscribed, bounced };
}
