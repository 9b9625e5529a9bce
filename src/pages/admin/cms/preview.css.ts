import type { APIRoute } from 'astro';
import stylesheet from '../../../styles/global.css?inline';

/** The site's stylesheet, for the CMS's preview pane (Decap's registerPreviewStyle). */
export const GET: APIRoute = () => new Response(stylesheet, { headers: { 'Content-Type': 'text/css; charset=utf-8' } });
