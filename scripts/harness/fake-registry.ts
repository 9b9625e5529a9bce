/**
 * An npm registry on 127.0.0.1 that has no copy of some packages, as a mirror that lacks them
 * would: their metadata and tarballs answer 404, and everything else is fetched from the real
 * registry (or answers 404 too, without one). Point npm at it with npm_config_registry.
 *
 *   node scripts/harness/fake-registry.ts decap-cms     prints its URL, then serves until stopped
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { fileURLToPath } from 'node:url';

export interface FakeRegistry {
  url: string;
  /** The paths asked for, in order. */
  asked: string[];
  stop: () => Promise<void>;
}

/** The package a registry path is about: `/decap-cms/-/decap-cms-3.16.3.tgz` → `decap-cms`, `/@a%2fb` → `@a/b`. */
function packageOf(pathname: string): string {
  const [first = '', second = ''] = decodeURIComponent(pathname).split('/').filter(Boolean);
  return first.startsWith('@') && !first.includes('/') ? `${first}/${second}` : first;
}

export async function startFakeRegistry({
  refuse,
  upstream,
}: {
  /** The packages it has no copy of. */
  refuse: string[];
  /** The registry everything else comes from; without one, everything answers 404. */
  upstream?: string;
}): Promise<FakeRegistry> {
  const asked: string[] = [];
  const server: Server = createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://registry.invalid').pathname;
    asked.push(pathname);
    if (!upstream || refuse.includes(packageOf(pathname))) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of ['accept', 'user-agent', 'npm-command', 'npm-session']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    fetch(new URL(req.url ?? '/', upstream), { method: req.method, headers, redirect: 'follow' })
      .then((response) => {
        const kept: Record<string, string> = {};
        for (const name of ['content-type', 'etag', 'last-modified', 'cache-control'])
          if (response.headers.has(name)) kept[name] = response.headers.get(name) ?? '';
        res.writeHead(response.status, kept);
        if (response.body) Readable.fromWeb(response.body as WebReadableStream).pipe(res);
        else res.end();
      })
      .catch(() => res.writeHead(502).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    asked,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const registry = await startFakeRegistry({
    refuse: process.argv.slice(2),
    upstream: process.env.UPSTREAM_REGISTRY ?? 'https://registry.npmjs.org/',
  });
  console.log(registry.url);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void registry.stop());
}
