/**
 * Scheduled posts: a post dated after the build day stays out of every place a post appears (its
 * page, the blog list, the RSS feed, the sitemap, the /api) and is in all of them once the build
 * day reaches its date. SITE_BUILD_DATE moves the build's clock; no test waits for a day to pass.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copySite, type SiteCopy } from '../../scripts/harness/site-copy';

const SLUG = 'a-post-for-the-ides-of-march';
const POST = `---
title: "A post scheduled for the Ides of March"
summary: "Written ahead of time and dated in the future, so that it goes live by itself on the morning of its day."
image: ../images/blog/what-to-automate-first.svg
imageAlt: "A checklist"
publishedDate: 2031-03-15
---

Written ahead of time.
`;

/** Where a post can appear in a build, and whether this one does. */
function appearances(site: SiteCopy) {
  const read = (file: string) => readFileSync(site.file('dist', file), 'utf8');
  const api = JSON.parse(read('api-data.json')) as { posts: { slug: string }[] };
  return {
    page: existsSync(site.file('dist/blog', `${SLUG}.html`)),
    list: read('blog.html').includes(`/blog/${SLUG}`),
    feed: read('rss.xml').includes(`/blog/${SLUG}`),
    sitemap: read('sitemap-0.xml').includes(`/blog/${SLUG}`),
    api: api.posts.some((post) => post.slug === SLUG),
  };
}

let site: SiteCopy;
beforeAll(() => {
  site = copySite();
  writeFileSync(site.file('content/blog', `${SLUG}.md`), POST);
});
afterAll(() => site?.remove());

describe('a post dated tomorrow', () => {
  test('is in no page, feed, sitemap or /api of a build made the day before', () => {
    const { status, output } = site.build({ SITE_BUILD_DATE: '2031-03-14' });
    expect(status, output).toBe(0);
    expect(appearances(site)).toEqual({ page: false, list: false, feed: false, sitemap: false, api: false });
  });

  test('is in all of them in the same build made on its day', () => {
    const { status, output } = site.build({ SITE_BUILD_DATE: '2031-03-15' });
    expect(status, output).toBe(0);
    expect(appearances(site)).toEqual({ page: true, list: true, feed: true, sitemap: true, api: true });
  });

  test('is on a deploy preview before its day, so the CMS can link to it', () => {
    const { status, output } = site.build({ SITE_BUILD_DATE: '2031-03-14', CONTEXT: 'deploy-preview' });
    expect(status, output).toBe(0);
    expect(appearances(site).page).toBe(true);
  });

  test('a build date that is not a date stops the build, saying so', () => {
    const { status, output } = site.build({ SITE_BUILD_DATE: 'next tuesday' });
    expect(status).not.toBe(0);
    expect(output).toContain('SITE_BUILD_DATE must be a date such as 2026-12-01 (it is "next tuesday").');
  });
});
