import type { Config } from '@netlify/functions';
import { readContent } from './_lib/platform/content-data';
import { endpoint, errorResponse, HttpError, json, requireMethod } from './_lib/platform/http';

/** Content changes only with a deploy: browsers revalidate, Netlify's CDN keeps it until the next deploy purges it. */
const CACHE_HEADERS = {
  'Cache-Control': 'public, max-age=0, must-revalidate',
  'Netlify-CDN-Cache-Control': 'public, durable, max-age=31536000',
};

const ok = (body: unknown) => json(200, body, CACHE_HEADERS);
const notFound = (what: string) => errorResponse(404, `${what} not found`, { headers: CACHE_HEADERS });

/** dist/api-data.json, or a 503 (never cached) when it cannot be read. */
async function content() {
  try {
    return await readContent();
  } catch (error) {
    console.error(`[content] cannot serve content: ${error instanceof Error ? error.message : 'unknown error'}`);
    throw new HttpError(errorResponse(503, 'Content is not available right now'));
  }
}

/** GET /api/sectors, /api/mini-apps, /api/blog and /api/legal/privacypolicy, with their detail routes. */
export default endpoint({ name: 'content' }, async (req, context) => {
  requireMethod(req, ['GET', 'HEAD']);
  const data = await content();
  const { pathname, searchParams } = new URL(req.url);
  const slug = context.params.slug;

  if (pathname.startsWith('/api/sectors')) {
    if (!slug) return ok(data.sectors);
    const sector = data.sectors.find((item) => item.slug === slug);
    return sector ? ok(sector) : notFound('Sector');
  }
  if (pathname.startsWith('/api/mini-apps')) {
    if (slug) {
      const app = data.miniApps.find((item) => item.slug === slug);
      return app ? ok(app) : notFound('Mini-app');
    }
    const sector = searchParams.get('sector');
    if (sector === null) return ok(data.miniApps);
    // A sector may be named ("SaaS/B2B") or given by its slug ("saas").
    const match = data.sectors.find((item) => item.name === sector || item.slug === sector);
    return ok(match ? data.miniApps.filter((app) => app.sectors.includes(match.name)) : []);
  }
  if (pathname.startsWith('/api/blog')) {
    if (!slug) return ok(data.posts);
    const post = data.posts.find((item) => item.slug === slug);
    return post ? ok(post) : notFound('Blog post');
  }
  return ok(data.privacyPolicy);
});

export const config: Config = {
  path: [
    '/api/sectors',
    '/api/sectors/:slug',
    '/api/mini-apps',
    '/api/mini-apps/:slug',
    '/api/blog',
    '/api/blog/:slug',
    '/api/legal/privacypolicy',
  ],
};
