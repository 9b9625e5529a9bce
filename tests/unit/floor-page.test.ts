import { describe, expect, test } from 'vitest';
import { floorPage } from '../../scripts/bench/floor-page';

describe('the floor page the audit compares pages with', () => {
  const html = floorPage();

  test('is one document of about 10 KB', () => {
    expect(Buffer.byteLength(html)).toBeGreaterThanOrEqual(10 * 1024);
    expect(Buffer.byteLength(html)).toBeLessThan(11 * 1024);
  });

  test('has its CSS inline and nothing to fetch', () => {
    expect(html.match(/<style>/g)).toHaveLength(1);
    // The one link is an empty icon, so that the browser does not fetch /favicon.ico.
    expect(html.match(/\s(src|href|srcset|poster|data)="[^"]*"/gi)).toEqual([' href="data:,"']);
    expect(html).not.toMatch(/url\(|@import/i);
    expect(html).not.toMatch(/<(script|img|iframe|object|embed|video|audio)\b/i);
  });

  test('is laid out for a phone, like the pages', () => {
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  });

  test('is the same in every run', () => {
    expect(floorPage()).toBe(html);
  });
});
