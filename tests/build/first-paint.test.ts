/**
 * What a page asks for before its first paint, read from dist/ (which `npm test` builds first):
 * the document alone, which carries the CSS of its markup; the whole stylesheet, the page's
 * scripts and the pictures below the first screen wait in templates for the paint, and the markup
 * below the first screen in `<noscript data-later>` (src/integrations/first-paint.ts). Lighthouse
 * counts every request that ends before the largest paint, and a document past the first round
 * trip costs a second one.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { SECTOR_SLUGS } from '../support/routes';
import { builtPages, DIST } from '../support/dist';
import { PROJECT_ROOT } from '../../scripts/harness/project';
import { PAGE_TYPES } from '../../scripts/bench/page-types';
import { criticalRules } from '../../src/integrations/critical-css';
import { compressedSize, FIRST_ROUND_TRIP_BYTES, withOwnHashes } from '../../src/integrations/first-paint';
import { heldRuns, LATER_OPEN } from '../../src/integrations/first-screen';

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

  test.each(PAGES)('%s asks for nothing but itself before it paints, and what waits for the paint exists', (page) => {
    const html = readFileSync(path.join(DIST, page), 'utf8');
    const later = /<template id="after-paint">([\s\S]*?)<\/template>/.exec(html)?.[1] ?? '';
    const atLoad = html.replace(/<template\b[\s\S]*?<\/template>|<noscript\b[^>]*>[\s\S]*?<\/noscript>/g, '');
    expect(atLoad.match(/<script\b[^>]*\ssrc=/g) ?? []).toEqual([]);
    expect(atLoad.match(/<link\b[^>]*rel="(?:modulepreload|preload)"[^>]*>/g) ?? []).toEqual([]);
    expect(atLoad.match(/<img\b[^>]*\ssrc="\/[^"]*"/g) ?? []).toEqual([]);
    for (const [, file] of later.matchAll(/\s(?:src|href)="(\/_astro\/[^"]+)"/g))
      expect(existsSync(path.join(DIST, file ?? '')), `${file} waits for the paint of ${page}`).toBe(true);
    if (page.startsWith('admin/')) return;
    // A page within the first round trip carries its CSS; one that would be past it with its CSS links the stylesheet.
    const link = /<link rel="stylesheet" href="(\/_astro\/[^"]+\.css)">/.exec(atLoad);
    if (link) {
      // The page as the build would have written it with its CSS: the link in the template instead.
      const css = criticalRules(readFileSync(path.join(DIST, link[1] ?? ''), 'utf8'), html);
      const inlined = withOwnHashes(
        html
          .replace(link[0], `<style>${css}</style><noscript>${link[0]}</noscript>`)
          .replace('<template id="after-paint">', `<template id="after-paint">${link[0]}`),
      );
      expect(compressedSize(inlined)).toBeGreaterThan(FIRST_ROUND_TRIP_BYTES);
    } else {
      expect(compressedSize(html)).toBeLessThanOrEqual(FIRST_ROUND_TRIP_BYTES);
      expect(later).toMatch(/^<link rel="stylesheet" href="\/_astro\/[^"]+\.css">/);
    }
  });

  test.each(PAGE_TYPES.filter((type) => !type.noindex))(
    'the $name page arrives whole in the first round trip, with the CSS of its markup',
    ({ route }) => {
      const html = readFileSync(pageFile(route), 'utf8');
      expect(compressedSize(html)).toBeLessThanOrEqual(FIRST_ROUND_TRIP_BYTES);
      expect(html).toMatch(/<style>[^<]*@layer utilities\{/);
      expect(html).toMatch(/<noscript><link rel="stylesheet" href="\/_astro\/[^"]+\.css"><\/noscript>/);
    },
  );

  test.each(PAGE_TYPES.filter((type) => !type.noindex))(
    'the $name page holds back the markup below its first screen, its footer among it, and nothing that runs',
    ({ route }) => {
      const html = readFileSync(pageFile(route), 'utf8');
      const held = heldRuns(html);
      expect(held.join('')).toMatch(/<footer\b/);
      for (const run of held) expect(run).not.toMatch(/<(?:script|noscript)\b/);
      // No footer is drawn in the first paint.
      expect(html.slice(0, html.indexOf(LATER_OPEN))).not.toMatch(/<footer\b/);
    },
  );

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

  test.each([
    ['/', 0],
    ['/sectors', 1],
    ['/blog', 1],
  ])('%s draws %i card illustration with the page; the others wait for the paint', (route, drawn) => {
    const html = readFileSync(pageFile(route), 'utf8');
    const held = heldRuns(html).join('');
    const cards = html.match(/<article\b[\s\S]*?<\/article>/g) ?? [];
    const illustrated = cards.filter((card) => /<svg viewBox="0 0 1200 630"|\.svg"/.test(card));
    expect(illustrated.length).toBeGreaterThan(2);
    const inline = illustrated.filter((card) => /<svg viewBox="0 0 1200 630"[^>]*\saria-hidden="true"/.test(card));
    expect(inline).toHaveLength(drawn);
    for (const card of illustrated.slice(drawn)) {
      // Below the first screen, the card comes with the markup held back, its image with it.
      if (held.includes(card)) {
        expect(card).toMatch(/<img src="\/_astro\/[^"]+\.svg"[^>]*loading="lazy"/);
        continue;
      }
      expect(card).toMatch(/<template data-after-paint><img src="\/_astro\/[^"]+\.svg"[^>]*loading="lazy"/);
      expect(card).toMatch(/<noscript><img src="\/_astro\/[^"]+\.svg"/);
    }
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
