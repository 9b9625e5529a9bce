// src/shared holds what the pages and the functions both import, and ships to the browser: zod and this folder only.
// Paths of the site's pages that the functions link to from the e-mails they send.
import type { SourceName } from './schemas';

/**
 * The guide a form promises, by the source of its lead: the e-mail to the prospect links to
 * `${site.url}${path}`. Each path is a page built from content/guides (a build test checks it).
 */
export const GUIDE_PATHS = {
  zoho_guide: '/guides/zoho-google-workspace',
} as const satisfies Partial<Record<SourceName, string>>;

/** The path of the guide a lead from this source asked for, if its form promises one. */
export function guidePathFor(source: string): string | undefined {
  const paths: Partial<Record<string, string>> = GUIDE_PATHS;
  return Object.hasOwn(paths, source) ? paths[source] : undefined;
}

/**
 * The pages an e-mailed newsletter link opens, as `${site.url}${path}?token=…`. Each page POSTs
 * the token to the endpoint of the same name under /api once it has loaded, so a mail scanner
 * that only GETs the link changes nothing.
 */
export const NEWSLETTER_PATHS = {
  confirm: '/newsletter/confirm',
  unsubscribe: '/newsletter/unsubscribe',
} as const;

/** Where each view reports itself (functions/visits-create.ts). */
export const VISITS_PATH = '/api/visits';

/** The build's list of the pages whose views are counted under their own path (dist/COUNTED_PAGES_FILE). */
export const COUNTED_PAGES_FILE = 'counted-pages.json';

/**
 * Pages never counted: the owner's own, `/admin` and what lies under it (not `/administration`).
 * The one rule: the page's script sends no view from them (src/lib/visits-beacon.ts), the function
 * counts none it is sent (functions/_lib/visits/counting-rules.ts), the build lists none.
 */
export const UNCOUNTED_PATH = /^\/admin(\/|$)/;
