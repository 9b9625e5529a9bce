import type { APIRoute } from 'astro';
import { cmsPage, cmsSettings } from '../../../lib/cms/page';
import { site } from '../../../site.config';

/** The CMS page, with its own Content-Security-Policy (not the pages' one: see lib/cms/config.ts). */
export const GET: APIRoute = () =>
  new Response(cmsPage(cmsSettings(process.env, import.meta.env.DEV, site.url), site.name), {
    headers: { 'Content-Type': 'text/html; charset=utf-8' },
  });
