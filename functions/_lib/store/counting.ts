// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/** Tables of counts keyed by what people send, and the UTC day of a moment. */
import type { Write } from './backend-contract';
import { LEGACY_CAMPAIGN_COUNTERS } from './keys';

/**
 * An empty table of counts keyed by user input. Without a prototype, keys such as `constructor`,
 * `toString` or `__proto__` are plain data: `counts[key] ?? 0` never finds an inherited function.
 */
export function countTable<T = number>(): Record<string, T> {
  return Object.create(null);
}

/** The UTC calendar day of a moment, YYYY-MM-DD. */
export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * Deletes the per-campaign counters of earlier versions (keys.ts): nothing reads them any more,
 * and they may hold a campaign name the person being erased chose, so every erasure takes them.
 */
export function forgetLegacyCounters(): Write[] {
  return LEGACY_CAMPAIGN_COUNTERS.map((key): Write => ({ op: 'del', key }));
}
