/**
 * Scheduled posts and issues: a post dated after the build day stays out of every place a post
 * appears (its page, the blog list, the RSS feed, the sitemap, the /api, the mailings) and is in
 * all of them once the build day reaches its date; so is a newsletter issue (its page, the list of
 * issues, the sitemap, the mailings), here one that features the post. SITE_BUILD_DATE moves the
 * build's clock; no test waits for a day to pass.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copySite, type SiteCopy } from '../../scripts/harness/site-copy';
import { addScheduled, SCHEDULED } from '../support/scheduled-content';
import { edit } from '../support/site-edit';

const SLUG = SCHEDULED.post;
const ISSUE_SLUG = SCHEDULED.issue;

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

/** A draft post and a draft issue of the site's own content, each written as an editor marks one. */
const DRAFT_POST = 'what-to-automate-first';
const DRAFT_ISSUE = 'three-automations-before-the-new-year';

let site: SiteCopy;
beforeAll(() => {
  site = copySite();
  addScheduled(site);
  edit(site, `content/blog/${DRAFT_POST}.md`, (text) => text.replace(/^---\n/, '---\ndraft: true\n'));
  edit(site, `content/newsletter/${DRAFT_ISSUE}.md`, (text) => text.replace(/^---\n/, '---\ndraft: true\n'));
});
afterAll(() => site?.remove());

describe('a production build made the day before a post and an issue are dated', () => {
  let output = '';
  beforeAll(() => {
    const build = site.build({ SITE_BUILD_DATE: SCHEDULED.dayBefore, CONTEXT: 'production' });
    expect(build.status, build.output).toBe(0);
    output = build.output;
  });

  test('leaves them out of every page, list, feed, sitemap, /api and mailing', () => {
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
      const line = `[content] ${file}: scheduled for ${SCHEDULED.day}, so not in this build (${SCHEDULED.dayBefore}); it appears with the first build on that day`;
      expect(output.split(line)).toHaveLength(2);
    }
  });

  test('leaves drafts out too, posts and issues alike', () => {
    // Search engines are welcome: no _headers says noindex (a branch deploy's does: content-build.test.ts).
    expect(existsSync(site.file('dist/_headers'))).toBe(false);
    const read = (file: string) => readFileSync(site.file('dist', file), 'utf8');
    expect(readdirSync(site.file('dist/blog'))).not.toContain(`${DRAFT_POST}.html`);
    expect(read('blog.html')).not.toContain(`/blog/${DRAFT_POST}`);
    expect(read('rss.xml')).not.toContain(DRAFT_POST);
    expect(read('sitemap-0.xml')).not.toContain(DRAFT_POST);
    expect(readdirSync(site.file('dist/newsletter'))).not.toContain(`${DRAFT_ISSUE}.html`);
    expect(read('newsletter.html')).not.toContain(`/newsletter/${DRAFT_ISSUE}`);
    expect(read('sitemap-0.xml')).not.toContain(DRAFT_ISSUE);
    expect(read('mailings.json')).not.toMatch(new RegExp(`${DRAFT_POST}|${DRAFT_ISSUE}`));
    expect(read('api-data.json')).not.toContain(DRAFT_POST);
  });
});

describe('a post and an issue dated tomorrow', () => {
  test('are in all of them in the same build made on their day', () => {
    const { status, output } = site.build({ SITE_BUILD_DATE: SCHEDULED.day });
    expect(status, output).toBe(0);
    expect(appearances(site)).toEqual({ page: true, list: true, feed: true, sitemap: true, api: true, mailing: true });
    expect(issueAppearances(site)).toEqual({ page: true, list: true, sitemap: true, mailing: true });
  });

  // On a deploy preview before their day: deploy-preview.test.ts.

  test('a build date that is not a date stops the build, saying so', () => {
    const { status, output } = site.build({ SITE_BUILD_DATE: 'next tuesday' });
    expect(status).not.toBe(0);
    expect(output).toContain('SITE_BUILD_DATE must be a date such as 2026-12-01 (it is "next tuesday").');
  });
});
