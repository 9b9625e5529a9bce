// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/**
 * Cookieless visits figures: a view counted in one commit (one round trip on Upstash),
 * the day's salt for the visitor hashes, and a day's figures read back. Nothing here knows a
 * person: a visitor is a hash that changes with the day's salt, and the figures are counts.
 */
import { randomBytes } from 'node:crypto';
import { distinctKey, errorsKey, parse, transact, type Backend, type Write } from './backend-contract';
import { countTable } from './counting';
import { KEYS, type VisitTable } from './keys';

/** A visit ends after 30 minutes without a view. */
export const VISIT_MS = 30 * 60_000;
/** Daily figures are kept 25 months, the most the CNIL's exemption allows. */
export const VISITS_TTL_SECONDS = 25 * 31 * 24 * 3600;
/** A day's salt is deleted 48 hours after it was made. */
export const SALT_TTL_MS = 48 * 3600_000;
/** A day, in ms. */
const DAY_MS = 86_400_000;
/**
 * How long a visitor hash itself is kept in a distinct set (the embedded store keeps them; a
 * HyperLogLog on Upstash never does), counted without being kept after. A hash joins its day's
 * sets after the day's salt was made, so it goes after the salt has gone and the day is over:
 * no view can bring it again, and nothing is left to tell a day's visitors apart.
 */
export const VISITOR_KEPT_MS = SALT_TTL_MS;
/** The row of every path that is not a page of the build. */
export const OTHER_PAGE = 'other';
/** The row of the sources and campaigns a day counts besides its most frequent ones. */
export const OTHER_VALUE = '(other)';

/**
 * How many rows a day's table keeps besides its "other" row: its most frequent values (the
 * 'bounded' write keeps them with Space-Saving). Pages are already only the build's; sources and
 * campaigns come from what people send, so a flood of made-up values, each seen once or twice,
 * lands in one row and cannot push out a source that real visitors come from.
 */
export const VISIT_CAPS: Record<VisitTable, number> = {
  pages: 1000,
  entries: 1000,
  sources: 100,
  campaigns: 100,
  devices: 3,
};

export type Device = 'phone' | 'tablet' | 'desktop';

/** One view, as the endpoint has made it anonymous and bounded. */
export interface View {
  /** YYYY-MM-DD in the site's time zone. */
  day: string;
  /** The keyed hash of the visitor under the day's salt. */
  visitor: string;
  /**
   * The visitor's hash under the day before's salt, given only in a day's first VISIT_MS: a visit
   * open under it goes on across midnight instead of beginning again (as Direct).
   */
  continues?: string | undefined;
  /** A page of the build, or OTHER_PAGE. */
  path: string;
  /** `utm_source`, else the referring host, else `Direct`: counted when the view opens a visit. */
  source: string;
  campaign?: string | undefined;
  device: Device;
}

/** A field's views (or visits) and visitors. */
export interface Tallied {
  views: number;
  visitors: number;
}

/** What one day counted. */
export interface DayFigures {
  visitors: number;
  /** Views and visitors by page. */
  pages: Record<string, Tallied>;
  /** Visits that began on each page. */
  entries: Record<string, number>;
  /** Visits and visitors by source, campaign and device. */
  sources: Record<string, Tallied>;
  campaigns: Record<string, Tallied>;
  devices: Record<string, Tallied>;
}

const OTHER_OF: Record<VisitTable, string> = {
  pages: OTHER_PAGE,
  entries: OTHER_PAGE,
  sources: OTHER_VALUE,
  campaigns: OTHER_VALUE,
  devices: OTHER_VALUE,
};

/** The per-minute limits of one client (a keyed hash of its address, never the address). */
export interface ViewLimit {
  client: string;
  /** Views counted per minute (VISITS_PER_MINUTE). */
  perMinute: number;
  /** Visits begun per minute (VISITORS_PER_MINUTE): each new visitor begins one. */
  visitorsPerMinute?: number;
}

/**
 * The writes of a view. The page and the day's visitors count every view; the entry, source,
 * campaign and device count only the view that opens a visit (no view of that visitor in the
 * last 30 minutes, under today's hash or, just after midnight, yesterday's), decided inside the
 * commit, so that concurrent views cannot both open one. With `visitorsPerMinute`, a client
 * begins at most that many visits a minute: a new user agent is a new visitor, so one address
 * cycling through user agents would otherwise count as a crowd. Past it the view is not counted
 * at all and its mark is taken back, so that visitor's next view tries again to begin a visit.
 */
export function viewWrites(view: View, limit?: ViewLimit): Write[] {
  const bounded = (table: VisitTable, field: string, member?: string): Write => ({
    op: 'bounded',
    key: KEYS.visitTable(view.day, table),
    field,
    cap: VISIT_CAPS[table],
    other: OTHER_OF[table],
    ttlSeconds: VISITS_TTL_SECONDS,
    ...(member === undefined ? {} : { member, forgetMs: VISITOR_KEPT_MS }),
  });
  const everyView: Write[] = [
    {
      op: 'distinct',
      key: KEYS.visitors(view.day),
      member: view.visitor,
      ttlSeconds: VISITS_TTL_SECONDS,
      forgetMs: VISITOR_KEPT_MS,
    },
    bounded('pages', view.path, view.visitor),
  ];
  const opening: Write[] = [
    ...everyView,
    bounded('entries', view.path),
    bounded('sources', view.source, view.visitor),
    ...(view.campaign ? [bounded('campaigns', view.campaign, view.visitor)] : []),
    bounded('devices', view.device, view.visitor),
  ];
  const mark = KEYS.visitOpen(view.visitor);
  return [
    {
      op: 'mark',
      key: mark,
      ttlMs: VISIT_MS,
      ...(view.continues ? { from: KEYS.visitOpen(view.continues) } : {}),
      then: limit?.visitorsPerMinute
        ? [
            {
              op: 'limited',
              key: KEYS.visitsBegun(limit.client),
              max: limit.visitorsPerMinute,
              windowMs: 60_000,
              then: opening,
              otherwise: [{ op: 'del', key: mark }],
            },
          ]
        : opening,
      otherwise: everyView,
    },
  ];
}

const TABLES: VisitTable[] = ['pages', 'entries', 'sources', 'campaigns', 'devices'];
const emptyDay = (): DayFigures => ({
  visitors: 0,
  pages: countTable(),
  entries: countTable(),
  sources: countTable(),
  campaigns: countTable(),
  devices: countTable(),
});

/** A stored day's figures, with null-prototype tables again (their fields came from people). */
function revived(stored: DayFigures): DayFigures {
  const day = emptyDay();
  day.visitors = stored.visitors;
  for (const table of ['pages', 'sources', 'campaigns', 'devices'] as const) Object.assign(day[table], stored[table]);
  Object.assign(day.entries, stored.entries);
  return day;
}

export function visitVerbs(backend: Backend) {
  /** A day's figures from its live tables and sets, and the keys that hold them. */
  async function liveDay(date: string): Promise<{ figures: DayFigures; keys: string[] }> {
    const tables = await Promise.all(TABLES.map((table) => backend.counters(KEYS.visitTable(date, table))));
    const withSets = (['pages', 'sources', 'campaigns', 'devices'] as const).flatMap((table) => {
      const key = KEYS.visitTable(date, table);
      const counts = tables[TABLES.indexOf(table)] ?? countTable();
      return Object.keys(counts).map((field) => ({
        table,
        field,
        views: counts[field] ?? 0,
        set: distinctKey(key, field),
      }));
    });
    const [visitors = 0, ...counts] = await backend.distinctCounts([
      KEYS.visitors(date),
      ...withSets.map((row) => row.set),
    ]);
    const figures = emptyDay();
    figures.visitors = visitors;
    withSets.forEach((row, index) => {
      figures[row.table][row.field] = { views: row.views, visitors: counts[index] ?? 0 };
    });
    Object.assign(figures.entries, tables[TABLES.indexOf('entries')]);
    const keys = [
      KEYS.visitors(date),
      ...TABLES.flatMap((table) => [KEYS.visitTable(date, table), errorsKey(KEYS.visitTable(date, table))]),
      ...withSets.map((row) => row.set),
    ];
    return { figures, keys };
  }

  return {
    /**
     * Counts a view: one commit without checks (counters and sets never conflict), one round
     * trip on Upstash. With `limit`, only the first `perMinute` views of that client in a minute
     * count, and of them only those of visits already open once it began `visitorsPerMinute`
     * visits (viewWrites()), decided in the same step.
     */
    async recordView(view: View, limit?: ViewLimit): Promise<void> {
      const writes = viewWrites(view, limit);
      await backend.commit(
        [],
        limit
          ? [{ op: 'limited', key: KEYS.visitRate(limit.client), max: limit.perMinute, windowMs: 60_000, then: writes }]
          : writes,
      );
    },

    /** The salt of a day's visitor hashes, if it is still kept (never made for a day without views). */
    async keptVisitSalt(day: string): Promise<string | undefined> {
      const [salt] = await backend.get([KEYS.visitSalt(day)]);
      return salt || undefined;
    },

    /** The salt of a day's visitor hashes: made at the day's first view, deleted 48 hours later. */
    visitSalt(day: string): Promise<string> {
      const key = KEYS.visitSalt(day);
      return transact(backend, {
        keys: [key],
        plan(values) {
          const salt = values.get(key);
          if (salt) return { result: salt };
          const made = randomBytes(32).toString('hex');
          return { writes: [{ op: 'put', key, value: made, ttlMs: SALT_TTL_MS }], result: made };
        },
      });
    },

    /**
     * The figures of each day, in the order given. A day before `finalBefore` can count nothing
     * more (views count on the server's today, and its salt is gone): its figures are stored
     * as one value the first time they are read, and its live tables and sets deleted, so a year
     * of days is one read and the store keeps a few hundred bytes a day. Two readers may find a
     * day not yet stored at once (the weekly letter and an open admin page): it is stored only
     * where none is, and the reader that comes second, which may have read its tables after the
     * first one deleted them, answers what the first stored.
     */
    async visitDays(dates: readonly string[], finalBefore: string): Promise<DayFigures[]> {
      const stored = await backend.get(dates.map((date) => KEYS.visitDay(date)));
      return Promise.all(
        dates.map(async (date, index) => {
          const kept = parse<DayFigures>(stored[index]);
          if (kept) return revived(kept);
          const { figures, keys } = await liveDay(date);
          if (date >= finalBefore) return figures;
          // Kept VISITS_TTL_SECONDS from the day itself, not from the read that stores it: a day
          // first read when it is nearly 25 months old is gone on time all the same.
          const ttlMs = Date.parse(`${date}T00:00:00.000Z`) + VISITS_TTL_SECONDS * 1000 + DAY_MS - Date.now();
          if (ttlMs <= 0) return figures;
          const outcome = await backend.commit(
            [{ key: KEYS.visitDay(date), value: null }],
            [
              { op: 'put', key: KEYS.visitDay(date), value: JSON.stringify(figures), ttlMs },
              ...keys.map((key): Write => ({ op: 'del', key })),
            ],
          );
          const first = outcome.ok ? undefined : parse<DayFigures>(outcome.values[0]);
          return first ? revived(first) : figures;
        }),
      );
    },
  };
}
