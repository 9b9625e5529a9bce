/**
 * First-touch attribution: where a visitor first arrived in this browser session (the landing
 * page, the site that linked there, the campaign's UTM parameters). It is kept in sessionStorage,
 * which lasts as long as the tab and sets no cookie, and every form sends it (src/lib/api-client.ts), so a
 * lead or a subscriber says what brought them. The server drops whatever in it is malformed.
 */
import type { Attribution } from '../shared/records';
import { VISIT_KEY } from './visit-key';

export const UTM_PARAMETERS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;

/** Query parameters never reported: the token of an e-mailed link belongs to its subscriber, not to a campaign. */
const PRIVATE_PARAMETERS = ['token'];

/**
 * Bounds on what the session keeps. A longer path would be dropped by the server's schema
 * (src/shared/schemas.ts), which also keeps only the first 100 characters of a UTM value.
 */
const MAX_PATH = 500;
const MAX_VALUE = 200;

/** A page's path and query as the forms report it, without private parameters; the path alone when the whole is too long. */
export function sitePath(url: URL): string {
  let query = url.search;
  if (PRIVATE_PARAMETERS.some((name) => url.searchParams.has(name))) {
    const params = new URLSearchParams(url.search);
    for (const name of PRIVATE_PARAMETERS) params.delete(name);
    query = params.toString() ? `?${params}` : '';
  }
  const path = `${url.pathname}${query}`;
  return path.length <= MAX_PATH ? path : url.pathname.slice(0, MAX_PATH);
}

/** `www.example.com` and `example.com` are one site. */
const siteHost = (hostname: string) => hostname.toLowerCase().replace(/^www\./, '');

/** The host of the referring page when it is another site's; undefined for direct visits and this site's own pages. */
export function referringHost(referrer: string, url: URL): string | undefined {
  if (!referrer) return undefined;
  try {
    const from = new URL(referrer);
    if (from.protocol !== 'https:' && from.protocol !== 'http:') return undefined;
    return siteHost(from.hostname) === siteHost(url.hostname) ? undefined : from.hostname;
  } catch {
    return undefined;
  }
}

/** The first touch of a visit that starts at `url`, coming from `referrer` (`document.referrer`, empty when none). */
export function firstTouch(url: URL, referrer: string): Attribution {
  const touch: Attribution = { landingPage: sitePath(url) };
  const host = referringHost(referrer, url);
  if (host) touch.referrer = host;
  for (const name of UTM_PARAMETERS) {
    const value = url.searchParams.get(name)?.trim().slice(0, MAX_VALUE);
    if (value) touch[name] = value;
  }
  return touch;
}

/** A view's place in the visit, as the forms send it with every submission. */
export interface Visit {
  /** The page the form is on (sitePath). */
  page: string;
  /** The session's first touch. */
  attribution?: Attribution;
}

/**
 * What a view keeps for its forms: its own path, and the session's first touch, which
 * is the stored one if there is one and this page's otherwise (the first view of the session).
 */
export function visitOf(stored: string | null, url: URL, referrer: string): Visit {
  const kept = parseVisit(stored)?.attribution;
  return { page: sitePath(url), attribution: kept ?? firstTouch(url, referrer) };
}

/** A stored visit, or undefined when there is none or it is not an object. */
export function parseVisit(stored: string | null): Visit | undefined {
  if (!stored) return undefined;
  try {
    const value: unknown = JSON.parse(stored);
    // Only BaseLayout's script writes the key, and the server checks every field it receives.
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Visit) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Run on every page (BaseLayout's script). Storage may be missing or refuse (disabled by
 * the person, a full quota): the forms then send no attribution, and nothing fails.
 */
export function recordVisit(): void {
  try {
    const visit = visitOf(sessionStorage.getItem(VISIT_KEY), new URL(location.href), document.referrer);
    sessionStorage.setItem(VISIT_KEY, JSON.stringify(visit));
  } catch {
    // Attribution is optional.
  }
}
