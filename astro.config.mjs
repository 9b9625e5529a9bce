// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import netlify from '@netlify/vite-plugin';
import tailwindcss from '@tailwindcss/vite';
import { loadEnv } from 'vite';
import { readSiteConfig } from './src/site.config.ts';

const env = { ...loadEnv(process.env.NODE_ENV ?? 'production', process.cwd(), ''), ...process.env };
const site = readSiteConfig(env);

/** Pages that exist for people who land on them by mistake or by login, never for search engines. */
const UNLISTED = /\/(404|admin)(\/|$)/;

export default defineConfig({
  site: site.url,
  output: 'static',
  trailingSlash: 'ignore',
  integrations: [
    react(),
    {
      name: 'client-event-directive',
      hooks: {
        'astro:config:setup': ({ addClientDirective }) => {
          addClientDirective({ name: 'event', entrypoint: './src/lib/client-event-directive.ts' });
        },
      },
    },
    sitemap({ filter: (page) => !UNLISTED.test(new URL(page).pathname) }),
  ],
  prefetch: false,
  image: {
    // The illustrations are the site's own SVG files, rasterised to WebP for pages and PNG for link previews.
    dangerouslyProcessSVG: true,
  },
  vite: {
    plugins: [tailwindcss(), netlify()],
  },
});
