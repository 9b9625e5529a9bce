/**
 * Scheduled posts and issues: a post dated after the build day stays out of every place a post
 * appears (its page, the blog list, the RSS feed, the sitemap, the /api, the mailings) and is in
 * all of them once the build day reaches its date; so is a newsletter issue (its page, the list of
 * issues, the sitemap, the mailings), here one that features the post. SITE_BUILD_DATE moves the
 * build's clock; no test waits for a day to pass.
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

const ISSUE_SLUG = 'an-issue-for-the-ides-of-march';
const ISSUE = `---
subject: "Our letter for the Ides of March"
summary: "Scheduled with the post it features, so that the two go live together on the morning of their day."
publishedDate: 2031-03-15
posts:
  - ${SLUG}
---

Written ahead of time, too.
`;

/** dist/mailings.json's entries, by kind and slug. */
function mailings(site: SiteCopy): string[] {
  const { mailings: entries } = JSON.parse(readFileSync(site.file('dist/mailings.json'), 'utf8')) as {
    mailings: { kind: string; slug: string }[];
  };
  return entries.map((entry) => `${entry.kind}:${entry.slug}`);
}

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
    mailing: mailings(site).includes(`post:${SLUG}`),
  };
}

/** Where an issue can appear in a build, and whether this one does. */
function issueAppearances(site: SiteCopy) {
  const read = (file: string) => readFileSync(site.file('dist', file), 'utf8');
  return {
    page: existsSync(site.file('dist/newsletter', `${ISSUE_SLUG}.html`)),
    list: read('newsletter.html').includes(`/newsletter/${ISSUE_SLUG}`),
    sitemap: read('sitemap-0.xml').includes(`/newsletter/${ISSUE_SLUG}`),
    mailing: mailings(site).includes(`issue:${ISSUE_SLUG}`),
  };
}

let site: SiteCopy;
beforeAll(() => {
  site = copySite();
  writeFileSync(site.file('content/blog', `${SLUG}.md`), POST);
  writeFileSync(site.file('content/newsletter', `${ISSUE_SLUG}.md`), ISSUE);
});
afterAll(() => site?.remove());

describe('a post and an issue dated tomorrow', () => {
  test('are in no page, list, feed, sitemap, /api or mailing of a build made the day before', () => {
    const { status, output } = site.build({ SITE_BUILD_DATE: '2031-03-14' });
    expect(status, output).toBe(0);
    expect(appearances(site)).toEqual({
      page: false,
      list: false,
      feed: false,
      sitemap: false,
      api: false,
      mailing: false,
    });
    expect(issueAppearances(site)).toEqual({ page: false, list: false, sitemap: false, mailing: false });
    // The build says why they are not there, and when they will be, once each.
    for (const file of [`content/blog/${SLUG}.md`, `content/newsletter/${ISSUE_SLUG}.md`]) {
      const line = `[content] ${file}: scheduled for 2031-03-15, so not in this build (2031-03-14); it appears with the first build on that day`;
      expect(output.split(line)).toHaveLength(2);
    }
  });

  test('are in all of them in the same build made on their day', () => {
    const { status, output } = site.build({ SITE_BUILD_DATE: '2031-03-15' });
    expect(status, output).toBe(0);
    expect(appearances(site)).toEqual({ page: true, list: true, feed: true, sitemap: true, api: true, mailing: true });
    expect(issueAppearances(site)).toEqual({ page: true, list: true, sitemap: true, mailing: true });
  });

  test('are on a deploy preview before their day, so the CMS can link to them', () => {
    const { status, output } = site.build({ SITE_BUILD_DATE: '2031-03-14', CONTEXT: 'deploy-preview' });
    expect(status, output).toBe(0);
    expect(appearances(site).page).toBe(true);
    expect(issueAppearances(site).page).toBe(true);
  });

  test('a build date that is not a date stops the build, saying so', () => {
    const { status, output } = site.build({ SITE_BUILD_DATE: 'next tuesday' });
    expect(status).not.toBe(0);
    expect(output).toContain('SITE_BUILD_DATE must be a date such as 2026-12-01 (it is "next tuesday").');
  });
});
