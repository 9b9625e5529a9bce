/**
 * Delivers what the outbox holds. Right after a form's answer the function delivers its own new
 * entries (deliverNow, through context.waitUntil); the scheduled sweep (functions/outbox-sweep.ts,
 * every minute) delivers whatever is due: retries after a failure, and anything a crashed or
 * timed-out function left. Both claim entries first, so an entry is never sent by two at once.
 */
import { sendMail } from './mail/transport';
import { DeliveryFailure } from './mail/transport';
import type { ClaimedEntry, DeliveryOutcome, OutboxEntry, StoreVerbs } from './store/types';
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

async function deliverClaimed(store: StoreVerbs, claimed: ClaimedEntry[], now: () => Date, report: DeliveryReport) {
  await Promise.all(
    claimed.map(async (item) => {
      const outcome = await attempt(item.entry);
      await store.completeOutbox(item, outcome, now());
      if (outcome.kind === 'delivered') report.delivered += 1;
      else if (outcome.permanent) report.dead += 1;
      else report.failed += 1;
      if (outcome.kind === 'failed')
        console.warn(`[outbox] ${item.entry.kind} ${item.entry.id} failed: ${outcome.error}`);
    }),
  );
}

/** Delivers these entries now, if they are still due (a sweep may have them already). */
export async function deliverNow(store: StoreVerbs, ids: string[], now: () => Date = () => new Date()) {
  const report: DeliveryReport = { delivered: 0, failed: 0, dead: 0 };
  if (ids.length === 0) return report;
  await deliverClaimed(store, await store.claimOutbox(now(), ids.length, ids), now, report);
  return report;
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
