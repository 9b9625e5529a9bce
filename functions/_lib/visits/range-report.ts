// functions/_lib/visits counts views without knowing who made them.
/**
 * The Visits figures over a range of days: the days' views and visitors added up, and the leads
 * (and of them those won) and subscribers of those days counted by their first touch. The two are
 * counted apart and only divided: a visit is never joined to a person. A lead is set against
 * visits only from the first day of the range with a counted visit (`countedFrom`): before it,
 * visits were not counted, and leads divided by the visitors of other days gave rates over 100 %.
 */
import type { VisitPageRow, VisitsReport } from '../../../src/shared/api-responses';
import type { Attribution, Lead } from '../../../src/shared/records';
import { addDays, dayIn, daysFrom } from './calendar-days';
import { countedValue } from './counted-values';
import { countedPath, sourceOf } from './counting-rules';
import { knownSource } from './source-names';
import { countTable } from '../store/counting';
import type { StoreVerbs } from '../store/store';
import { OTHER_VALUE, type DayFigures } from '../store/visits';

/** The most leads and the most subscribers a report counts (its records are read one by one). */
export const MAX_RECORDS = 20_000;

/** A record's first touch as the visits figures name it: its landing page, source and campaign. */
export function touchOf(
  attribution: Attribution | undefined,
  siteHost: string,
  pages: ReadonlySet<string>,
): { page: string; source: string; campaign?: string | undefined } {
  const landing = attribution?.landingPage?.split(/[?#]/)[0] ?? '';
  return {
    page: countedPath(landing, pages),
    source: sourceOf(
      { path: landing || '/', referrer: attribution?.referrer, utm_source: attribution?.utm_source },
      siteHost,
    ),
    // The campaign as a view counts it (countedView), so that the lead and its visits share a row.
    campaign: attribution?.utm_campaign && countedValue(attribution.utm_campaign),
  };
}

interface Conversions {
  leads: number;
  /** Of `leads`, those on or after the range's first day with a counted visit. */
  measuredLeads: number;
  /** Of `leads`, those the owner has marked won (so far: a status set later counts then). */
  won: number;
  subscribers: number;
}
type ConversionTable = Record<string, Conversions>;
const NO_CONVERSIONS: Conversions = { leads: 0, measuredLeads: 0, won: 0, subscribers: 0 };

/**
 * A stored day's source or campaign under the names counted now: days counted before a spelling
 * joined the list (source-names.ts), or before values were held to names, are read as one row.
 */
const RENAMED: Partial<Record<'pages' | 'sources' | 'campaigns' | 'devices', (key: string) => string>> = {
  sources: (source) => countedValue(knownSource(source) ?? source),
  campaigns: countedValue,
};

/** Whether a lead counts as won: its status now, whenever the owner set it. */
const isWon = (lead: Pick<Lead, 'status'>) => lead.status === 'won';

function addTo(table: ConversionTable, key: string | undefined, kinds: (keyof Conversions)[]): void {
  if (key === undefined) return;
  const row = (table[key] ??= { ...NO_CONVERSIONS });
  for (const kind of kinds) row[kind] += 1;
}

/** Adds one table of counts into another (both null-prototype: their keys came from people), under `rename`d keys. */
function sumInto<T>(
  sum: Record<string, T>,
  add: Record<string, T>,
  merge: (a: T, b: T) => T,
  rename = (key: string) => key,
): void {
  for (const [stored, value] of Object.entries(add)) {
    const key = rename(stored);
    const known = sum[key];
    sum[key] = known === undefined ? value : merge(known, value);
  }
}

const byVisitors = <T extends { visitors: number }>(rows: T[]) => rows.sort((a, b) => b.visitors - a.visitors);

export interface ReportContext {
  store: StoreVerbs;
  timeZone: string;
  /** Today in the site's time zone. */
  today: string;
  siteHost: string;
  pages: ReadonlySet<string>;
}

export async function visitsReport(from: string, to: string, context: ReportContext): Promise<VisitsReport> {
  const { store, timeZone, today, siteHost, pages } = context;
  const dates = daysFrom(from, to);
  // A day in any time zone lies within a day either side of the same UTC date.
  const start = Date.parse(`${addDays(from, -1)}T00:00:00.000Z`);
  const end = Date.parse(`${addDays(to, 2)}T00:00:00.000Z`) - 1;
  const [figures, records] = await Promise.all([
    store.visitDays(dates, addDays(today, -1)),
    store.createdBetween(start, end, MAX_RECORDS),
  ]);

  const countedFrom = dates.find((_, index) => (figures[index]?.visitors ?? 0) > 0);
  const conversions = {
    pages: countTable<Conversions>(),
    sources: countTable<Conversions>(),
    campaigns: countTable<Conversions>(),
  };
  const dayOf = (createdAt: string) => dayIn(new Date(createdAt), timeZone);
  const inRange = (day: string) => day >= from && day <= to;
  const measured = (day: string) => countedFrom !== undefined && day >= countedFrom;
  const count = (attribution: Attribution | undefined, kinds: (keyof Conversions)[]) => {
    const touch = touchOf(attribution, siteHost, pages);
    addTo(conversions.pages, touch.page, kinds);
    addTo(conversions.sources, touch.source, kinds);
    addTo(conversions.campaigns, touch.campaign, kinds);
  };
  const leads = records.leads.map((lead) => ({ lead, day: dayOf(lead.createdAt) })).filter(({ day }) => inRange(day));
  const subscribers = records.subscribers.filter(
    (subscriber) => inRange(dayOf(subscriber.createdAt)) && subscriber.consent.confirmedAt,
  );
  for (const { lead, day } of leads)
    count(lead.attribution, [
      'leads',
      ...(isWon(lead) ? (['won'] as const) : []),
      ...(measured(day) ? (['measuredLeads'] as const) : []),
    ]);
  for (const subscriber of subscribers) count(subscriber.attribution, ['subscribers']);

  const sum = {
    pages: countTable<{ views: number; visitors: number }>(),
    sources: countTable<{ views: number; visitors: number }>(),
    campaigns: countTable<{ views: number; visitors: number }>(),
    devices: countTable<{ views: number; visitors: number }>(),
  };
  const entries = countTable();
  const tally = (a: { views: number; visitors: number }, b: { views: number; visitors: number }) => ({
    views: a.views + b.views,
    visitors: a.visitors + b.visitors,
  });
  const days = dates.map((date, index) => {
    const day: DayFigures | undefined = figures[index];
    const pageviews = Object.values(day?.pages ?? {}).reduce((total, page) => total + page.views, 0);
    if (day) {
      for (const table of ['pages', 'sources', 'campaigns', 'devices'] as const)
        sumInto(sum[table], day[table], tally, RENAMED[table]);
      sumInto(entries, day.entries, (a, b) => a + b);
    }
    return { date, visitors: day?.visitors ?? 0, pageviews };
  });

  const conversionOf = (table: ConversionTable, key: string) => table[key] ?? NO_CONVERSIONS;
  const pageRows: VisitPageRow[] = [...new Set([...Object.keys(sum.pages), ...Object.keys(conversions.pages)])].map(
    (path) => ({
      path,
      visitors: sum.pages[path]?.visitors ?? 0,
      pageviews: sum.pages[path]?.views ?? 0,
      entries: entries[path] ?? 0,
      ...conversionOf(conversions.pages, path),
    }),
  );
  const rows = (visits: Record<string, { visitors: number }>, converted: ConversionTable) =>
    [...new Set([...Object.keys(visits), ...Object.keys(converted)])].map((key) => ({
      key,
      visitors: visits[key]?.visitors ?? 0,
      ...conversionOf(converted, key),
    }));

  const totals = {
    visitors: days.reduce((total, day) => total + day.visitors, 0),
    pageviews: days.reduce((total, day) => total + day.pageviews, 0),
    leads: leads.length,
    measuredLeads: leads.filter(({ day }) => measured(day)).length,
    won: leads.filter(({ lead }) => isWon(lead)).length,
    subscribers: subscribers.length,
  };
  return {
    from,
    to,
    ...(countedFrom === undefined ? {} : { countedFrom }),
    totals,
    days,
    pages: byVisitors(pageRows),
    sources: byVisitors(rows(sum.sources, conversions.sources).map(({ key, ...row }) => ({ source: key, ...row }))),
    campaigns: byVisitors(
      rows(sum.campaigns, conversions.campaigns).map(({ key, ...row }) => ({ campaign: key, ...row })),
    ),
    devices: byVisitors(
      Object.entries(sum.devices)
        .filter(([device]) => device !== OTHER_VALUE)
        .map(([device, { visitors }]) => ({ device, visitors })),
    ),
  };
}
