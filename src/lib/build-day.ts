/**
 * The day a build publishes for, YYYY-MM-DD in UTC: SITE_BUILD_DATE when it is set (tests move
 * the clock with it), today otherwise. A post or issue dated after it is scheduled: it stays out
 * of the pages, the feed, the sitemap, the /api and the mailings until a build on or after its
 * day, which the daily scheduled build (functions/scheduled-build.ts) makes happen. Free of Astro's
 * modules: astro.config.mjs reads it first, so a wrong value stops the build before any work.
 */
export function buildDay(env: Record<string, string | undefined> = process.env): string {
  const value = env.SITE_BUILD_DATE?.trim();
  if (!value) return new Date().toISOString().slice(0, 10);
  const day = new Date(value);
  if (Number.isNaN(day.getTime())) {
    throw new Error(`SITE_BUILD_DATE must be a date such as 2026-12-01 (it is "${value}").`);
  }
  return day.toISOString().slice(0, 10);
}
