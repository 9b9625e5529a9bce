import { describe, expect, test } from 'vitest';
import { hostOrigin, resolveStaticPath } from '../../scripts/serve/netlify-paths';

/** A deploy with a page as a file, a page as a folder, a page as both, and other files. */
const FILES = new Set([
  'index.html',
  'file.html',
  'folder/index.html',
  'both.html',
  'both/index.html',
  'favicon.ico',
  '404.html',
  'sectors/404.html',
]);
const resolve = (pathname: string) => resolveStaticPath(pathname, (relative) => FILES.has(relative));

describe("resolveStaticPath follows Netlify's pretty URLs", () => {
  test.each([
    ['/', { kind: 'file', file: 'index.html' }],
    ['/file', { kind: 'file', file: 'file.html' }],
    ['/file/', { kind: 'redirect', location: '/file' }],
    ['/file.html', { kind: 'file', file: 'file.html' }],
    ['/folder', { kind: 'redirect', location: '/folder/' }],
    ['/folder/', { kind: 'file', file: 'folder/index.html' }],
    ['/folder/index.html', { kind: 'file', file: 'folder/index.html' }],
    ['/both', { kind: 'file', file: 'both.html' }],
    ['/both/', { kind: 'file', file: 'both/index.html' }],
    ['/favicon.ico', { kind: 'file', file: 'favicon.ico' }],
    ['/sectors/404', { kind: 'file', file: 'sectors/404.html' }],
    ['/sectors', { kind: 'missing' }],
    ['/sectors/', { kind: 'missing' }],
    ['/nothing', { kind: 'missing' }],
  ])('%s', (pathname, expected) => {
    expect(resolve(pathname)).toEqual(expected);
  });

  test('a redirect keeps the path as it was encoded', () => {
    const files = new Set(['caf\u00e9.html']);
    expect(resolveStaticPath('/caf%C3%A9/', (relative) => files.has(relative))).toEqual({
      kind: 'redirect',
      location: '/caf%C3%A9',
    });
    expect(resolveStaticPath('/caf%C3%A9', (relative) => files.has(relative))).toEqual({
      kind: 'file',
      file: 'caf\u00e9.html',
    });
  });

  test.each(['/blog/%E0%A4%A', '/%', '/%zz'])('%s does not decode', (pathname) => {
    expect(resolve(pathname)).toEqual({ kind: 'malformed' });
  });

  test.each(['/%2e%2e/etc/passwd', '/folder/%2E%2E/file', '/file%00'])('%s names no file', (pathname) => {
    expect(resolve(pathname)).toEqual({ kind: 'missing' });
  });
});

describe('hostOrigin reads the Host header', () => {
  test.each([
    ['localhost:4321', 'http://localhost:4321'],
    ['127.0.0.1', 'http://127.0.0.1'],
    ['[::1]:4321', 'http://[::1]:4321'],
    ['Example.COM', 'http://example.com'],
  ])('%s names %s', (host, origin) => {
    expect(hostOrigin(host)).toBe(origin);
  });

  test.each(['localhost:4600@evil.example', 'localhost:99999', '[::1', 'localhost/path', 'localhost?', 'a b'])(
    '%s names no host',
    (host) => {
      expect(hostOrigin(host)).toBeUndefined();
    },
  );
});
