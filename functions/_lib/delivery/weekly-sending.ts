// functions/_lib/delivery gets what the outbox holds to people: the e-mails, their SMTP transport or local folder, the signed webhooks and links, and the sweep.
/**
 * When the owner's weekly letter goes: from Monday 07:00 in the site's time zone, once for the
 * week just ended (Monday to Sunday), through the outbox. A sweep that missed Monday morning
 * sends it later that week; WEEKLY_REPORT=off sends none.
 */
import { mailingId } from './emails/newsletter-email';
import { weeklyReport, type SendingLine } from './emails/weekly-report';
import { publishedMailings } from './newsletter-sending';
import { configuredOrigin, notifyTo } from './settings';
import { countedPages } from '../visits/read-counted-pages';
import { addDays, dayIn } from '../visits/calendar-days';
import { visitsReport } from '../visits/range-report';
import { getEnv } from '../platform/env';
import type { StoreVerbs } from '../store/store';

/** The hour of Monday, in the site's time zone, from which the letter is due. */
export const SEND_HOUR = 7;
/** Sendings asked for this long before the letter are in it. */
const SENDINGS_WINDOW_MS = 28 * 24 * 3600_000;

/** The weekday (1 Monday … 7 Sunday) and hour of a moment in a time zone. */
function localClock(moment: Date, timeZone: string): { weekday: number; hour: number } {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', hour: 'numeric', hourCycle: 'h23' })
    .formatToParts(moment)
    .reduce<Record<string, string>>((all, part) => ({ ...all, [part.type]: part.value }), {});
  const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday ?? '') + 1;
  return { weekday, hour: Number(parts.hour) };
}

/** The week (Monday to Sunday) whose letter is due at `now`, or undefined before Monday's hour. */
export function weekDue(now: Date, timeZone: string): { from: string; to: string } | undefined {
  const { weekday, hour } = localClock(now, timeZone);
  if (weekday === 1 && hour < SEND_HOUR) return undefined;
  const monday = addDays(dayIn(now, timeZone), 1 - weekday);
  return { from: addDays(monday, -7), to: addDays(monday, -1) };
}

/** The newsletter's sendings asked for in the last four weeks, with their progress. */
async function recentSendings(store: StoreVerbs, now: Date): Promise<SendingLine[]> {
  const ids = (await publishedMailings()).map(mailingId);
  const known = await store.mailings(ids);
  return [...known.values()].flatMap(({ record, progress }) =>
    record?.status === 'sending' &&
    record.requestedAt &&
    now.getTime() - Date.parse(record.requestedAt) <= SENDINGS_WINDOW_MS
      ? [{ subject: record.subject, requestedAt: record.requestedAt, progress }]
      : [],
  );
}

/** The last week each store was seen to have its letter: the sweep asks once, not every minute of the week. */
const queuedWeek = new WeakMap<StoreVerbs, string>();

/** Queues the letter when it is due and not yet queued for its week; answers the week it queued. */
export async function queueWeeklyReport(store: StoreVerbs, now: Date): Promise<string | undefined> {
  const env = getEnv();
  if (env.WEEKLY_REPORT === 'off') return undefined;
  const week = weekDue(now, env.SITE_TIME_ZONE);
  if (!week || week.from === queuedWeek.get(store)) return undefined;
  if (await store.throttleUsed(`weekly-report:${week.from}`)) {
    queuedWeek.set(store, week.from);
    return undefined;
  }
  const origin = configuredOrigin();
  const context = {
    store,
    timeZone: env.SITE_TIME_ZONE,
    today: dayIn(now, env.SITE_TIME_ZONE),
    siteHost: new URL(origin).hostname,
    pages: await countedPages(),
  };
  const [figures, before, sendings] = await Promise.all([
    visitsReport(week.from, week.to, context),
    visitsReport(addDays(week.from, -7), addDays(week.to, -7), context),
    recentSendings(store, now),
  ]);
  const queued = await store.queueEntries(
    [weeklyReport(figures, before, sendings, { origin, notifyTo: notifyTo() })],
    now,
  );
  queuedWeek.set(store, week.from);
  return queued.length > 0 ? week.from : undefined;
}
