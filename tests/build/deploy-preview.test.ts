/**
 * A deploy preview shows its own images in link previews (a changed og:image is visible there),
 * while canonical URLs keep naming the production site; and it shows what is scheduled, so the
 * CMS can link to it. Builds a copy of the site the way Netlify builds a deploy preview, the day
 * before a post and an issue are dated.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { copySite, type SiteCopy } from '../../scripts/harness/site-copy';
import { addScheduled, SCHEDULED } from '../support/scheduled-content';

const PRODUCTION = 'https://loopwork.example';
const PREVIEW = 'https://deploy-preview-42--example.netlify.app';

let site: SiteCopy;
const page = (file: string) => readFileSync(site.file('dist', file), 'utf8');
const attribute = (html: string, pattern: RegExp) => pattern.exec(html)?.[1];

beforeAll(() => {
  site = copySite();
  addScheduled(site);
  const { status, output } = site.build({
    SITE_BUILD_DATE: SCHEDULED.dayBefore,
    PUBLIC_SITE_URL: '',
    URL: PRODUCTION,
    CONTEXT: 'deploy-preview',
    DEPLOY_PRIME_URL: PREVIEW,
  });
  expect(status, output).toBe(0);
}, 180_000);

afterAll(() => site?.remove());

test.each(['index.html', 'blog/what-to-automate-first.html', 'sectors/saas.html'])(
  '%s: link-preview images come from the preview, the canonical URL from production',
  (file) => {
    const html = page(file);
    expect(attribute(html, /<meta property="og:image" content="([^"]+)"/)).toMatch(
      new RegExp(`^${PREVIEW}/_astro/.+\\.png$`),
    );
    expect(attribute(html, /<meta name="twitter:image" content="([^"]+)"/)).toMatch(new RegExp(`^${PREVIEW}/`));
    expect(attribute(html, /<link rel="canonical" href="([^"]+)"/)).toMatch(new RegExp(`^${PRODUCTION}(/|$)`));
    expect(attribute(html, /<meta property="og:url" content="([^"]+)"/)).toMatch(new RegExp(`^${PRODUCTION}(/|$)`));
  },
);

test('structured data takes its images from the preview and its page URLs from production', () => {
  const post = JSON.parse(
    attribute(
      page('blog/what-to-automate-first.html'),
      /<script type="application\/ld\+json">(\{"@context":"https:\/\/schema.org","@type":"BlogPosting"[\s\S]*?)<\/script>/,
    ) ?? '{}',
  ) as { image: string[]; url: string };
  expect(post.image[0]).toMatch(new RegExp(`^${PREVIEW}/`));
  expect(post.url).toBe(`${PRODUCTION}/blog/what-to-automate-first`);
  const organization = JSON.parse(
    attribute(
      page('index.html'),
      /<script type="application\/ld\+json">(\{"@context":"https:\/\/schema.org","@type":"ProfessionalService"[\s\S]*?)<\/script>/,
    ) ?? '{}',
  ) as { logo: string; url: string };
  expect(organization.logo).toMatch(new RegExp(`^${PREVIEW}/`));
  expect(organization.url).toBe(`${PRODUCTION}/`);
});

test('the sitemap and the feed name production URLs only', () => {
  expect(page('sitemap-0.xml')).not.toContain(PREVIEW);
  expect(page('rss.xml')).not.toContain(PREVIEW);
  expect(page('sitemap-0.xml')).toContain(`<loc>${PRODUCTION}/sectors/saas</loc>`);
});

test('a post and an issue dated after the build day are on it, so the CMS can link to them', () => {
  expect(existsSync(site.file('dist/blog', `${SCHEDULED.post}.html`))).toBe(true);
  expect(existsSync(site.file('dist/newsletter', `${SCHEDULED.issue}.html`))).toBe(true);
});
