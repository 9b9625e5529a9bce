/** The routes of the specification's table, with the detail pages read from content/. */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CONTENT = fileURLToPath(new URL('../../content', import.meta.url));

function slugs(folder: string): string[] {
  return readdirSync(path.join(CONTENT, folder))
    .filter((file) => /\.(md|ya?ml)$/.test(file))
    .map((file) => file.replace(/\.(md|ya?ml)$/, ''))
    .sort();
}

export const SECTOR_SLUGS = slugs('sectors');
export const MINI_APP_SLUGS = slugs('mini-apps');
export const POST_SLUGS = slugs('blog');

export const STATIC_ROUTES = ['/', '/sectors', '/mini-apps', '/blog', '/contact', '/privacy-policy', '/zoho', '/admin/insights'];

export const ALL_ROUTES = [
  ...STATIC_ROUTES,
  ...SECTOR_SLUGS.map((slug) => `/sectors/${slug}`),
  ...MINI_APP_SLUGS.map((slug) => `/mini-apps/${slug}`),
  ...POST_SLUGS.map((slug) => `/blog/${slug}`),
];

/** Pages that must never be indexed. */
export const NOINDEX_ROUTES = ['/admin/insights'];
