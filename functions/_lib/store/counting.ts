// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/** How records are counted: per UTC day and source, and per campaign. */
import type { Attribution } from '../../../src/shared/records';
import type { Write } from './backend-contract';
import { DAILY_TTL_SECONDS, KEYS, type CountKind } from './keys';

/**
 * New records per UTC day and source: `{ '2026-11-22': { website_footer: 3 } }`. Sources come
 * from what people send, so both levels are null-prototype objects (see `countTable`).
 */
export type DailyCounts = Record<string, Record<string, number>>;

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

/** What a campaign without a value shows. */
export const NO_CAMPAIGN = '(none)';

/** The key a record is counted under in the by-campaign breakdown: utm_source, utm_medium and utm_campaign, tab-separated. */
export function campaignKey(attribution: Attribution | undefined): string {
  const { utm_source, utm_medium, utm_campaign } = attribution ?? {};
  // A tab cannot occur in a value (the schema refuses control characters), so the key splits back exactly.
  return [utm_source, utm_medium, utm_campaign].map((value) => value ?? NO_CAMPAIGN).join('\t');
}

/**
 * The counter writes of a record arriving (by 1) or leaving (by -1): its day and source, and its
 * campaign. Counters are commutative, so they need no check and never conflict.
 */
export function counted(
  kind: 'subscribers' | 'leads',
  record: { createdAt: string; source: string; attribution?: Attribution | undefined },
  by: 1 | -1,
): Write[] {
  return [
    countOn(kind, dayOf(new Date(record.createdAt)), record.source, by),
    { op: 'count', key: KEYS.campaigns(kind), field: campaignKey(record.attribution), by },
  ];
}

/** One more (or one fewer) for a day and source. */
export function countOn(kind: CountKind, day: string, source: string, by: 1 | -1 = 1): Write {
  return { op: 'count', key: KEYS.daily(kind, day), field: source, by, ttlSeconds: DAILY_TTL_SECONDS };
}
