import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { inlineSvg } from '../../src/lib/inline-svg';

const SIZE = { width: 1200, height: 630 };

describe('inlineSvg', () => {
  test('keeps the drawing and its root attributes, sized by the file, without what HTML does not need', () => {
    const svg = inlineSvg(
      '<?xml version="1.0"?>\n<!-- drawn by hand -->\n<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="600" height="315" viewBox="0 0 1200 630" fill="none"><rect width="10" height="10" fill="#fff"/></svg>\n',
      'p',
      SIZE,
    );
    expect(svg).toEqual({
      attributes: { viewBox: '0 0 1200 630', fill: 'none', width: '1200', height: '630' },
      body: '<rect width="10" height="10" fill="#fff"/>',
    });
  });

  test('gives a file without a viewBox one of its size, so that it scales with its box', () => {
    expect(inlineSvg('<svg width="1200" height="630"><circle r="4"/></svg>', 'p', SIZE)?.attributes.viewBox).toBe(
      '0 0 1200 630',
    );
  });

  test('prefixes its ids and every reference to them, and leaves other text alone', () => {
    const svg = inlineSvg(
      '<svg viewBox="0 0 1200 630"><defs><linearGradient id="bg"/><path id="p1" d="M0 0"/></defs><rect fill="url(#bg)" stroke="url( \'#bg\' )"/><use href="#p1"/><use xlink:href="#p1"/><text>bg #bg url(#none)</text></svg>',
      'saas-x1',
      SIZE,
    );
    expect(svg?.body).toBe(
      '<defs><linearGradient id="saas-x1-bg"/><path id="saas-x1-p1" d="M0 0"/></defs><rect fill="url(#saas-x1-bg)" stroke="url( \'#saas-x1-bg\' )"/><use href="#saas-x1-p1"/><use xlink:href="#saas-x1-p1"/><text>bg #bg url(#none)</text>',
    );
  });

  test.each([
    ['a <style> element, which would style the whole page', '<svg><style>rect{fill:red}</style><rect/></svg>'],
    ['a style attribute, which the page policy refuses', '<svg><rect style="fill:red"/></svg>'],
    ['a class, which would pick up the site CSS', '<svg><rect class="hidden"/></svg>'],
    ['a link, which would become one of the page', '<svg><a href="/x"><rect/></a></svg>'],
    ['an image of its own to fetch', '<svg><image href="photo.png"/></svg>'],
    ['a reference to another file', '<svg><use href="sprite.svg#a"/></svg>'],
    ['a paint from another file', '<svg><rect fill="url(other.svg#g)"/></svg>'],
    ['a doctype with entities', '<!DOCTYPE svg [<!ENTITY a "b">]><svg><rect/></svg>'],
    ['no svg root at all', '<html><body>not a picture</body></html>'],
  ])('is undefined for %s, so that it is shown as an image instead', (_, text) => {
    expect(inlineSvg(text, 'p', SIZE)).toBeUndefined();
  });

  test('takes every illustration in content/ as it is', () => {
    const folder = new URL('../../content/images/', import.meta.url);
    const files = readdirSync(folder, { recursive: true })
      .map(String)
      .filter((name) => name.endsWith('.svg'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files)
      expect(inlineSvg(readFileSync(new URL(file, folder), 'utf8'), 'p', SIZE), file).toBeDefined();
  });
});
