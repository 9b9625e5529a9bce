import { describe, expect, test } from 'vitest';
import { FLOOR_STYLESHEET, floorPage, floorStylesheet } from '../../scripts/bench/floor-page';

describe('the floor page the audit compares pages with', () => {
  const html = floorPage();

  test('is one document of about 10 KB', () => {
    expect(Buffer.byteLength(html)).toBeGreaterThanOrEqual(10 * 1024);
    expect(Buffer.byteLength(html)).toBeLessThan(11 * 1024);
  });

  test('links what every page links, its stylesheet, icon and manifest, and nothing else', () => {
    expect(html.match(/\s(src|href|srcset|poster|data)="[^"]*"/gi)).toEqual([
      ' href="/favicon.svg"',
      ' href="/manifest.webmanifest"',
      ` href="/${FLOOR_STYLESHEET}"`,
    ]);
    expect(html).not.toMatch(/<style\b/i);
    expect(html).not.toMatch(/<(script|img|iframe|object|embed|video|audio)\b/i);
    expect(floorStylesheet()).not.toMatch(/url\(|@import/i);
  });

  test('is laid out for a phone, like the pages', () => {
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  });

  test('is the same in every run', () => {
    expect(floorPage()).toBe(html);
  });
});

describe('the bare floor the audit shows beside it', () => {
  const html = floorPage({ bare: true });

  test('is the same text with its CSS inline and nothing to fetch', () => {
    expect(html.match(/<style>/g)).toHaveLength(1);
    // The one link is an empty icon, so that the browser does not fetch /favicon.ico.
    expect(html.match(/\s(src|href|srcset|poster|data)="[^"]*"/gi)).toEqual([' href="data:,"']);
    expect(html.replace(/<head>[\s\S]*<\/head>/, '')).toBe(floorPage().replace(/<head>[\s\S]*<\/head>/, ''));
  });
});
