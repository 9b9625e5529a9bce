// functions/_lib/store keeps the records: the Store interface, its Redis and SQLite adapters, and getStore() with its deadlines.
/**
 * The rules both adapters follow, as pure functions: what a subscription, a confirmation and an
 * unsubscription make of a subscriber, and what an attempt makes of an outbox entry. The adapters
 * only decide how the result is written atomically.
 */
import {
  EARLIER_CONSENTS_KEPT,
  type Consent,
  type Delivery,
  type Lead,
  type Subscriber,
} from '../../../src/shared/records';
import {
  OUTBOX_RETRY_WINDOW_MS,
  type ConfirmInput,
  type DeliveryOutcome,
  type NewOutboxEntry,
  type OutboxState,
  type StatusChange,
  type SubscribeInput,
} from './types';

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
  entries: NewOutboxEntry[];
  /** Why the change is refused, if it is (the record is left as it is). */
  refused?: StatusChange['refused'];
}

const unchanged = (subscriber: Subscriber, refused?: StatusChange['refused']): SubscriberChange => ({
  next: subscriber,
  changed: false,
  confirmedNow: false,
  entries: [],
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
      (({ unsubscribedAt: _left, confirmedAt: _at, confirmedPolicyDate: _date, ...rest }) => rest)(current);
  return {
    ...signUp,
    confirmedAt: at,
    ...(input.policyDate ? { confirmedPolicyDate: input.policyDate } : {}),
    ...(kept.length > 0 ? { earlier: kept } : {}),
  };
}

/**
 * What opening a confirmation link makes of a subscriber: confirmed, with the names, form and
 * sign-up the link carries. A link sent before the person unsubscribed confirms nothing (a mail
 * scanner opening an old e-mail must not subscribe them again).
 */
export function confirmed(
  subscriber: Subscriber,
  input: ConfirmInput,
  now: Date,
  outbox: (subscriber: Subscriber) => NewOutboxEntry[],
): SubscriberChange {
  const left = subscriber.consent.unsubscribedAt;
  if (subscriber.status === 'unsubscribed' && left && input.sentAt && Date.parse(left) > Date.parse(input.sentAt))
    return unchanged(subscriber, 'unsubscribed-since');
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
  return { next, changed: true, confirmedNow, entries: confirmedNow ? outbox(next) : [] };
}

/** What an unsubscription makes of a subscriber; unchanged when they already left. */
export function unsubscribed(subscriber: Subscriber, now: Date): SubscriberChange {
  if (subscriber.status === 'unsubscribed') return unchanged(subscriber);
  const at = now.toISOString();
  return {
    next: {
      ...subscriber,
      status: 'unsubscribed',
      updatedAt: at,
      consent: { ...subscriber.consent, unsubscribedAt: at },
    },
    changed: true,
    confirmedNow: false,
    entries: [],
  };
}

/** Whether a lead is held as spam: judged spam and not (yet) released by the owner. */
export function isHeld(lead: Pick<Lead, 'spam'>): boolean {
  return lead.spam !== undefined && lead.spam.releasedAt === undefined;
}

/** A held lead after the owner's "Not spam": from `now` on it is an ordinary lead. */
export function released(lead: Lead, now: Date): Lead {
  const { delivery: _delivery, ...rest } = lead;
  return { ...rest, spam: { reasons: lead.spam?.reasons ?? [], releasedAt: now.toISOString() } };
}

/** Subscribers by status, from the adapters' counts: whoever is neither pending nor unsubscribed is confirmed. */
export function statusCounts(all: number, pending: number, unsubscribedCount: number) {
  return { pending, confirmed: Math.max(0, all - pending - unsubscribedCount), unsubscribed: unsubscribedCount };
}

/** A new entry's state: due now, retried for OUTBOX_RETRY_WINDOW_MS. */
export function newState({ message: _message, throttle: _throttle, ...entry }: NewOutboxEntry, now: Date): OutboxState {
  return {
    ...entry,
    status: 'pending',
    attempts: 0,
    createdAt: now.toISOString(),
    nextAttemptAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + OUTBOX_RETRY_WINDOW_MS).toISOString(),
  };
}

/** The wait before the next attempt after `attempts` failed ones: 1, 2, 4 … minutes, at most an hour. */
export function backoffMs(attempts: number): number {
  return Math.min(2 ** Math.max(0, attempts - 1), 60) * 60_000;
}

/** How soon an entry whose channel is not set up is looked at again. */
export const NOT_SET_UP_RECHECK_MS = 60_000;

/**
 * An entry after an attempt: delivered, back in line after its backoff, or dead (permanent, or
 * past its window). One whose channel is not set up keeps its count and is due again in a minute.
 */
export function afterAttempt(entry: OutboxState, outcome: DeliveryOutcome, now: Date): OutboxState {
  const notTried = outcome.kind === 'failed' && outcome.notSetUp === true;
  const attempts = notTried ? entry.attempts : entry.attempts + 1;
  const { nextAttemptAt: _next, lastError: _error, ...rest } = entry;
  if (outcome.kind === 'delivered') {
    return { ...rest, attempts, status: 'delivered', deliveredAt: now.toISOString(), via: outcome.via };
  }
  const next = now.getTime() + (notTried ? NOT_SET_UP_RECHECK_MS : backoffMs(attempts));
  if (outcome.permanent) return { ...rest, attempts, status: 'dead', lastError: outcome.error };
  if (next > Date.parse(entry.expiresAt))
    return { ...rest, attempts, status: 'dead', lastError: `${outcome.error} (gave up after 24 hours)` };
  return {
    ...rest,
    attempts,
    status: 'pending',
    nextAttemptAt: new Date(next).toISOString(),
    lastError: outcome.error,
  };
}

/** A dead entry put back in line by the owner: due now, with a new window and its backoff from the start (1 minute). */
export function revived(entry: OutboxState, now: Date): OutboxState {
  return {
    ...entry,
    attempts: 0,
    status: 'pending',
    nextAttemptAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + OUTBOX_RETRY_WINDOW_MS).toISOString(),
  };
}

/** What the admin page shows of an entry. */
export function deliveryOf(state: OutboxState): Delivery {
  const delivery: Delivery = {
    id: state.id,
    kind: state.kind,
    status: state.status,
    to: state.to,
    attempts: state.attempts,
    createdAt: state.createdAt,
  };
  if (state.status === 'pending' && state.nextAttemptAt) delivery.nextAttemptAt = state.nextAttemptAt;
  if (state.deliveredAt) delivery.deliveredAt = state.deliveredAt;
  if (state.lastError) delivery.lastError = state.lastError;
  if (state.via) delivery.via = state.via;
  return delivery;
}
