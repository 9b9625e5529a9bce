import { existsSync } from 'node:fs';
import path from 'node:path';
import type { APIRoute } from 'astro';
import { cmsPage, cmsSettings, DECAP_SCRIPT } from '../../../lib/cms/page';
import { site } from '../../../site.config';

/**
 * The CMS page, with its own Content-Security-Policy (not the pages' one: see lib/cms/config.ts).
 * Without the vendored bundle in public/ (scripts/cms/vendor-decap.ts could not fetch it), the
 * page says how to fetch it.
 */
export const GET: APIRoute = () => {
  const bundled = existsSync(path.join(process.cwd(), 'public', DECAP_SCRIPT));
  return new Response(cmsPage(cmsSettings(process.env, import.meta.env.DEV, site.url), site.name, bundled), {
    headers: { 'Content-Type': 'text/html; charset=utf-8' },
  });
};
