/**
 * What a page asks for before its first paint, read from dist/ (which `npm test` builds first):
 * the document and its stylesheet, and nothing that would add a round trip on a slow phone
 * network. Lighthouse counts every request that ends before the largest paint.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { SECTOR_SLUGS } from '../support/routes';
import { builtPages, DIST } from '../support/dist';
import { PROJECT_ROOT } from '../../scripts/harness/project';

const PAGES = builtPages();

/** The built file of a route, whichever of Netlify's two page forms the build writes. */
function pageFile(route: string): string {
  const candidates = [path.join(DIST, `${route}.html`), path.join(DIST, route, 'index.html')];
  const file = candidates.find((candidate) => existsSync(candidate));
  if (!file) throw new Error(`no built page for ${route}`);
  return file;
}

describe('before the first paint', () => {
  test('the build has pages to check', () => {
    expect(PAGES.length).toBeGreaterThan(30);
  });

  test.each(PAGES)('%s fetches no script of its own: what runs at load is written into the page', (page) => {
    const html = readFileSync(path.join(DIST, page), 'utf8');
    expect(html.match(/<script\b[^>]*\ssrc="\/[^"]*"/g) ?? []).toEqual([]);
    expect(html.match(/<link\b[^>]*rel="(?:modulepreload|preload)"[^>]*>/g) ?? []).toEqual([]);
  });

  test.each(SECTOR_SLUGS)(
    'the illustration of /sectors/%s is drawn by its page, shape for shape as the file',
    (slug) => {
      const html = readFileSync(pageFile(`/sectors/${slug}`), 'utf8');
      const file = readFileSync(path.join(PROJECT_ROOT, 'content', 'images', 'sectors', `${slug}.svg`), 'utf8');
      const drawn = /<main\b[\s\S]*?(<svg\b[^>]*\brole="img"[\s\S]*?<\/svg>)/.exec(html)?.[1] ?? '';
      expect(drawn).toMatch(/^<svg\b[^>]*\saria-label="[^"]+"/);
      expect(shapes(drawn)).toEqual(shapes(file));
      expect(html.match(/<img\b[^>]*\ssrc="[^"]*\.svg"/g) ?? [], 'no request for it').toEqual([]);
    },
  );

  test.each(['/', '/sectors', '/blog'])('%s draws the illustrations of its cards and fetches none', (route) => {
    const html = readFileSync(pageFile(route), 'utf8');
    expect(html.match(/<img\b[^>]*\ssrc="\/[^"]*\.svg"/g) ?? []).toEqual([]);
    expect(
      html.match(/<article\b[\s\S]*?<svg viewBox="0 0 1200 630"[^>]*\saria-hidden="true"/g)?.length,
    ).toBeGreaterThan(2);
  });

  test.each(PAGES)('%s gives each id to one element, and every url(#…) and href="#…" finds its own', (page) => {
    const html = readFileSync(path.join(DIST, page), 'utf8');
    const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map(([, id]) => id);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    const references = [...html.matchAll(/url\(#([^)]+)\)|\shref="#([^"]+)"/g)].map(([, url, href]) => url ?? href);
    expect(references.filter((id) => !ids.includes(id))).toEqual([]);
  });
});

/** The shapes of a drawing, in order, with the names of the gradients and patterns they paint with left out. */
function shapes(svg: string): string[] {
  return (svg.match(/<(?:path|rect|circle|ellipse|line|polyline|polygon|stop)\b[^>]*>/g) ?? []).map((shape) =>
    shape.replace(/url\(#[^)]*\)/g, 'url(#)').replace(/\s*\/?>$/, ''),
  );
}
