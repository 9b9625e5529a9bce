/**
 * The newsletter's past issues as the build makes them: the list at /newsletter and a page per
 * issue, both in the sitemap; and dist/mailings.json, what the newsletter's sender reads: every
 * published issue and post, with self-contained HTML and absolute URLs, linked from no page and
 * absent from the sitemap. Reads dist/, which `npm test` builds first.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { MAILINGS_FILE, type IssueMailing, type Mailings, type PostMailing } from '../../src/shared/mailing-types';
import { PROJECT_ROOT } from '../../scripts/harness/project';
import { builtPages, DIST } from '../support/dist';
import { POST_SLUGS } from '../support/routes';

const read = (file: string) => readFileSync(path.join(DIST, file), 'utf8');

/** The example issue of content/newsletter and what its front matter says. */
const ISSUE = 'three-automations-before-the-new-year';
const source = readFileSync(path.join(PROJECT_ROOT, 'content', 'newsletter', `${ISSUE}.md`), 'utf8');
const SUBJECT = /^subject: "(.+)"$/m.exec(source)?.[1] ?? '';
const FEATURED = [...(/^posts:\n((?: {2}- .+\n)+)/m.exec(source)?.[1] ?? '').matchAll(/- (\S+)/g)].map(
  ([, slug]) => slug,
);

/** Every path the sitemap lists. */
function sitemapPaths(): string[] {
  return [...read('sitemap-index.xml').matchAll(/<loc>([^<]+)<\/loc>/g)].flatMap(([, loc]) =>
    [...read(new URL(loc ?? '').pathname.slice(1)).matchAll(/<loc>([^<]+)<\/loc>/g)].map(
      ([, page]) => new URL(page ?? '').pathname,
    ),
  );
}

/** The canonical URL a page names. */
const canonicalOf = (html: string) => /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];

test('the example issue says what it is about and features posts', () => {
  expect(SUBJECT.length).toBeGreaterThan(10);
  expect(FEATURED.length).toBeGreaterThan(0);
});

describe('the pages of the newsletter', () => {
  test('/newsletter lists the issue, linking to its page', () => {
    const list = read('newsletter.html');
    expect(list).toMatch(/<h1[^>]*>Past issues<\/h1>/);
    expect(list).toContain(`href="/newsletter/${ISSUE}"`);
    expect(list).toContain(SUBJECT);
  });

  test('the issue has its page: subject, date, letter, featured posts as cards and the way back', () => {
    const html = read(`newsletter/${ISSUE}.html`);
    expect(html).toMatch(new RegExp(`<h1[^>]*>${SUBJECT}</h1>`));
    expect(html).toMatch(/<time datetime="\d{4}-\d{2}-\d{2}">/);
    expect(html).toContain('<h2 id="1-get-invoices-paid-before-the-holidays-not-after">');
    const cards = /<section aria-labelledby="issue-posts-title"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    expect([...cards.matchAll(/<article\b[\s\S]*?href="\/blog\/([^"]+)"/g)].map(([, slug]) => slug)).toEqual(FEATURED);
    expect(html).toContain('href="/newsletter"');
    const signup = /<section aria-labelledby="issue-newsletter-title"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    expect(signup).toContain('component-export="NewsletterSignup"');
    expect(signup).toMatch(/<form[^>]*aria-label="Newsletter">/);
  });

  test('both are in the sitemap; the confirm and unsubscribe pages are not', () => {
    const listed = sitemapPaths();
    expect(listed).toEqual(expect.arrayContaining(['/newsletter', `/newsletter/${ISSUE}`]));
    expect(listed.filter((pathname) => /^\/newsletter\/(confirm|unsubscribe|404)$/.test(pathname))).toEqual([]);
  });
});

describe(`dist/${MAILINGS_FILE}`, () => {
  const { mailings } = JSON.parse(read(MAILINGS_FILE)) as Mailings;
  const issues = mailings.filter((mailing): mailing is IssueMailing => mailing.kind === 'issue');
  const posts = mailings.filter((mailing): mailing is PostMailing => mailing.kind === 'post');

  test('has the issue with its page URL, date and featured posts', () => {
    const issue = issues.find((mailing) => mailing.slug === ISSUE);
    expect(issue).toMatchObject({
      subject: SUBJECT,
      posts: FEATURED,
      publishedDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(issue?.url).toBe(canonicalOf(read(`newsletter/${ISSUE}.html`)));
  });

  test("has the issue's letter as self-contained HTML: every link and image an absolute URL", () => {
    const { html = '', url = '' } = issues.find((mailing) => mailing.slug === ISSUE) ?? {};
    const origin = new URL(url).origin;
    expect(html).toContain('<h2 id="1-get-invoices-paid-before-the-holidays-not-after">');
    expect(html).toContain(`<a href="${origin}/blog/automate-invoicing-small-business">`);
    const addresses = [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map(([, address]) => address);
    expect(addresses.length).toBeGreaterThan(1);
    for (const address of addresses) expect(address).toMatch(/^https?:\/\/[^/]+\//);
    expect(html).not.toMatch(/<(html|head|body|script|style)\b/);
  });

  test('has every published post, with its page URL and its cover as a PNG of this build', () => {
    expect(posts.map((post) => post.slug).sort()).toEqual(POST_SLUGS);
    for (const post of posts) {
      expect(post.url).toBe(canonicalOf(read(`blog/${post.slug}.html`)));
      expect(post.subject).toBe(/<h1[^>]*>([^<]+)<\/h1>/.exec(read(`blog/${post.slug}.html`))?.[1]);
      expect(post.imageUrl).toMatch(/^https?:\/\/[^/]+\/_astro\/.+\.png$/);
      expect(existsSync(path.join(DIST, new URL(post.imageUrl).pathname)), post.imageUrl).toBe(true);
      expect(post.imageAlt).not.toBe('');
    }
  });

  test('every issue features posts the file has, each of them', () => {
    const slugs = new Set(posts.map((post) => post.slug));
    for (const issue of issues) for (const slug of issue.posts) expect(slugs).toContain(slug);
  });

  test('is linked from no page and absent from the sitemap', () => {
    expect(builtPages().filter((page) => read(page).includes(MAILINGS_FILE))).toEqual([]);
    expect(sitemapPaths()).not.toContain(`/${MAILINGS_FILE}`);
  });
});
