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

  test.each(SECTOR_SLUGS)('the illustration of /sectors/%s is written into its page, as the file it is', (slug) => {
    const html = readFileSync(pageFile(`/sectors/${slug}`), 'utf8');
    const svg = readFileSync(path.join(PROJECT_ROOT, 'content', 'images', 'sectors', `${slug}.svg`), 'utf8').trim();
    const first = /<main\b[\s\S]*?<img src="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(first).toMatch(/^data:image\/svg\+xml,/);
    expect(
      decodeURIComponent(first.replace('data:image/svg+xml,', '')) === svg,
      'the data URL holds the file in content/ unchanged',
    ).toBe(true);
  });
});
