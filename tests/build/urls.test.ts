/**
 * Every URL the build gives out lands, under Netlify's rules for static files
 * (scripts/serve/netlify-paths.ts), on a file of dist/ with no redirect: links and images of every
 * page, canonical and link-preview URLs, structured data, the sitemap, the feed, the API's image
 * URLs, the manifest's icons and netlify.toml's rewrite targets. A folder page linked without
 * its slash (Astro's default output) costs a 301 on Netlify, and fails here. Reads dist/.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, test } from 'vitest';
import { resolveStaticPath } from '../../scripts/serve/netlify-paths';
import { builtFiles, builtPages, DIST, servedPath } from '../support/dist';
import { PROJECT_ROOT } from '../../scripts/harness/project';

const FILES = new Set(builtFiles());
const PAGES = builtPages();

const read = (file: string) => readFileSync(path.join(DIST, file), 'utf8');
const decodeEntities = (value: string) =>
  value.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'");

/** The site's origin, as the build wrote it into the home page's canonical link. */
const ORIGIN = new URL(/<link rel="canonical" href="([^"]+)"/.exec(read('index.html'))?.[1] ?? 'invalid:').origin;

/** What is wrong with an internal URL under Netlify's rules, or undefined when it lands on a file with 200. */
function problemWith(url: URL): string | undefined {
  const resolution = resolveStaticPath(url.pathname, (relative) => FILES.has(relative));
  if (resolution.kind === 'file') return undefined;
  if (resolution.kind === 'redirect') return `301 to ${resolution.location}`;
  return resolution.kind === 'missing' ? 'no such file (404)' : 'malformed path';
}

/** Each internal URL that does not land on a file, once, as "url → problem (where)". */
function problems(found: { where: string; value: string; base?: string }[]): string[] {
  const wrong = new Map<string, string[]>();
  for (const { where, value, base = `${ORIGIN}/` } of found) {
    if (/^(#|mailto:|tel:|data:|javascript:)/i.test(value)) continue;
    const url = new URL(value, base);
    if (url.origin !== ORIGIN) continue;
    const problem = problemWith(url);
    if (problem) wrong.set(`${value} → ${problem}`, [...(wrong.get(`${value} → ${problem}`) ?? []), where]);
  }
  return [...wrong].map(
    ([line, places]) => `${line} (${places[0]}${places.length > 1 ? ` and ${places.length - 1} more` : ''})`,
  );
}

const xml = new XMLParser({ ignoreAttributes: false });

describe('every URL the build gives out is served by Netlify without a redirect', () => {
  test('the build has pages to check', () => {
    expect(PAGES.length).toBeGreaterThan(30);
    expect(ORIGIN).toMatch(/^https?:\/\//);
  });

  test('every href, src and srcset of every page', () => {
    const found = PAGES.flatMap((page) => {
      const html = read(page);
      const base = `${ORIGIN}${servedPath(page)}`;
      const values = [...html.matchAll(/\s(href|src|srcset)="([^"]*)"/g)].flatMap(([, attribute, raw]) => {
        const value = decodeEntities(raw ?? '');
        // A srcset lists "url width" candidates separated by commas.
        return attribute === 'srcset'
          ? value.split(',').map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')
          : [value];
      });
      return values.filter(Boolean).map((value) => ({ where: page, value, base }));
    });
    expect(found.length).toBeGreaterThan(PAGES.length * 10);
    expect(problems(found)).toEqual([]);
  });

  test("every canonical URL is its page's own URL", () => {
    const wrong = PAGES.flatMap((page) => {
      const canonical = /<link rel="canonical" href="([^"]+)"/.exec(read(page))?.[1];
      if (!canonical) return [];
      const problem = problemWith(new URL(canonical));
      if (problem) return [`${page}: ${canonical} → ${problem}`];
      return canonical === `${ORIGIN}${servedPath(page)}`
        ? []
        : [`${page}: ${canonical} is not ${ORIGIN}${servedPath(page)}`];
    });
    expect(wrong).toEqual([]);
  });

  test('every link-preview URL and every URL in structured data', () => {
    const found = PAGES.flatMap((page) => {
      const html = read(page);
      const meta = [...html.matchAll(/<meta (?:property|name)="([^"]+)" content="(https?:[^"]+)"/g)].map(
        ([, name, value]) => ({ where: `${page} ${name}`, value: decodeEntities(value ?? '') }),
      );
      const ld = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].flatMap(
        ([, json]) => {
          const strings: string[] = [];
          JSON.stringify(JSON.parse(json ?? '{}'), (_key, item: unknown) => {
            if (typeof item === 'string' && item.startsWith(ORIGIN)) strings.push(item);
            return item;
          });
          return strings.map((value) => ({ where: `${page} JSON-LD`, value }));
        },
      );
      return [...meta, ...ld];
    });
    expect(found.filter(({ value }) => value.startsWith(ORIGIN)).length).toBeGreaterThan(PAGES.length * 3);
    expect(problems(found)).toEqual([]);
  });

  test('every sitemap <loc>', () => {
    const index = xml.parse(read('sitemap-index.xml')) as {
      sitemapindex: { sitemap: { loc: string } | { loc: string }[] };
    };
    const sitemaps = [index.sitemapindex.sitemap].flat().map(({ loc }) => ({ where: 'sitemap-index.xml', value: loc }));
    const locs = sitemaps.flatMap(({ value }) => {
      const file = new URL(value).pathname.slice(1);
      const parsed = xml.parse(read(file)) as { urlset: { url: { loc: string } | { loc: string }[] } };
      return [parsed.urlset.url].flat().map(({ loc }) => ({ where: file, value: loc }));
    });
    expect(locs.length).toBeGreaterThan(20);
    expect(problems([...sitemaps, ...locs])).toEqual([]);
  });

  test('every link of the RSS feed', () => {
    const feed = xml.parse(read('rss.xml')) as {
      rss: {
        channel: {
          link: string;
          item: { link: string; guid: { '#text': string } } | { link: string; guid: { '#text': string } }[];
        };
      };
    };
    const items = [feed.rss.channel.item].flat();
    const found = [
      { where: 'rss.xml channel', value: feed.rss.channel.link },
      ...items.flatMap((item) => [
        { where: 'rss.xml item', value: item.link },
        { where: 'rss.xml guid', value: item.guid['#text'] },
      ]),
    ];
    expect(items.length).toBeGreaterThan(0);
    expect(problems(found)).toEqual([]);
  });

  test("the API's image URLs, the manifest's icons, robots.txt and security.txt", () => {
    const api = read('api-data.json');
    const images = [...api.matchAll(/"imageUrl":"([^"]+)"/g)].map(([, value]) => ({
      where: 'api-data.json',
      value: value ?? '',
    }));
    const manifest = JSON.parse(read('manifest.webmanifest')) as { start_url: string; icons: { src: string }[] };
    const icons = [manifest.start_url, ...manifest.icons.map((icon) => icon.src)].map((value) => ({
      where: 'manifest.webmanifest',
      value,
    }));
    const lines = (file: string, field: string) =>
      [...read(file).matchAll(new RegExp(`^${field}: (\\S+)$`, 'gm'))].map(([, value]) => ({
        where: file,
        value: value ?? '',
      }));
    const found = [
      ...images,
      ...icons,
      ...lines('robots.txt', 'Sitemap'),
      ...lines('.well-known/security.txt', 'Canonical'),
    ];
    expect(images.length).toBeGreaterThan(5);
    expect(problems(found)).toEqual([]);
  });

  test("netlify.toml's rewrite targets", () => {
    const toml = readFileSync(path.join(PROJECT_ROOT, 'netlify.toml'), 'utf8');
    const targets = [...toml.matchAll(/^\s*to = "([^"]+)"/gm)].map(([, value]) => ({
      where: 'netlify.toml',
      value: value ?? '',
    }));
    expect(targets.length).toBeGreaterThanOrEqual(3);
    expect(problems(targets)).toEqual([]);
  });
});
