import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { addDays, dayCount, dayIn, LONGEST_RANGE_DAYS } from './_lib/visits/calendar-days';
import { parseQuery, queryOf } from './_lib/admin/query';
import { ADMIN_HEADERS, requireAdmin } from './_lib/admin/session';
import { visitsReport } from './_lib/visits/range-report';
import { countedPages } from './_lib/visits/read-counted-pages';
import { getEnv } from './_lib/platform/env';
import { endpoint, errorResponse, HttpError, json, requireMethod } from './_lib/platform/http';
import { getStore } from './_lib/store/get-store';
import { VISITS_TTL_SECONDS } from './_lib/store/visits';

/** The range when none is given: the last 30 days, today included. */
const DEFAULT_DAYS = 30;
/** How many days before today the store may still hold a day's figures: they are deleted after 25 months. */
const KEPT_DAYS = Math.floor(VISITS_TTL_SECONDS / 86_400);

/** A calendar day, YYYY-MM-DD, that exists. */
const Day = (name: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date written YYYY-MM-DD`)
    .refine((day) => {
      const date = new Date(`${day}T00:00:00.000Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
    }, `${name} must be a date that exists`)
    .optional();

const VisitsQuery = queryOf({ from: Day('from'), to: Day('to') });

/**
 * GET /api/admin/visits?from=YYYY-MM-DD&to=YYYY-MM-DD: the visits figures of those days (in
 * SITE_TIME_ZONE, both included; the last 30 days without them) as the Visits section shows
 * them, for the owner's own spreadsheet too. A range is at most LONGEST_RANGE_DAYS long and starts
 * on a day the store can hold, from 25 months ago to today: anything else is refused before a day
 * is read, so no request can walk the calendar to year 10,000.
 */
export default endpoint({ name: 'admin-visits', headers: ADMIN_HEADERS }, async (req) => {
  requireMethod(req, ['GET']);
  await requireAdmin(req);
  const env = getEnv();
  const today = dayIn(new Date(), env.SITE_TIME_ZONE);
  const query = parseQuery(VisitsQuery, req);
  const to = query.to ?? today;
  const from = query.from ?? addDays(to, 1 - DEFAULT_DAYS);
  const earliest = addDays(today, -KEPT_DAYS);
  const refuse = (message: string) => new HttpError(errorResponse(400, message, { headers: ADMIN_HEADERS }));
  if (from > today)
    throw refuse(`from (${from}) is after today (${today}): no visit is counted on a day still to come`);
  if (from < earliest)
    throw refuse(`from (${from}) is before ${earliest}: visits figures are kept 25 months, so no earlier day has any`);
  if (from > to) throw refuse(`from (${from}) is after to (${to}): give the earlier day first`);
  if (dayCount(from, to) > LONGEST_RANGE_DAYS)
    throw refuse(
      `The range holds ${dayCount(from, to)} days; ask for at most ${LONGEST_RANGE_DAYS} (a year) at a time`,
    );
  return json(
    200,
    await visitsReport(from, to, {
      store: await getStore(),
      timeZone: env.SITE_TIME_ZONE,
      today,
      siteHost: new URL(req.url).hostname,
      pages: await countedPages(),
    }),
  );
});

export const config: Config = { path: '/api/admin/visits' };
