import type { Config } from '@netlify/functions';
import { getEnv, isLocalRun } from './_lib/platform/env';

/**
 * Rebuilds the site every morning, so a post dated in the future (scheduled in the CMS) goes live
 * on its day with nobody pressing anything: the build leaves out posts dated after its day
 * (src/lib/content.ts), and this build is the first of the new day. Netlify runs it on the
 * schedule below (UTC), on published deploys only; it asks for the build through the site's build
 * hook, BUILD_HOOK_URL, set in the Netlify UI (docs/editors.md: "Turning the CMS on"). Without it, or in a local
 * run (the local server runs scheduled functions too), it does nothing and says so: a copy of the
 * hook in a developer's .env must not rebuild the real site.
 */
export const config: Config = { schedule: '0 4 * * *' };

export default async (): Promise<Response> => {
  if (isLocalRun()) {
    console.log('[scheduled-build] local run: no build requested.');
    return new Response(null, { status: 204 });
  }
  // A wrong value throws, naming the variable (getEnv).
  const hook = getEnv().BUILD_HOOK_URL;
  if (!hook) {
    console.log('[scheduled-build] BUILD_HOOK_URL is not set: no build requested.');
    return new Response(null, { status: 204 });
  }
  const url = new URL(hook);
  url.searchParams.set('trigger_title', 'Daily build for scheduled posts');
  const response = await fetch(url, { method: 'POST', body: '{}', signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`[scheduled-build] the build hook answered ${response.status}`);
  console.log('[scheduled-build] build requested.');
  return new Response(null, { status: 202 });
};
