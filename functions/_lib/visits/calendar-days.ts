// functions/_lib/visits counts views without knowing who made them.
/** Calendar days in the site's time zone (SITE_TIME_ZONE), as YYYY-MM-DD. */

const formats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day of a moment in a time zone. */
export function dayIn(moment: Date, timeZone: string): string {
  let format = formats.get(timeZone);
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formats.set(timeZone, format);
  }
  return format.format(moment);
}

/** The day `count` days after (or before, when negative) a YYYY-MM-DD day. */
export function addDays(day: string, count: number): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + count);
  return date.toISOString().slice(0, 10);
}

/**
 * The longest range of days anything walks: a year, a leap year's 366 days included, which holds
 * the Visits section's longest range (12 months, the last 365 days).
 */
export const LONGEST_RANGE_DAYS = 366;

/** How many days from `from` to `to`, both included. */
export function dayCount(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
}

/**
 * Every day from `from` to `to`, both included, oldest first; none when `from` is after `to`.
 * Walked by count, not by comparing days as text: past 9999-12-31 the next day is written
 * `+010000-01-01`, which sorts before any `to` and would never end the walk. A range longer than
 * LONGEST_RANGE_DAYS (or of days that are not dates) is refused before a day is made.
 */
export function daysFrom(from: string, to: string): string[] {
  const count = dayCount(from, to);
  if (!Number.isInteger(count) || count > LONGEST_RANGE_DAYS)
    throw new RangeError(`daysFrom walks at most ${LONGEST_RANGE_DAYS} days, not ${from} to ${to}`);
  return Array.from({ length: Math.max(count, 0) }, (_, index) => addDays(from, index));
}
