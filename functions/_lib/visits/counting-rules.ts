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

/** Why a view is answered but not counted. */
export type NotCounted = 'privacy-signal' | 'no-browser' | 'bot' | 'admin-page';

/**
 * A view not to count, or undefined to count it. `Sec-GPC: 1` (Global Privacy Control) and
 * `DNT: 1` are people asking not to be followed. A browser's user agent starts with `Mozilla/`;
 * anything else (none, curl, a library) is a tool, and isbot knows crawlers, previews and
 * headless browsers by theirs.
 */
export function notCounted(headers: Headers, path: string): NotCounted | undefined {
  if (headers.get('sec-gpc')?.trim() === '1' || headers.get('dnt')?.trim() === '1') return 'privacy-signal';
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

/** `utm_source`, else the referring site (unless it is this one), else Direct. */
export function sourceOf(view: VisitsRequest, siteHost: string): string {
  if (view.utm_source) return view.utm_source;
  const referrer = view.referrer && withoutWww(view.referrer);
  return referrer && referrer !== withoutWww(siteHost) ? referrer : 'Direct';
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

/** The view as the store counts it. */
export function countedView(
  view: VisitsRequest,
  {
    day,
    salt,
    client,
    agent,
    siteHost,
    pages,
  }: {
    day: string;
    salt: string;
    client: string;
    agent: string;
    siteHost: string;
    pages: ReadonlySet<string>;
  },
): View {
  return {
    day,
    visitor: keyedHash(salt, client, agent, siteHost),
    path: countedPath(view.path, pages),
    source: sourceOf(view, siteHost),
    campaign: view.utm_campaign,
    device: deviceOf(agent),
  };
}
