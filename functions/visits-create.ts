import type { Config } from '@netlify/functions';
import { dayIn } from './_lib/visits/calendar-days';
import { keyedHash, notCounted, countedView, type NotCounted } from './_lib/visits/counting-rules';
import { adminConfig, cookieSession } from './_lib/admin/session';
import { requireClientKey } from './_lib/forms/client';
import { countedPages } from './_lib/visits/read-counted-pages';
import { getEnv } from './_lib/platform/env';
import { endpoint, errorResponse, HttpError, parseWith, readBoundedText, requireMethod } from './_lib/platform/http';
import { getStore } from './_lib/store/get-store';
import { VISIT_MS } from './_lib/store/visits';
import { VisitsRequest } from '../src/shared/schemas';

const HEADERS = { 'Cache-Control': 'no-store' };

/** The one answer to a well-formed view, counted or not. */
const accepted = () => new Response(null, { status: 202 });

/** A day's salt, kept by the instance for that day: a view costs one round trip, not two. */
function saltOfDay<T>(read: (day: string) => Promise<T>): (day: string) => Promise<T> {
  let salt: { day: string; value: Promise<T> } | undefined;
  return (day) => {
    if (salt?.day !== day) {
      const value = read(day);
      salt = { day, value };
      value.catch(() => {
        if (salt?.value === value) salt = undefined;
      });
    }
    return salt.value;
  };
}
const saltOf = saltOfDay(async (day) => (await getStore()).visitSalt(day));
/** The day before's salt, if it had views: read in a day's first VISIT_MS only, while a visit may go on from it. */
const previousSaltOf = saltOfDay(async (day) => (await getStore()).keptVisitSalt(day));

/** A beacon's body: JSON, sent as text/plain by `navigator.sendBeacon` (no preflight) or as application/json. */
async function readVisitsRequest(req: Request): Promise<VisitsRequest> {
  const type = req.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'text/plain' && type !== 'application/json')
    throw new HttpError(
      errorResponse(415, 'Send the view as JSON (text/plain or application/json)', { headers: HEADERS }),
    );
  const text = await readBoundedText(req);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(errorResponse(400, 'The body is not valid JSON', { headers: HEADERS }));
  }
  return parseWith(VisitsRequest, body);
}

/**
 * Why this view is not counted, or undefined to count it: the rules of counting-rules.ts, then the
 * owner's own reading. The session cookie is HttpOnly, so only the server can tell; a well-signed,
 * unexpired one is enough, without asking the store whether it was revoked since: it was still
 * issued to the owner's browser, and a view costs no extra round trip to find out.
 */
function notCountedHere(req: Request, view: VisitsRequest): NotCounted | undefined {
  return (
    notCounted(req.headers, view.path, new URL(req.url).origin) ??
    (cookieSession(req, adminConfig()) ? 'owner' : undefined)
  );
}

/**
 * POST /api/visits: a view, reported by the page's own script once it has loaded. Every view that
 * passes validation is answered 202, counted or not (a tool, a bot, another site's page, the
 * admin's pages or the owner's own reading, GPC or DNT, a client past VISITS_PER_MINUTE, or a
 * view that would begin more visits than VISITORS_PER_MINUTE), so the answer tells nobody what
 * counts; a malformed one gets its 4xx `{ error }`. Nothing is stored of who sent it.
 */
export default endpoint({ name: 'visits-create', headers: HEADERS }, async (req, context) => {
  requireMethod(req, ['POST']);
  const view = await readVisitsRequest(req);
  const client = requireClientKey(context.ip, HEADERS);
  if (notCountedHere(req, view)) return accepted();
  const env = getEnv();
  const now = new Date();
  const day = dayIn(now, env.SITE_TIME_ZONE);
  // A visit begun before midnight goes on (VISIT_MS): its visitor's hash under yesterday's salt finds it.
  const before = dayIn(new Date(now.getTime() - VISIT_MS), env.SITE_TIME_ZONE);
  const [daySalt, previousSalt, pageSet, store] = await Promise.all([
    saltOf(day),
    before === day ? undefined : previousSaltOf(before),
    countedPages(),
    getStore(),
  ]);
  await store.recordView(
    countedView(view, {
      day,
      salt: daySalt,
      previousSalt,
      client,
      agent: req.headers.get('user-agent') ?? '',
      siteHost: new URL(req.url).hostname,
      pages: pageSet,
    }),
    {
      client: keyedHash(daySalt, 'rate', client),
      perMinute: env.VISITS_PER_MINUTE,
      visitorsPerMinute: env.VISITORS_PER_MINUTE,
    },
  );
  return accepted();
});

// A literal: Netlify reads the path without running the module (VISITS_PATH names the same).
export const config: Config = { path: '/api/visits' };
