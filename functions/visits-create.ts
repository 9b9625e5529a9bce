import type { Config } from '@netlify/functions';
import { dayIn } from './_lib/visits/calendar-days';
import { keyedHash, notCounted, countedView } from './_lib/visits/counting-rules';
import { requireClientKey } from './_lib/forms/client';
import { countedPages } from './_lib/visits/read-counted-pages';
import { getEnv } from './_lib/platform/env';
import { endpoint, errorResponse, HttpError, parseWith, readBoundedText, requireMethod } from './_lib/platform/http';
import { getStore } from './_lib/store/get-store';
import { VisitsRequest } from '../src/shared/schemas';

const HEADERS = { 'Cache-Control': 'no-store' };

/** The day's salt, kept by the instance for the day: a view costs one round trip, not two. */
let salt: { day: string; value: Promise<string> } | undefined;
async function saltOf(day: string): Promise<string> {
  if (salt?.day !== day) {
    const value = getStore().then((store) => store.visitSalt(day));
    salt = { day, value };
    value.catch(() => {
      if (salt?.value === value) salt = undefined;
    });
  }
  return salt.value;
}

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
 * POST /api/visits: a view, reported by the page's own script once it has loaded. Answers
 * 202 when it counted, 204 when it was not to count (a tool, a bot, the admin's pages, GPC or
 * DNT); a client past VISITS_PER_MINUTE is answered 202 and not counted. Nothing
 * is stored of who sent it.
 */
export default endpoint({ name: 'visits-create', headers: HEADERS }, async (req, context) => {
  requireMethod(req, ['POST']);
  const view = await readVisitsRequest(req);
  if (notCounted(req.headers, view.path)) return new Response(null, { status: 204 });
  const client = requireClientKey(context.ip, HEADERS);
  const env = getEnv();
  const day = dayIn(new Date(), env.SITE_TIME_ZONE);
  const [daySalt, pageSet, store] = await Promise.all([saltOf(day), countedPages(), getStore()]);
  await store.recordView(
    countedView(view, {
      day,
      salt: daySalt,
      client,
      agent: req.headers.get('user-agent') ?? '',
      siteHost: new URL(req.url).hostname,
      pages: pageSet,
    }),
    { client: keyedHash(daySalt, 'rate', client), perMinute: env.VISITS_PER_MINUTE },
  );
  return new Response(null, { status: 202 });
});

// A literal: Netlify reads the path without running the module (VISITS_PATH names the same).
export const config: Config = { path: '/api/visits' };
