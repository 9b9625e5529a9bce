// @ts-check
import { defineConfig } from 'astro/config';
import { satteri } from '@astrojs/markdown-satteri';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import netlify from '@netlify/vite-plugin';
import tailwindcss from '@tailwindcss/vite';
import { loadEnv } from 'vite';
import { cmsDevPage } from './src/integrations/cms-dev-page.ts';
import { countedPages } from './src/integrations/write-counted-pages.ts';
import { deployContextHeaders } from './src/integrations/deploy-context-headers.ts';
import { svgGuard } from './src/integrations/svg-guard.ts';
import { wideContent } from './src/integrations/wide-content.ts';
import { buildDay } from './src/lib/build-day.ts';
import { BOOK_MANAGE_PAGE } from './src/shared/booking-api.ts';
import { NEWSLETTER_PATHS } from './src/shared/pages.ts';
import { readSiteConfig } from './src/site.config.ts';

const env = { ...loadEnv(process.env.NODE_ENV ?? 'production', process.cwd(), ''), ...process.env };
const site = readSiteConfig(env);
// A SITE_BUILD_DATE that is not a date stops the build here, before any work (the pages read it again).
buildDay(process.env);

/**
 * The origin of a configured embed, for the Content-Security-Policy; nothing when it is not set.
 * @param {string | undefined} url
 */
const originOf = (url) => (url ? [new URL(url).origin] : []);
const frameSources = [...originOf(site.contactFormUrl), ...originOf(site.externalDashboardUrl)];

/**
 * Pages that exist for people who land on them by mistake, by login or from an e-mail (the
 * guides sent to leads, the newsletter's confirm and unsubscribe links, a booking's link), never
 * for search engines: each is also noindex, and a build test keeps the two lists in step. The
 * newsletter's past issues at /newsletter are public pages.
 */
const UNLISTED = /\/(404|admin|guides)(\/|$)/;
/** @type {Set<string>} */
const UNLISTED_PATHS = new Set([...Object.values(NEWSLETTER_PATHS), BOOK_MANAGE_PAGE]);

export default defineConfig({
  site: site.url,
  output: 'static',
  // Every link, canonical URL, the sitemap and the feed name pages without a trailing slash, and
  // each page is built as a file (sectors/saas.html, not sectors/saas/index.html): Netlify serves
  // /sectors/saas from sectors/saas.html with 200, where a folder page would cost a 301 to
  // /sectors/saas/ on every visit (scripts/serve/netlify-paths.ts holds its rules).
  trailingSlash: 'never',
  build: { format: 'file' },
  integrations: [
    react(),
    {
      name: 'client-directives',
      hooks: {
        'astro:config:setup': ({ addClientDirective }) => {
          addClientDirective({ name: 'event', entrypoint: './src/lib/client-event-directive.ts' });
          addClientDirective({ name: 'form', entrypoint: './src/lib/client-form-directive.ts' });
        },
      },
    },
    {
      // `astro dev` runs the functions locally (@netlify/vite-plugin): it says so, so they may use
      // the embedded store and a plain ADMIN_PASSWORD. A build never sets it.
      name: 'local-run',
      hooks: {
        'astro:config:setup': ({ command }) => {
          if (command === 'dev') process.env.SITE_LOCAL_RUN = 'true';
        },
      },
    },
    sitemap({
      filter: (page) => {
        const { pathname } = new URL(page);
        return !UNLISTED.test(pathname) && !UNLISTED_PATHS.has(pathname);
      },
    }),
    svgGuard(['content', 'src/assets']),
    deployContextHeaders(),
    cmsDevPage(),
    countedPages(),
  ],
  prefetch: false,
  markdown: {
    // Posts have no code to colour, and Shiki's inline styles would need 'unsafe-inline' in the CSP.
    syntaxHighlight: false,
    processor: satteri({ hastPlugins: [wideContent] }),
  },
  security: {
    // A per-page policy with the hash of every script and style Astro emits: no 'unsafe-inline'.
    // Other hosts appear only when the owner configures an embed.
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        `frame-src ${frameSources.length ? frameSources.join(' ') : "'none'"}`,
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
      ],
      scriptDirective: { resources: ["'self'", ...originOf(site.chatWidgetUrl)] },
      styleDirective: { resources: ["'self'"] },
    },
  },
  image: {
    // The illustrations are the site's own SVG files, rasterised to WebP for pages and PNG for link previews.
    dangerouslyProcessSVG: true,
  },
  vite: {
    // In `astro dev` the Netlify emulation runs the functions; it does not serve files itself. Its
    // static files include the publish folder, dist/, and the last build's pages there would shadow
    // the live ones: a post saved since would show the build's 404 page. The site has no edge
    // functions, whose runtime would be downloaded at every start (an error when offline). The
    // store is Upstash Redis: Netlify Database's local Postgres would only add 4 s to each start.
    plugins: [
      tailwindcss(),
      netlify({ staticFiles: { enabled: false }, edgeFunctions: { enabled: false }, database: { enabled: false } }),
    ],
    // Constants are written into the code that uses them, so a module of constants shared by the
    // page's own script and the islands (src/lib/visit-key.ts) does not become one more file that
    // every page fetches.
    build: { rolldownOptions: { optimization: { inlineConst: { mode: 'all', pass: 1 } } } },
  },
});
