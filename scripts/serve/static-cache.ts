/**
 * The build's files as the local server answers them after the first time: from memory, and
 * compressed once per encoding, as Netlify's CDN answers a deploy's files from its cache.
 *
 * Every request used to go through NetlifyDev (which reads netlify.toml's headers again) and a
 * fresh compression, both on libuv's few threads: a page's scripts, asked for together as it
 * loaded, waited 17 to 49 ms each where the page itself took 10 ms. Lighthouse estimates a
 * server's response time from the median of all its answers, so the audit counted that wait
 * against the page's own document.
 *
 * What NetlifyDev answers for a file depends on its path alone (the headers netlify.toml and
 * `_headers` give a path; no rule here has conditions), so an answer is kept per file and used
 * while the file and those configuration files are unchanged (their size and modification time).
 * Only a plain 200 to a GET or HEAD is kept; a range request goes through as before.
 */
import { statSync } from 'node:fs';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';

/** Types sent compressed to a client that accepts it, as Netlify's CDN does. */
const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|rss\+xml|manifest\+json)|image\/svg\+xml)/;

/** Larger files (the CMS's bundle) are streamed and compressed on the way, as before, rather than held. */
const MAX_KEPT_BYTES = 1024 * 1024;

export type Encoding = 'br' | 'gzip';

/** The encoding a response of `type` is sent in to a client that sent `acceptEncoding`, if any. */
export function encodingFor(type: string, acceptEncoding: string): Encoding | undefined {
  if (!COMPRESSIBLE.test(type)) return undefined;
  if (/\bbr\b/.test(acceptEncoding)) return 'br';
  return /\bgzip\b/.test(acceptEncoding) ? 'gzip' : undefined;
}

/** Brotli at the quality of a compressing proxy (a CDN compresses on the fly at about this level). */
export const BROTLI_QUALITY = 5;

const compress: Record<Encoding, (body: Buffer) => Buffer> = {
  br: (body) => brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }),
  gzip: (body) => gzipSync(body),
};

interface Kept {
  stamp: string;
  headers: [string, string][];
  body: Buffer;
  encoded: Map<Encoding, Buffer>;
}

/** Size and modification time of each file, or "-" for one that is missing. */
function stampOf(files: string[]): string {
  return files
    .map((file) => {
      try {
        const { size, mtimeMs } = statSync(file);
        return `${size}:${mtimeMs}`;
      } catch {
        return '-';
      }
    })
    .join('|');
}

/**
 * A cache of the answers to `file`s (absolute paths). `configFiles` are the files whose change
 * changes every answer (netlify.toml, the build's `_headers` and `_redirects`).
 */
export function staticCache(configFiles: string[]) {
  const kept = new Map<string, Kept>();

  function answer(entry: Kept, request: Request): Response {
    const headers = new Headers(entry.headers);
    const encoding = encodingFor(headers.get('content-type') ?? '', request.headers.get('accept-encoding') ?? '');
    let body = entry.body;
    if (encoding) {
      body = entry.encoded.get(encoding) ?? compress[encoding](entry.body);
      entry.encoded.set(encoding, body);
      headers.set('content-encoding', encoding);
      headers.set('vary', 'Accept-Encoding');
    }
    headers.set('content-length', String(body.length));
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
  }

  return {
    /** The answer to `request` for `file`: the kept one while nothing changed, else `load()`'s, kept when it may be. */
    async serve(request: Request, file: string, load: () => Promise<Response | undefined>) {
      if ((request.method !== 'GET' && request.method !== 'HEAD') || request.headers.has('range')) return load();
      const stamp = stampOf([file, ...configFiles]);
      const entry = kept.get(file);
      if (entry?.stamp === stamp) return answer(entry, request);
      // A HEAD before any GET of the file goes through as before: it has no body to keep.
      const response = await load();
      if (!response || response.status !== 200 || request.method === 'HEAD') return response;
      const body = Buffer.from(await response.arrayBuffer());
      if (body.length > MAX_KEPT_BYTES) return new Response(new Uint8Array(body), response);
      const fresh: Kept = { stamp, headers: [...response.headers], body, encoded: new Map() };
      kept.set(file, fresh);
      return answer(fresh, request);
    },
  };
}
