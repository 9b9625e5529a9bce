/**
 * Delivers what the outbox holds. Right after a form's answer the function delivers its own new
 * entries (deliverNow, through context.waitUntil; the local server runs that on a thread of its
 * own, see AfterAnswerHook); the scheduled sweep (functions/outbox-sweep.ts,
 * every minute) delivers whatever is due: retries after a failure, and anything a crashed or
 * timed-out function left. Both claim entries first, so an entry is never sent by two at once.
 */
import type { Context } from '@netlify/functions';
import { DeliveryFailure, sendMail } from './mail/transport';
import type { ClaimedEntry, Completion, DeliveryOutcome, OutboxEntry, StoreVerbs } from './store/types';
import { sendWebhook } from './webhooks';

/** One attempt at one entry. */
export async function attempt(entry: OutboxEntry): Promise<DeliveryOutcome> {
  try {
    const via =
      entry.message.channel === 'mail' ? await sendMail(entry, entry.message) : await sendWebhook(entry, entry.message);
    return { kind: 'delivered', via };
  } catch (error) {
    if (error instanceof DeliveryFailure) return { kind: 'failed', error: error.message, permanent: error.permanent };
    return { kind: 'failed', error: error instanceof Error ? error.name : 'unknown error', permanent: false };
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

async function deliverClaimed(store: StoreVerbs, claimed: ClaimedEntry[], now: () => Date, report: DeliveryReport) {
  await Promise.all(
    claimed.map(async (item) => {
      const outcome = await attempt(item.entry);
      await complete(store, [{ completion: { claimed: item, outcome }, at: now() }]);
      if (outcome.kind === 'delivered') report.delivered += 1;
      else if (outcome.permanent) report.dead += 1;
      else report.failed += 1;
      if (outcome.kind === 'failed')
        console.warn(`[outbox] ${item.entry.kind} ${item.entry.id} failed: ${outcome.error}`);
    }),
  );
}

async function deliverIds(store: StoreVerbs, ids: string[], now: () => Date): Promise<DeliveryReport> {
  const report: DeliveryReport = { delivered: 0, failed: 0, dead: 0 };
  if (ids.length > 0) await deliverClaimed(store, await store.claimOutbox(now(), ids.length, ids), now, report);
  return report;
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
        `[${name}] delivery after the answer failed (the outbox sweep retries it): ${error instanceof Error ? error.name : 'unknown'}`,
      );
    }),
  );
}

export interface SweepOptions {
  /** The clock: the tests move it instead of waiting. */
  now?: () => Date;
  /** Stop claiming after this long (a scheduled function has 30 seconds). */
  budgetMs?: number;
  /** Entries claimed and delivered at a time. */
  batch?: number;
}

/** Delivers everything due, a batch at a time, until nothing is due or the budget is spent. */
export async function sweep(
  store: StoreVerbs,
  { now = () => new Date(), budgetMs = 20_000, batch = 10 }: SweepOptions = {},
) {
  const report: DeliveryReport = { delivered: 0, failed: 0, dead: 0 };
  const started = Date.now();
  while (Date.now() - started < budgetMs) {
    const claimed = await store.claimOutbox(now(), batch);
    if (claimed.length === 0) break;
    await deliverClaimed(store, claimed, now, report);
  }
  return report;
}
