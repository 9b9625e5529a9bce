/** The routes of the specification's table and the pages sent by e-mail, with the detail pages read from content/. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BOOK_MANAGE_PAGE, BOOK_PAGE } from '../../src/shared/booking-api';
import { GUIDE_PATHS, NEWSLETTER_PATHS } from '../../src/shared/pages';

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
export const ISSUE_SLUGS = slugs('newsletter');

/** Posts whose markdown holds a table (a delimiter row such as `| --- | --- |`): the widest content a post can have. */
export const POSTS_WITH_TABLE = POST_SLUGS.filter((slug) =>
  /^\|?\s*:?-{3,}:?\s*\|/m.test(readFileSync(path.join(CONTENT, 'blog', `${slug}.md`), 'utf8')),
);

export const STATIC_ROUTES = [
  '/',
  '/sectors',
  '/mini-apps',
  '/blog',
  '/newsletter',
  '/contact',
  '/privacy-policy',
  '/zoho',
  BOOK_PAGE,
  '/admin/insights',
];

/** Pages people reach from an e-mail only: a guide sent to leads, the newsletter's confirm and unsubscribe links, a booking's link. */
export const UNLISTED_ROUTES = [...Object.values(GUIDE_PATHS), ...Object.values(NEWSLETTER_PATHS), BOOK_MANAGE_PAGE];

export const ALL_ROUTES = [
  ...STATIC_ROUTES,
  ...UNLISTED_ROUTES,
  ...SECTOR_SLUGS.map((slug) => `/sectors/${slug}`),
  ...MINI_APP_SLUGS.map((slug) => `/mini-apps/${slug}`),
  ...POST_SLUGS.map((slug) => `/blog/${slug}`),
  ...ISSUE_SLUGS.map((slug) => `/newsletter/${slug}`),
];

/** Pages that must never be indexed. */
export const NOINDEX_ROUTES = ['/admin/insights', ...UNLISTED_ROUTES];
