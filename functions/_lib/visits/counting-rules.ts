// functions/_lib/visits counts views without knowing who made them.
/**
 * What a reported view becomes before the store sees it: counted or not (tools, the admin's
 * pages, people who asked not to be followed), its page among the build's or "other", its source,
 * its device class, and a visitor hash that cannot be turned back into an address.
 */
import { createHmac } from 'node:crypto';
import { isbot } from 'isbot';
import { UNCOUNTED_PATH } from '../../../src/shared/pages';
import type { VisitsRequest } from '../../../src/shared/schemas';
import { OTHER_PAGE, type Device, type View } from '../store/visits';
import { countedValue } from './counted-values';
import { knownSource } from './source-names';

/**
 * Why a view is answered but not counted. `owner` is decided by the endpoint, which reads the
 * admin session; the rest here, from the request alone.
 */
export type NotCounted = 'privacy-signal' | 'other-site' | 'no-browser' | 'bot' | 'admin-page' | 'owner';

/** The values of a header sent several times or as a list: Headers joins repeated fields with ", ". */
const valuesOf = (headers: Headers, name: string) => (headers.get(name) ?? '').split(',').map((value) => value.trim());

/**
 * `Sec-GPC: 1` (Global Privacy Control, whose one value is 1) or `DNT: 1` (Do Not Track, whose 1
 * may carry extension characters). A field repeated or listed (`Sec-GPC: 1, 1`) asks when any of
 * its values does: whoever said it once meant it.
 */
function asksNotToBeFollowed(headers: Headers): boolean {
  return valuesOf(headers, 'sec-gpc').includes('1') || valuesOf(headers, 'dnt').some((value) => value.startsWith('1'));
}

/**
 * A page of another site sent the view (its own `navigator.sendBeacon` to this address). Current
 * browsers send `Origin` with every POST (Firefox since 2019) and `Sec-Fetch-Site` (Safari since
 * 2023), and no page can forge either. A view with neither comes from an older browser or a tool:
 * nothing then says where it came from, and the other rules decide (a tool's user agent is not a
 * browser's; one that claims to be is no more than a script could send from anywhere).
 */
function fromAnotherSite(headers: Headers, siteOrigin: string): boolean {
  const origin = headers.get('origin');
  const fetchSite = headers.get('sec-fetch-site');
  return (origin !== null && origin !== siteOrigin) || (fetchSite !== null && fetchSite !== 'same-origin');
}

/**
 * A view not to count, or undefined to count it; `siteOrigin` is the origin the request was sent
 * to, this site's own. `Sec-GPC` and `DNT` are people asking not to be followed. A browser's user
 * agent starts with `Mozilla/`; anything else (none, curl, a library) is a tool, and isbot knows
 * crawlers, previews and headless browsers by theirs.
 */
export function notCounted(headers: Headers, path: string, siteOrigin: string): NotCounted | undefined {
  if (asksNotToBeFollowed(headers)) return 'privacy-signal';
  if (fromAnotherSite(headers, siteOrigin)) return 'other-site';
  const agent = headers.get('user-agent') ?? '';
  if (!agent.startsWith('Mozilla/')) return 'no-browser';
  if (isbot(agent)) return 'bot';
  if (UNCOUNTED_PATH.test(path)) return 'admin-page';
  return undefined;
}

/** Phone, tablet or desktop, from the user agent (an iPad that says Macintosh counts as a desktop). */
export function deviceOf(agent: string): Device {
  if (/iPad|Tablet|PlayBook|Silk|Android(?!.*Mobile)/i.test(agent)) return 'tablet';
  if (/Mobi|iPhone|iPod|Android|Windows Phone/i.test(agent)) return 'phone';
  return 'desktop';
}

/** `www.example.com` and `example.com` are one site. */
const withoutWww = (host: string) => host.toLowerCase().replace(/^www\./, '');

/**
 * `utm_source`, else the referring site (unless it is this one), else Direct: under the one name
 * of a site known under several (source-names.ts), and as a counted value, a short name or
 * `(other)` (counted-values.ts), since both come from whoever wrote the link.
 */
export function sourceOf(view: VisitsRequest, siteHost: string): string {
  const referrer = view.referrer && withoutWww(view.referrer);
  const given = view.utm_source || (referrer === withoutWww(siteHost) ? undefined : referrer);
  return given ? countedValue(knownSource(given) ?? given) : 'Direct';
}

/** The path counted: a page of the build, or OTHER_PAGE. */
export function countedPath(path: string, pages: ReadonlySet<string>): string {
  const page = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return pages.has(page) ? page : OTHER_PAGE;
}

/**
 * The keyed hash of a visitor (HMAC-SHA-256 under the day's salt) of their address, user agent
 * and the site's host, as Plausible makes it: the same all day, another tomorrow, and once the
 * salt is deleted no one can tell whose it was. 16 bytes are plenty to tell a day's visitors apart.
 */
export function keyedHash(salt: string, ...parts: string[]): string {
  return createHmac('sha256', salt).update(parts.join('\n')).digest('hex').slice(0, 32);
}

/**
 * The view as the store counts it. `previousSalt` is the day before's, given in a day's first
 * minutes: the visitor's hash under it finds a visit begun before midnight, which goes on.
 */
export function countedView(
  view: VisitsRequest,
  {
    day,
    salt,
    previousSalt,
    client,
    agent,
    siteHost,
    pages,
  }: {
    day: string;
    salt: string;
    previousSalt?: string | undefined;
    client: string;
    agent: string;
    siteHost: string;
    pages: ReadonlySet<string>;
  },
): View {
  return {
    day,
    visitor: keyedHash(salt, client, agent, siteHost),
    continues: previousSalt && keyedHash(previousSalt, client, agent, siteHost),
    path: countedPath(view.path, pages),
    source: sourceOf(view, siteHost),
    campaign: view.utm_campaign && countedValue(view.utm_campaign),
    device: deviceOf(agent),
  };
}
