/** The Visits section's arithmetic: its ranges of days and how it writes changes and rates. Pure, for the unit tests. */
import { formatDay, formatNumber } from '../../../lib/format';
import type { VisitOutcomes, VisitsReport } from '../../../shared/api-responses';
import { conversionOf, MORE_LEADS_WHY } from '../../../shared/visits-conversion';

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

/** What a rate is made of: the leads measured against visits, and the visitors. */
type Measured = Pick<VisitOutcomes, 'measuredLeads' | 'visitors'>;

/**
 * Leads per visitor as a whole percent (`33%`), of the leads that came while visits were counted;
 * `—` when there is no rate: no visitors, or more leads than visitors (noRateNote says why).
 */
export function conversionRate(row: Measured): string {
  const { rate } = conversionOf(row);
  return rate === undefined ? '—' : percent(rate);
}

/** `A`, `A and B`, `A, B, C and 2 more`. */
function listed(names: string[]): string {
  const named = names.slice(0, 3);
  const more = names.length - named.length;
  if (more > 0) return `${named.join(', ')} and ${formatNumber(more)} more`;
  return named.length === 1 ? (named[0] ?? '') : `${named.slice(0, -1).join(', ')} and ${named.at(-1) ?? ''}`;
}

/**
 * Why the rows (named by `name`) that brought more leads than visitors have no rate, or undefined
 * when none did.
 */
export function noRateNote<T extends Measured>(rows: readonly T[], name: (row: T) => string): string | undefined {
  const over = rows.filter((row) => conversionOf(row).none === 'more-leads-than-visitors');
  if (over.length === 0) return undefined;
  return `No rate for ${listed(over.map(name))}: more leads came than visitors were counted. ${MORE_LEADS_WHY}`;
}

/**
 * Why some of a range's leads are in no rate (those of days before the first with a counted
 * visit), or undefined when every lead is.
 */
export function unmeasuredLeadsNote({ countedFrom, totals }: Pick<VisitsReport, 'countedFrom' | 'totals'>) {
  const left = totals.leads - totals.measuredLeads;
  if (left <= 0) return undefined;
  const leads = left === 1 ? '1 lead' : `${formatNumber(left)} leads`;
  const are = left === 1 ? 'is' : 'are';
  return countedFrom
    ? `No visit was counted in this range before ${formatDay(countedFrom)}: the ${leads} from before then ${are} counted, but left out of the conversion rates.`
    : `No visit was counted in this range: its ${leads} ${are} counted, with no conversion rate.`;
}

/** A part of a whole as a whole percent (`75%`), or `—` when the whole is 0. */
export function share(part: number, whole: number): string {
  return whole === 0 ? '—' : percent(part / whole);
}
