/** The Visits section's arithmetic: its ranges of days and how it writes changes and rates. Pure, for the unit tests. */
import { formatNumber } from '../../../lib/format';

/** The ranges the section offers, each ending today; 12 months is the last 365 days. */
export const RANGES = [
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
  { days: 365, label: '12 months' },
] as const;

export type RangeDays = (typeof RANGES)[number]['days'];

/** Days as the report's endpoint takes them, `YYYY-MM-DD`, both ends included. */
export interface DayRange {
  from: string;
  to: string;
}

const DAY_MS = 86_400_000;
const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/**
 * The `days` days ending on `today` (YYYY-MM-DD), and as many just before them, to compare with.
 * The report's days are the site's time zone's, which the browser does not know: the dashboard's
 * overview says which day today is there.
 */
export function rangesEndingOn(today: string, days: number): { current: DayRange; previous: DayRange } {
  const end = Date.parse(`${today}T00:00:00.000Z`);
  return {
    current: { from: isoDay(end - (days - 1) * DAY_MS), to: isoDay(end) },
    previous: { from: isoDay(end - (2 * days - 1) * DAY_MS), to: isoDay(end - days * DAY_MS) },
  };
}

/** The address of the report of a range. */
export const visitsUrl = ({ from, to }: DayRange) => `/api/admin/visits?from=${from}&to=${to}`;

const percent = (ratio: number) => `${formatNumber(Math.round(ratio * 100))}%`;

/**
 * A figure against the same figure in the period before, as a whole percent: `+25%`, `−10%` (with
 * a minus sign, which screen readers say), `0%`, or `new` when the period before had none.
 */
export function percentChange(current: number, previous: number): string {
  if (previous === 0) return current === 0 ? '0%' : 'new';
  const change = Math.round(((current - previous) / previous) * 100);
  if (change === 0) return '0%';
  return change > 0 ? `+${formatNumber(change)}%` : `\u2212${formatNumber(-change)}%`;
}

/** Leads per visitor as a whole percent (`33%`), or `—` when there were no visitors. */
export function conversionRate(leads: number, visitors: number): string {
  return visitors === 0 ? '—' : percent(leads / visitors);
}

/** A part of a whole as a whole percent (`75%`), or `—` when the whole is 0. */
export function share(part: number, whole: number): string {
  return whole === 0 ? '—' : percent(part / whole);
}
