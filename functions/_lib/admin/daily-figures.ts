// functions/_lib/admin is what only the admin endpoints use: login and session, the dashboard's figures, the CSV export.
/**
 * The overview's figures per day, days in the site's time zone (SITE_TIME_ZONE) as the Visits
 * figures have them: sign-ups and leads per day and form, and confirmations per day.
 *
 * They are counted from the records, by the time each one holds, not kept as counters per day
 * (as the store once kept them, per UTC day): in any other zone a UTC day is split between two of
 * the site's days (a lead at 23:30 UTC on a winter evening is on the next day in Paris), which no
 * sum of counters can undo. Counted from their times, records fall on the right day in any zone;
 * a change of SITE_TIME_ZONE moves past days too, as it should, and nothing stored has to change.
 * The cost is reading the window's records (the Visits report reads the same, over as many as 365
 * days): at most MAX_RECORDS of each kind, oldest first, so past that many in the window the
 * newest would go uncounted, as in the Visits report.
 */
import type { Subscriber } from '../../../src/shared/records';
import { countTable } from '../store/counting';
import type { StoreVerbs } from '../store/store';
import { addDays, dayIn, daysFrom } from '../visits/calendar-days';
import { MAX_RECORDS } from '../visits/range-report';

/**
 * Counts per day and form: `{ '2026-11-22': { website_footer: 3 } }`. Forms are named by what
 * people send, so both levels are null-prototype tables (countTable()).
 */
export type DailyCounts = Record<string, Record<string, number>>;

/** The `count` days ending on `today` (YYYY-MM-DD), oldest first. */
export function lastDays(today: string, count: number): string[] {
  return daysFrom(addDays(today, 1 - count), today);
}

/** What is counted: a lead, a sign-up or a confirmation, when it happened and through which form. */
export interface Counted {
  /** ISO time. */
  at: string;
  source: string;
}

/** How many happened on each of `days` (in `timeZone`) per form; days without any are left out. */
export function countByDay(counted: Counted[], days: readonly string[], timeZone: string): DailyCounts {
  const first = days[0];
  const last = days.at(-1);
  const counts = countTable<Record<string, number>>();
  if (first === undefined || last === undefined) return counts;
  for (const { at, source } of counted) {
    const day = dayIn(new Date(at), timeZone);
    if (day < first || day > last) continue;
    const row = (counts[day] ??= countTable());
    row[source] = (row[source] ?? 0) + 1;
  }
  return counts;
}

/**
 * Every confirmation a subscriber's record holds: the current consent's and the earlier ones'
 * (the last EARLIER_CONSENTS_KEPT), each under the first form, as the dashboard has always
 * counted them.
 */
export function confirmationsOf(subscriber: Subscriber): Counted[] {
  const source = subscriber.sources[0] ?? '';
  return [subscriber.consent, ...(subscriber.consent.earlier ?? [])].flatMap(({ confirmedAt }) =>
    confirmedAt ? [{ at: confirmedAt, source }] : [],
  );
}

export interface DailyFigures {
  /** Today in the site's time zone, YYYY-MM-DD. */
  today: string;
  /** The days counted, oldest first, ending today. */
  days: string[];
  /** New subscribers, whatever their status now, by the day they first signed up. */
  signUps: DailyCounts;
  /** Confirmations, by the day of each. */
  confirmations: DailyCounts;
  /** Leads (not held as spam), by the day they came in. */
  leads: DailyCounts;
}

/**
 * Sign-ups, confirmations and leads on each of the last `count` days in `timeZone`.
 *
 * Confirmations are found on the records of the subscribers who first signed up within those
 * days: a confirmation link lasts 7 days, so that is every confirmation but one by someone who
 * first subscribed before the window, unsubscribed, and came back (their record keeps its first
 * sign-up's time), who is not counted.
 */
export async function dailyFigures(
  store: Pick<StoreVerbs, 'createdBetween'>,
  now: Date,
  count: number,
  timeZone: string,
): Promise<DailyFigures> {
  const today = dayIn(now, timeZone);
  const days = lastDays(today, count);
  // A day in any time zone lies within a day either side of the same UTC date: the records are
  // read from the start of the UTC day before the first day.
  const from = Date.parse(`${addDays(today, -count)}T00:00:00.000Z`);
  const { leads, subscribers } = await store.createdBetween(from, now.getTime(), MAX_RECORDS);
  return {
    today,
    days,
    signUps: countByDay(
      subscribers.map((subscriber) => ({ at: subscriber.createdAt, source: subscriber.sources[0] ?? '' })),
      days,
      timeZone,
    ),
    confirmations: countByDay(subscribers.flatMap(confirmationsOf), days, timeZone),
    leads: countByDay(
      leads.map((lead) => ({ at: lead.createdAt, source: lead.source })),
      days,
      timeZone,
    ),
  };
}
