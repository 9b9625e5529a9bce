// functions/_lib/admin is what only the admin endpoints use: login and session, the dashboard's figures, the CSV export.
/** The admin dashboard's figures, computed from the store's indexes. */
import type { ListPage, Overview } from '../../../src/shared/api-responses';
import type { Attribution } from '../../../src/shared/records';
import { deliverySetup } from '../delivery/settings';
import { countTable } from '../store/counting';
import type { StoreVerbs } from '../store/store';
import { dailyFigures, type DailyCounts } from './daily-figures';

export const CHART_DAYS = 90;
export const PAGE_SIZE = 20;

/** How many characters of each first-touch value the admin lists show; the CSV export has them whole. */
export const LISTED_VALUE_LENGTH = 32;
/** What the lists show of a first touch: where it came from at a glance (term and content are in the CSV). */
const LISTED_TOUCH = ['utm_campaign', 'utm_source', 'utm_medium', 'referrer', 'landingPage'] as const;

/**
 * A lead or subscriber as the admin lists show it: its first touch reduced to the campaign,
 * source, medium, referring host and landing page, each cut to LISTED_VALUE_LENGTH characters
 * with an ellipsis. Values come from whoever signs up: cut this way, a made-up sign-up weighs no
 * more in the dashboard than a real one, however much it sent.
 */
export function listed<T extends { attribution?: Attribution }>(record: T): T {
  const { attribution } = record;
  if (!attribution) return record;
  const shown: Attribution = {};
  for (const key of LISTED_TOUCH) {
    const value = attribution[key];
    if (value) shown[key] = value.length > LISTED_VALUE_LENGTH ? `${value.slice(0, LISTED_VALUE_LENGTH - 1)}…` : value;
  }
  return { ...record, attribution: shown };
}

/** A day's total over its sources; only the row's own values count, whatever the sources are called. */
const totalOf = (row: Record<string, number> | undefined) =>
  Object.values(row ?? {}).reduce((sum, count) => sum + count, 0);

function sumDays(counts: DailyCounts, days: string[]): number {
  return days.reduce((sum, day) => sum + totalOf(counts[day]), 0);
}

/** Totals per source; sources are what people sent, so the table has no prototype to collide with. */
function bySource(counts: DailyCounts): Record<string, number> {
  const sources = countTable();
  for (const row of Object.values(counts))
    for (const [source, count] of Object.entries(row)) sources[source] = (sources[source] ?? 0) + count;
  return sources;
}

/**
 * Everything the dashboard's first view shows. Subscriber totals count confirmed subscribers. Its
 * days are days in `timeZone` (SITE_TIME_ZONE), as the Visits section's, counted from the records
 * (daily-figures.ts says why). Campaigns are the Visits section's (GET /api/admin/visits).
 */
export async function overview(store: StoreVerbs, now: Date, timeZone: string): Promise<Overview> {
  const [data, figures] = await Promise.all([
    store.dashboard({ offset: 0, limit: PAGE_SIZE }),
    dailyFigures(store, now, CHART_DAYS, timeZone),
  ]);
  const { subscriberTotal, leadTotal, subscribers, leads } = data;
  const { days, signUps: subscriberDaily, confirmations: confirmationDaily, leads: leadDaily } = figures;
  const last = (count: number) => days.slice(-count);
  return {
    totals: {
      subscribers: {
        total: data.subscriberStatus.confirmed,
        last7: sumDays(confirmationDaily, last(7)),
        last30: sumDays(confirmationDaily, last(30)),
      },
      leads: { total: leadTotal, last7: sumDays(leadDaily, last(7)), last30: sumDays(leadDaily, last(30)) },
    },
    subscriberStatus: data.subscriberStatus,
    delivery: deliverySetup(),
    outbox: data.outbox,
    daily: days.map((day) => ({ day, subscribers: totalOf(subscriberDaily[day]), leads: totalOf(leadDaily[day]) })),
    sources: { subscribers: bySource(subscriberDaily), leads: bySource(leadDaily) },
    subscribers: { items: subscribers.map(listed), total: subscriberTotal, page: 1, pageSize: PAGE_SIZE },
    // The first page of the New leads, as GET /api/admin/leads?status=new answers it.
    leads: { items: leads.map(listed), total: data.leadStatuses.new, page: 1, pageSize: PAGE_SIZE },
    leadStatuses: data.leadStatuses,
    spam: { held: data.spamHeld },
    today: figures.today,
    timeZone,
  };
}

/** Page `page` (from 1) of a newest-first list, with the total, as the dashboard's tables read it. */
export async function listPage<T>(
  page: number,
  list: (page: { offset: number; limit: number }) => Promise<T[]>,
  count: () => Promise<number>,
): Promise<ListPage<T>> {
  const [items, total] = await Promise.all([list({ offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE }), count()]);
  return { items, total, page, pageSize: PAGE_SIZE };
}

/** Every record of a list, for CSV export. */
export const ALL = { offset: 0, limit: 1_000_000 };
