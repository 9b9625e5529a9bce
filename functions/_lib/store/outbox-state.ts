// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/** What happens to an outbox entry's state, as pure functions: a new entry, an attempt, the owner's retry. */
import type { Delivery } from '../../../src/shared/records';
import { KEYS } from './keys';
import type { DeliveryOutcome, NewOutboxEntry, OutboxMessage, OutboxState } from './types';

/** How long a claimed entry is reserved for its claimer (longer than any delivery attempt takes). */
export const OUTBOX_LEASE_MS = 2 * 60_000;
/** How long a failing entry is retried before it is marked dead. */
export const OUTBOX_RETRY_WINDOW_MS = 24 * 3600_000;
/**
 * How long the text of a delivered e-mail or webhook is kept for the owner to read; then only its
 * subject stays with its state (who, when, delivered), as long as its record is kept.
 */
export const OUTBOX_MESSAGE_KEEP_MS = 30 * 24 * 3600_000;
/** How soon an entry whose channel is not set up is looked at again. */
export const NOT_SET_UP_RECHECK_MS = 60_000;

/**
 * A new entry's state: due now, or at its `dueAt` when that is later (a booking's reminder), and
 * retried for OUTBOX_RETRY_WINDOW_MS from then.
 */
export function newState({ message: _message, throttle: _throttle, ...entry }: NewOutboxEntry, now: Date): OutboxState {
  const due = Math.max(now.getTime(), Date.parse(entry.dueAt ?? '') || 0);
  return {
    ...entry,
    status: 'pending',
    attempts: 0,
    createdAt: now.toISOString(),
    nextAttemptAt: new Date(due).toISOString(),
    expiresAt: new Date(due + OUTBOX_RETRY_WINDOW_MS).toISOString(),
  };
}

/** The wait before the next attempt after `attempts` failed ones: 1, 2, 4 … minutes, at most an hour. */
export function backoffMs(attempts: number): number {
  return Math.min(2 ** Math.max(0, attempts - 1), 60) * 60_000;
}

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
  if (outcome.permanent)
    return {
      ...rest,
      attempts,
      status: 'dead',
      lastError: outcome.error,
      ...(outcome.bounce ? { bounced: true } : {}),
    };
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
  const { bounced: _bounced, ...rest } = entry;
  return {
    ...rest,
    attempts: 0,
    status: 'pending',
    nextAttemptAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + OUTBOX_RETRY_WINDOW_MS).toISOString(),
  };
}

/**
 * The line an entry waits in: newsletter entries, tests included, wait behind every other, so
 * that no number of them holds up a lead's notification.
 */
export function dueIndex(entry: { mailing?: string | undefined; testOf?: string | undefined }): string {
  return entry.mailing || entry.testOf ? KEYS.outboxDueBulk : KEYS.outboxDue;
}

/** A newsletter entry not sent because its subscriber is no longer confirmed. */
export function cancelled(entry: OutboxState, reason: string): OutboxState {
  const { nextAttemptAt: _next, ...rest } = entry;
  return { ...rest, status: 'cancelled', lastError: reason };
}

/** What stands in a sent message where a live link's token was. */
export const REDACTED = '[removed once sent]';

/**
 * A message as the outbox keeps it once it has been sent: its secrets (the tokens of its links)
 * removed from the text, the HTML and the headers, the rest as it was; undefined when it has none.
 */
export function redacted(message: OutboxMessage): OutboxMessage | undefined {
  if (message.channel === 'newsletter') return { ...message, unsubscribe: REDACTED };
  if (message.channel !== 'mail' || !message.secrets?.length) return undefined;
  const { secrets, ...rest } = message;
  const clean = (value: string) => secrets.reduce((text, secret) => text.replaceAll(secret, REDACTED), value);
  return {
    ...rest,
    text: clean(rest.text),
    html: clean(rest.html),
    ...(rest.headers
      ? { headers: Object.fromEntries(Object.entries(rest.headers).map(([name, value]) => [name, clean(value)])) }
      : {}),
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
