/**
 * Delivers what the outbox holds. Right after a form's answer the function delivers its own new
 * entries (deliverNow, through context.waitUntil; the local server runs that on a thread of its
 * own, see AfterAnswerHook); the scheduled sweep (functions/outbox-sweep.ts,
 * every minute) delivers whatever is due: retries after a failure, and anything a crashed or
 * timed-out function left. Both claim entries first, so an entry is never sent by two at once.
 *
 * Never by two at once, but possibly twice: an outcome is recorded after the attempt, so a process
 * killed in between leaves a sent entry pending, and it goes out again when its lease ends. This is
 * at-least-once delivery, as an outbox must be (the alternative loses messages); the ids that
 * receivers dedupe by (the e-mail's Message-ID, the webhook-id) are the entry's id, the same on
 * every attempt.
 */
import type { Context } from '@netlify/functions';
import { DeliveryFailure, sendMail } from './mail-transport';
import { OUTBOX_MESSAGE_KEEP_MS } from '../store/outbox-state';
import type { StoreVerbs } from '../store/store';
import type { ClaimedEntry, Completion, DeliveryOutcome, OutboxEntry } from '../store/types';
import { sendWebhook } from './webhooks';
import { describeFailure } from '../platform/env';
import { composeNewsletter, TEST_REF } from './emails/newsletter-email';
import { findMailing, mailRatePerMinute } from './newsletter-sending';

/**
 * How long one attempt may take before it counts as failed (and is retried after its backoff).
 * Well within OUTBOX_LEASE_MS: an entry is never claimed again while an attempt at it can still
 * be going on. SMTP's own timeouts bound each step, not a whole conversation with a server that
 * answers slowly, nor the wait for a free connection; this bounds the whole.
 */
export const ATTEMPT_DEADLINE_MS = 60_000;

/** The most entries claimed at once after an answer: a burst's entries are claimed and sent this many at a time. */
export const CLAIM_CHUNK = 25;

/** One attempt at one entry, ended by its deadline at the latest. */
/** Sends one entry's message: an e-mail, a newsletter e-mail (composed now) or a webhook. */
async function send(entry: OutboxEntry): Promise<'smtp' | 'file' | 'webhook'> {
  const message = entry.message;
  if (message.channel === 'mail') return sendMail(entry, message);
  if (message.channel === 'webhook') return sendWebhook(entry, message);
  const found = await findMailing(message.mailing);
  if (!found) throw new DeliveryFailure('Not sent: the site no longer publishes this post or issue', true);
  return sendMail(entry, composeNewsletter(found.mailing, message, found.all));
}

export async function attempt(entry: OutboxEntry, deadlineMs = ATTEMPT_DEADLINE_MS): Promise<DeliveryOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new DeliveryFailure(`no answer within ${deadlineMs / 1000} s`, false)), deadlineMs);
  });
  try {
    const via = await Promise.race([send(entry), deadline]);
    return { kind: 'delivered', via };
  } catch (error) {
    if (error instanceof DeliveryFailure)
      return {
        kind: 'failed',
        error: error.message,
        permanent: error.permanent,
        ...(error.notSetUp ? { notSetUp: true } : {}),
        ...(error.bounce ? { bounce: true } : {}),
      };
    return { kind: 'failed', error: describeFailure(error), permanent: false };
  } finally {
    clearTimeout(timer);
  }
}

export interface DeliveryReport {
  delivered: number;
  failed: number;
  dead: number;
}

/**
 * Gathers what is handed over, per store, until `delayMs` has passed (0: the end of this turn of
 * the event loop), then hands it all to `flush` in one call; every caller gets that call's promise.
 */
function batcher<T, R>(delayMs: number, flush: (store: StoreVerbs, items: T[]) => Promise<R>) {
  const open = new Map<StoreVerbs, { items: T[]; done: Promise<R> }>();
  return (store: StoreVerbs, items: T[]): Promise<R> => {
    let batch = open.get(store);
    if (!batch) {
      const gathered: T[] = [];
      const done = new Promise<R>((resolve, reject) => {
        const run = () => {
          open.delete(store);
          flush(store, gathered).then(resolve, reject);
        };
        if (delayMs === 0) setImmediate(run);
        else setTimeout(run, delayMs);
      });
      batch = { items: gathered, done };
      open.set(store, batch);
    }
    batch.items.push(...items);
    return batch.done;
  };
}

/**
 * Outcomes that arrive in the same turn of the event loop are recorded together, in one store
 * call; one that arrives alone (a slow webhook) is recorded as soon as it is known, so a process
 * that dies later cannot make a delivered entry go out again.
 */
const complete = batcher(0, (store, items: { completion: Completion; at: Date }[]) =>
  // One turn of the event loop, one moment: the last outcome's time stands for all of them.
  store.completeOutbox(
    items.map((item) => item.completion),
    items.at(-1)?.at ?? new Date(),
  ),
);

/** The entries whose recipient is a subscriber: a bounce marks them. */
const BOUNCING_KINDS = new Set<OutboxEntry['kind']>(['newsletter', 'confirmation']);

async function deliverClaimed(
  store: StoreVerbs,
  claimed: ClaimedEntry[],
  now: () => Date,
  report: DeliveryReport,
  deadlineMs = ATTEMPT_DEADLINE_MS,
) {
  await Promise.all(
    claimed.map(async (item) => {
      const outcome = await attempt(item.entry, deadlineMs);
      // A refused address is never mailed again: marked before the outcome is recorded, so a
      // process that dies in between retries the entry and marks it then.
      if (
        outcome.kind === 'failed' &&
        outcome.bounce &&
        BOUNCING_KINDS.has(item.entry.kind) &&
        item.entry.ref !== TEST_REF
      )
        await store.markBounced(item.entry.ref, now(), outcome.error);
      await complete(store, [{ completion: { claimed: item, outcome }, at: now() }]);
      if (outcome.kind === 'delivered') report.delivered += 1;
      else if (outcome.permanent) report.dead += 1;
      else report.failed += 1;
      if (outcome.kind === 'failed')
        console.warn(`[outbox] ${item.entry.kind} ${item.entry.id} failed: ${outcome.error}`);
    }),
  );
}

/**
 * Delivers these entries if they are still due, CLAIM_CHUNK at a time: each chunk is claimed just
 * before its attempts, so no lease runs while its entry waits behind others.
 */
async function deliverIds(store: StoreVerbs, ids: string[], now: () => Date): Promise<DeliveryReport> {
  const report: DeliveryReport = { delivered: 0, failed: 0, dead: 0 };
  for (let start = 0; start < ids.length; start += CLAIM_CHUNK) {
    const chunk = ids.slice(start, start + CLAIM_CHUNK);
    await deliverClaimed(store, await store.claimOutbox(now(), chunk.length, { ids: chunk }), now, report);
  }
  return report;
}

/**
 * Delivers these newsletter entries (a test) now, while the request that wrote them waits, each
 * attempt cut off after `deadlineMs`, for an answer that says whether it went; but only as the
 * sweep would take them: when no lead notification, guide or confirmation is due, and within what
 * MAIL_RATE_PER_MINUTE leaves of this minute. Those not taken (`waiting`) go with the sweep, in
 * their turn; what fails stays in the outbox, retried like any other entry.
 */
export async function deliverWhileWaiting(
  store: StoreVerbs,
  ids: string[],
  deadlineMs: number,
): Promise<DeliveryReport & { waiting: number }> {
  const now = () => new Date();
  const report: DeliveryReport = { delivered: 0, failed: 0, dead: 0 };
  const claimed = await store.claimBulk(now(), ids.length, mailRatePerMinute(), { ids });
  await deliverClaimed(store, claimed, now, report, deadlineMs);
  return { ...report, waiting: ids.length - claimed.length };
}

/**
 * How long after a form's answer its delivery starts: long enough for the answer to be on its way
 * (compressed and written to the socket) before any delivery work takes the CPU, and for the
 * entries of a burst of requests to gather into one claim.
 */
export const DELIVERY_DELAY_MS = 25;

/** Entries handed over within DELIVERY_DELAY_MS, by store: claimed together, in one store call. */
const deliverSoon = batcher(DELIVERY_DELAY_MS, (store, ids: string[]) => deliverIds(store, ids, () => new Date()));

/**
 * Delivers these entries right after the answer, if they are still due (a sweep may have them
 * already). Under a burst of requests, the entries of all of them are claimed in one store call;
 * the promise is that batch's, settled when every entry of it has had its attempt.
 */
export function deliverNow(store: StoreVerbs, ids: string[]): Promise<DeliveryReport> {
  return deliverSoon(store, ids);
}

/**
 * A field a local server may add to the Context it builds: it takes a function's new entries and
 * delivers them off the thread that answers requests (scripts/serve/ runs them on a worker
 * thread), as Netlify's instance per invocation does. Netlify's Context has no such field.
 */
export interface AfterAnswerHook {
  afterAnswerDelivery?: (ids: string[]) => Promise<DeliveryReport>;
}

/**
 * Hands a function's new entries to Netlify to deliver after its answer (context.waitUntil), or
 * to the local server's delivery thread when it offers one; whatever fails there is logged, and
 * retried by the sweep.
 */
export function deliverAfterAnswer(
  context: Pick<Context, 'waitUntil'> & AfterAnswerHook,
  store: StoreVerbs,
  ids: string[],
  name: string,
) {
  if (ids.length === 0) return;
  const delivery = context.afterAnswerDelivery ? context.afterAnswerDelivery(ids) : deliverNow(store, ids);
  context.waitUntil(
    delivery.catch((error: unknown) => {
      console.error(
        `[${name}] delivery after the answer failed (the outbox sweep retries it): ${describeFailure(error)}`,
      );
    }),
  );
}

export interface SweepOptions {
  /** The clock: the tests move it instead of waiting. */
  now?: () => Date;
  /**
   * How long the whole sweep may take, its attempts included (a scheduled function is stopped at
   * 30 seconds): no batch starts with less than MIN_ATTEMPT_MS of it left, and each attempt is cut
   * off at what is left.
   */
  budgetMs?: number;
  /** Entries claimed and delivered at a time. */
  batch?: number;
  /** How long one attempt may take (ATTEMPT_DEADLINE_MS). */
  attemptDeadlineMs?: number;
  /** Newsletter e-mails claimed per minute at most (MAIL_RATE_PER_MINUTE); null: no limit. */
  perMinute?: number | null;
}

/**
 * The least time a batch's attempts get: with less of the budget left, the sweep stops and leaves
 * what is due to the next one, rather than start attempts it would have to cut off at once.
 */
const MIN_ATTEMPT_MS = 2_000;

/**
 * How early the sweep takes a retry: half the minute between its runs. A retry due a minute after
 * a failure at 12:00:03 is then taken by the run at 12:01 (57 s later) rather than the one at
 * 12:02; whatever the second of the failure, the wait is 30 to 90 s, a minute on average.
 */
export const SWEEP_EARLY_MS = 30_000;

/**
 * Delivers everything due, a batch at a time, until nothing is due or the budget is spent, its
 * attempts within it: an attempt still going at the end counts as failed and is retried (the
 * e-mail or webhook may have gone out: delivery is at least once). Each batch comes from the first
 * line (notifications, guides, confirmations, webhooks) while it has anything due, and only then
 * from the newsletter's, at the pace `perMinute` allows: a lead's notification waits behind one
 * batch of a newsletter at most.
 */
export async function sweep(
  store: StoreVerbs,
  {
    now = () => new Date(),
    budgetMs = 20_000,
    batch = 10,
    attemptDeadlineMs = ATTEMPT_DEADLINE_MS,
    perMinute = mailRatePerMinute(),
  }: SweepOptions = {},
) {
  const report: DeliveryReport = { delivered: 0, failed: 0, dead: 0 };
  const started = Date.now();
  for (;;) {
    // Whole seconds, so that the error of an attempt cut off says "no answer within 12 s".
    const left = Math.floor((budgetMs - (Date.now() - started)) / 1000) * 1000;
    if (left < MIN_ATTEMPT_MS) break;
    const at = now();
    const first = await store.claimOutbox(at, batch, { dueBy: new Date(at.getTime() + SWEEP_EARLY_MS) });
    const claimed = first.length > 0 ? first : await store.claimBulk(now(), batch, perMinute);
    if (claimed.length === 0) break;
    await deliverClaimed(store, claimed, now, report, Math.min(attemptDeadlineMs, left));
  }
  return report;
}

/** Messages whose text is forgotten in one run: an hour's share of a busy site's, many times over. */
const PRUNE_LIMIT = 500;

/**
 * Once an hour (the run at minute 0), forgets the text of messages delivered more than
 * OUTBOX_MESSAGE_KEEP_MS ago: the store does not grow with every e-mail ever sent, while each
 * entry's state stays with its record. Answers how many it forgot.
 */
export async function pruneDelivered(store: StoreVerbs, now: Date): Promise<number> {
  if (now.getUTCMinutes() !== 0) return 0;
  return store.pruneOutbox(new Date(now.getTime() - OUTBOX_MESSAGE_KEEP_MS), PRUNE_LIMIT);
}
