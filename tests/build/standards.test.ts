/**
 * The built site against the standards: valid HTML (the Nu Html Checker), no broken internal
 * link, image or anchor (linkinator against the local production server), a sitemap, robots.txt
 * and RSS feed that parse and agree with the pages, and structured data with its required
 * properties. Reads dist/, which `npm test` builds first.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { LinkChecker } from 'linkinator';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSiteServer, type SiteServer } from '../../scripts/harness/site-server';
import { builtPages, DIST, servedPath } from '../support/dist';
import { UNLISTED_ROUTES } from '../support/routes';
import { PROJECT_ROOT } from '../../scripts/harness/project';

const VNU = path.join(PROJECT_ROOT, 'node_modules', 'vnu-jar', 'build', 'dist', 'vnu.jar');

/** Every built page as a full path. */
const htmlFiles = () => builtPages().map((page) => path.join(DIST, page));

/** The URL path of a built page: dist/blog/x.html → /blog/x (and dist/blog.html → /blog). */
const pathOf = (file: string) => servedPath(path.relative(DIST, file).split(path.sep).join('/'));
/** A page marked noindex (not-found pages, the admin, the pages sent by e-mail): the sitemap leaves it out. */
const isNoindex = (file: string) => /<meta name="robots" content="noindex\b/.test(readFileSync(file, 'utf8'));
const xml = new XMLParser({ ignoreAttributes: false });
const pathsOf = (urls: string[]) => urls.map((url) => new URL(url).pathname).sort();

/**
 * Two messages of the checker's CSS validator, which predates the CSS Properties and Values API:
 * it calls `@property` (in every current browser since July 2024) an unknown at-rule, and an
 * unknown property inside an `@supports` condition an error, where CSS makes that condition false
 * (Tailwind's test for browsers without `margin-trim`). Nothing else is filtered.
 */
const OUTDATED_CSS_MESSAGES =
  '.*(Unrecognized at-rule “@property”|“margin-trim”: Property “margin-trim” doesn.t exist).*';

test('every built page is valid HTML (Nu Html Checker)', () => {
  const files = htmlFiles();
  expect(files.length).toBeGreaterThan(30);
  const result = spawnSync(
    'java',
    ['-jar', VNU, '--errors-only', '--format', 'text', '--filterpattern', OUTDATED_CSS_MESSAGES, ...files],
    { encoding: 'utf8' },
  );
  const report = `${result.stdout}${result.stderr}`.replaceAll(`file:${DIST}`, '').trim();
  expect(report).toBe('Document checking completed. No errors found.');
  expect(result.status).toBe(0);
}, 60_000);

describe('sitemap, robots.txt and RSS', () => {
  const publicPages = htmlFiles()
    .filter((file) => !isNoindex(file))
    .map(pathOf)
    .sort();

  test('the sitemap lists every page not marked noindex, and nothing else', () => {
    const index = xml.parse(readFileSync(path.join(DIST, 'sitemap-index.xml'), 'utf8')) as {
      sitemapindex: { sitemap: { loc: string } | { loc: string }[] };
    };
    const sitemaps = [index.sitemapindex.sitemap].flat();
    const urls = sitemaps.flatMap(({ loc }) => {
      const parsed = xml.parse(readFileSync(path.join(DIST, new URL(loc).pathname), 'utf8')) as {
        urlset: { url: { loc: string }[] };
      };
      return parsed.urlset.url.map((url) => url.loc);
    });
    expect(pathsOf(urls)).toEqual(publicPages);
  });

  test('robots.txt disallows /admin and names the sitemap', () => {
    const robots = readFileSync(path.join(DIST, 'robots.txt'), 'utf8');
    expect(robots).toMatch(/^Disallow: \/admin$/m);
    expect(robots).toMatch(/^Sitemap: https?:\/\/\S+\/sitemap-index\.xml$/m);
  });

  test('the RSS feed has one item per published post, linking to pages that exist', () => {
    const feed = xml.parse(readFileSync(path.join(DIST, 'rss.xml'), 'utf8')) as {
      rss: { channel: { title: string; item: { title: string; link: string; pubDate: string }[] } };
    };
    const items = [feed.rss.channel.item].flat();
    const posts = publicPages.filter((pathname) => /^\/blog\/./.test(pathname));
    expect(pathsOf(items.map((item) => item.link))).toEqual(posts);
    for (const item of items) expect(Number.isNaN(Date.parse(item.pubDate))).toBe(false);
  });
});

describe('structured data', () => {
  const REQUIRED: Record<string, string[]> = {
    ProfessionalService: ['name', 'url', 'logo', 'address'],
    BreadcrumbList: ['itemListElement'],
    BlogPosting: ['headline', 'image', 'datePublished', 'author', 'publisher'],
    Service: ['name', 'provider', 'offers'],
  };

  /**
   * The blocks each kind of page must carry (by URL path; every other page carries none), so a
   * page whose block goes missing fails here rather than passing with nothing to check.
   */
  const EXPECTED_TYPES: [RegExp, string[]][] = [
    [/^\/$/, ['ProfessionalService']],
    [/^\/blog\/(?!404$)[^/]+$/, ['BlogPosting', 'BreadcrumbList']],
    [/^\/newsletter\/(?!404$|confirm$|unsubscribe$)[^/]+$/, ['BreadcrumbList']],
    [/^\/(sectors|mini-apps)\/(?!404$)[^/]+$/, ['BreadcrumbList']],
    [/^\/zoho$/, ['Service']],
  ];

  test.each(htmlFiles().map((file) => [pathOf(file), file]))(
    '%s carries the JSON-LD blocks of its kind of page',
    (page, file) => {
      const html = readFileSync(file, 'utf8');
      const types = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(([, json]) =>
        String((JSON.parse(json ?? '') as Record<string, unknown>)['@type']),
      );
      const expected = EXPECTED_TYPES.find(([pattern]) => pattern.test(page))?.[1] ?? [];
      expect(types.sort()).toEqual([...expected].sort());
    },
  );

  test.each(htmlFiles().map((file) => [pathOf(file), file]))(
    'every JSON-LD block of %s parses and has its required properties',
    (_page, file) => {
      const html = readFileSync(file, 'utf8');
      for (const [, json] of html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)) {
        const data = JSON.parse(json ?? '') as Record<string, unknown>;
        expect(data['@context']).toBe('https://schema.org');
        const type = String(data['@type']);
        expect(Object.keys(REQUIRED), `unexpected type ${type}`).toContain(type);
        for (const property of REQUIRED[type] ?? []) expect(data[property], `${type}.${property}`).toBeTruthy();
        if (type === 'Service')
          expect(data.offers).toMatchObject({ '@type': 'Offer', price: '0', priceCurrency: 'USD' });
        if (type === 'BreadcrumbList')
          for (const item of data.itemListElement as { item: string }[]) expect(item.item).toMatch(/^https?:\/\//);
      }
    },
  );
});

describe('links', () => {
  let server: SiteServer | undefined;
  let origin = '';

  beforeAll(async () => {
    server = await startSiteServer();
    origin = server.origin;
  }, 60_000);
  afterAll(() => server?.stop());

  test('no internal link, image or anchor is broken', async () => {
    const checker = new LinkChecker();
    const result = await checker.check({
      path: `${origin}/`,
      recurse: true,
      checkFragments: true,
      concurrency: 20,
      // Only this site: share links and the LinkedIn page are other hosts.
      linksToSkip: async (link: string) => !link.startsWith(origin) || link.includes('/api/admin/'),
    });
    const broken = result.links
      .filter((link) => link.state === 'BROKEN')
      .map((link) => `${link.status} ${link.url} (on ${link.parent})`);
    expect(broken).toEqual([]);
    // The crawl reached every listed page from the home page, so each was checked.
    const reached = new Set(
      result.links.filter((link) => link.state === 'OK').map((link) => new URL(link.url).pathname),
    );
    const pages = htmlFiles()
      .filter((file) => !isNoindex(file))
      .map(pathOf);
    expect(pages.length).toBeGreaterThan(20);
    expect(pages.filter((pathname) => !reached.has(pathname))).toEqual([]);
  }, 120_000);

  test.each(UNLISTED_ROUTES)('no link, image or anchor of %s, which no page links to, is broken', async (route) => {
    const result = await new LinkChecker().check({
      path: `${origin}${route}`,
      checkFragments: true,
      linksToSkip: async (link: string) => !link.startsWith(origin),
    });
    const checked = result.links.filter((link) => link.state !== 'SKIPPED');
    expect(checked.length).toBeGreaterThan(10);
    expect(checked.filter((link) => link.state === 'BROKEN').map((link) => `${link.status} ${link.url}`)).toEqual([]);
  });
});
