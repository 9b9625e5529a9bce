import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { staticCache } from '../../scripts/serve/static-cache';

let folder: string;
let file: string;
let config: string;
let loads: number;

/** What NetlifyDev answers for the file: its bytes as they are on disk now, with a path's headers. */
function load(status = 200) {
  return () => {
    loads += 1;
    return Promise.resolve(
      new Response(readFileSync(file), {
        status,
        headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=31536000' },
      }),
    );
  };
}

const get = (headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br' }, method = 'GET') =>
  new Request('http://localhost/_astro/page.js', { method, headers });

/** Moves a file's modification time, as a rebuild does even when the size stays the same. */
function touch(target: string, seconds: number) {
  const when = new Date(Date.now() + seconds * 1000);
  utimesSync(target, when, when);
}

beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'static-cache-'));
  file = path.join(folder, 'page.js');
  config = path.join(folder, 'netlify.toml');
  writeFileSync(file, 'console.log("first");'.repeat(50));
  writeFileSync(config, '[build]\n');
  loads = 0;
});

afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe('staticCache', () => {
  test('answers a file from memory once read, compressed once, with its headers and length', async () => {
    const cache = staticCache([config]);
    const first = await cache.serve(get(), file, load());
    const second = await cache.serve(get(), file, load());
    expect(loads).toBe(1);
    for (const answer of [first, second]) {
      const body = Buffer.from(await answer!.arrayBuffer());
      expect(brotliDecompressSync(body).toString()).toBe('console.log("first");'.repeat(50));
      expect(answer!.headers.get('content-encoding')).toBe('br');
      expect(answer!.headers.get('vary')).toBe('Accept-Encoding');
      expect(answer!.headers.get('content-length')).toBe(String(body.length));
      expect(answer!.headers.get('cache-control')).toBe('public, max-age=31536000');
    }
  });

  test.each([
    ['gzip only', { 'accept-encoding': 'gzip' }, 'gzip'],
    ['no compression', {}, null],
  ])('a client that accepts %s gets the file so', async (_what, headers, encoding) => {
    const cache = staticCache([config]);
    await cache.serve(get(), file, load());
    const answer = await cache.serve(get(headers), file, load());
    expect(answer!.headers.get('content-encoding')).toBe(encoding);
    const body = Buffer.from(await answer!.arrayBuffer());
    expect((encoding === 'gzip' ? gunzipSync(body) : body).toString()).toBe('console.log("first");'.repeat(50));
  });

  test('reads the file again once it has changed', async () => {
    const cache = staticCache([config]);
    await cache.serve(get({}), file, load());
    writeFileSync(file, 'console.log("second");');
    touch(file, 5);
    const answer = await cache.serve(get({}), file, load());
    expect(loads).toBe(2);
    expect(await answer!.text()).toBe('console.log("second");');
  });

  test('reads every file again once the configuration that gives its headers has changed', async () => {
    const cache = staticCache([config]);
    await cache.serve(get(), file, load());
    touch(config, 5);
    await cache.serve(get(), file, load());
    expect(loads).toBe(2);
  });

  test('answers a HEAD with the headers of the kept answer and no body', async () => {
    const cache = staticCache([config]);
    await cache.serve(get(), file, load());
    const head = await cache.serve(get({ 'accept-encoding': 'br' }, 'HEAD'), file, load());
    expect(loads).toBe(1);
    expect(head!.headers.get('content-encoding')).toBe('br');
    expect(head!.body).toBeNull();
  });

  test.each([
    ['an answer other than 200', () => get(), 404],
    ['a range request', () => get({ range: 'bytes=0-9' }), 200],
    ['a POST', () => get({}, 'POST'), 200],
  ])('keeps nothing of %s', async (_what, request, status) => {
    const cache = staticCache([config]);
    await cache.serve(request(), file, load(status));
    await cache.serve(request(), file, load(status));
    expect(loads).toBe(2);
  });

  test('keeps no file over 1 MiB, and answers it whole', async () => {
    writeFileSync(file, 'x'.repeat(1024 * 1024 + 1));
    const cache = staticCache([config]);
    const answer = await cache.serve(get({}), file, load());
    await cache.serve(get({}), file, load());
    expect(loads).toBe(2);
    expect((await answer!.arrayBuffer()).byteLength).toBe(1024 * 1024 + 1);
  });
});
