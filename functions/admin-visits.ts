import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { addDays, dayCount, dayIn } from './_lib/visits/calendar-days';
import { parseQuery, queryOf } from './_lib/admin/query';
import { ADMIN_HEADERS, requireAdmin } from './_lib/admin/session';
import { visitsReport } from './_lib/visits/range-report';
import { countedPages } from './_lib/visits/read-counted-pages';
import { getEnv } from './_lib/platform/env';
import { endpoint, errorResponse, HttpError, json, requireMethod } from './_lib/platform/http';
import { getStore } from './_lib/store/get-store';

/** The longest range one request may ask for. */
export const MAX_DAYS = 400;
/** The range when none is given: the last 30 days, today included. */
const DEFAULT_DAYS = 30;

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
 * them, for the owner's own spreadsheet too.
 */
export default endpoint({ name: 'admin-visits', headers: ADMIN_HEADERS }, async (req) => {
  requireMethod(req, ['GET']);
  await requireAdmin(req);
  const env = getEnv();
  const today = dayIn(new Date(), env.SITE_TIME_ZONE);
  const query = parseQuery(VisitsQuery, req);
  const to = query.to ?? (query.from && query.from > today ? query.from : today);
  const from = query.from ?? addDays(to, 1 - DEFAULT_DAYS);
  const refuse = (message: string) => new HttpError(errorResponse(400, message, { headers: ADMIN_HEADERS }));
  if (from > to) throw refuse(`from (${from}) is after to (${to}): give the earlier day first`);
  if (dayCount(from, to) > MAX_DAYS)
    throw refuse(`The range holds ${dayCount(from, to)} days; ask for at most ${MAX_DAYS} at a time`);
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
