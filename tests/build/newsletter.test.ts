/**
 * The newsletter's past issues as the build makes them: the list at /newsletter and a page per
 * issue, both in the sitemap. Reads dist/, which `npm test` builds first.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../scripts/harness/project';
import { DIST } from '../support/dist';

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
