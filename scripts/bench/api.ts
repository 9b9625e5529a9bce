/**
 * Benchmarks the /api on the local production server: requests per second and p50/p99 latency
 * for a content GET and a newsletter subscription, with the embedded store and with Redis (a
 * real redis-server behind the Upstash REST bridge the tests use), plus the size of each function
 * with its dependencies as one esbuild bundle (a measure of the code it loads; Netlify itself
 * ships v2 functions traced by nft, not bundled).
 *
 *   npm run bench:api            (builds first)
 *   BENCH_SECONDS=10 npm run bench:api
 */
import autocannon from 'autocannon';
import { build } from 'esbuild';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { startRedisServer } from '../harness/redis-server.ts';
import { startSiteServer } from '../harness/site-server.ts';
import { startUpstashBridge } from '../harness/upstash-bridge.ts';
import { PROJECT_ROOT } from '../harness/project.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

interface Row {
  store: string;
  endpoint: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function measure(url: string, label: string, store: string, options: Partial<autocannon.Options>): Promise<Row> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, ...options });
  return {
    store,
    endpoint: label,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors,
  };
}

async function benchServer(store: string, env: Record<string, string>): Promise<Row[]> {
  const server = await startSiteServer({ ...env, RATE_LIMIT_PER_MINUTE: '1000000' });
  const url = server.origin;
  try {
    const rows = [await measure(`${url}/api/sectors`, 'GET /api/sectors', store, {})];
    rows.push(
      await measure(`${url}/api/newsletter/subscribe`, 'POST /api/newsletter/subscribe', store, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        // [<id>] makes every request a new subscriber.
        body: JSON.stringify({ email: 'bench-[<id>]@example.com', firstName: 'Bench', source: 'website_footer' }),
        idReplacement: true,
      }),
    );
    return rows;
  } finally {
    server.stop();
  }
}

async function functionSizes(): Promise<{ name: string; bytes: number; gzip: number }[]> {
  const directory = path.join(PROJECT_ROOT, 'functions');
  const sizes = [];
  for (const file of readdirSync(directory).filter((name) => name.endsWith('.ts'))) {
    const result = await build({
      entryPoints: [path.join(directory, file)],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      minify: false,
      write: false,
      logLevel: 'error',
    });
    const code = result.outputFiles[0]?.contents ?? new Uint8Array();
    sizes.push({ name: file.replace(/\.ts$/, ''), bytes: code.byteLength, gzip: gzipSync(code).byteLength });
  }
  return sizes;
}

const rows: Row[] = [];
const embeddedDir = mkdtempSync(path.join(tmpdir(), 'bench-store-'));
try {
  rows.push(...(await benchServer('embedded', { LOCAL_STORE_DIR: embeddedDir })));
} finally {
  rmSync(embeddedDir, { recursive: true, force: true });
}

const redis = await startRedisServer();
const token = 'bench-token';
const bridge = await startUpstashBridge({ redisUrl: redis.url, token });
try {
  rows.push(
    ...(await benchServer('redis (REST bridge)', {
      UPSTASH_REDIS_REST_URL: bridge.url,
      UPSTASH_REDIS_REST_TOKEN: token,
    })),
  );
} finally {
  await bridge.stop();
  await redis.stop();
}

console.log(`\n/api on the local production server: ${CONNECTIONS} connections, ${SECONDS} s per run\n`);
console.table(
  rows.map((row) => ({
    store: row.store,
    endpoint: row.endpoint,
    'req/s': row.rps,
    'p50 ms': row.p50,
    'p99 ms': row.p99,
    'non-2xx': row.non2xx,
  })),
);
console.log('\nFunction bundles (esbuild, dependencies included, not minified)\n');
console.table(
  (await functionSizes()).map((size) => ({
    function: size.name,
    KB: (size.bytes / 1024).toFixed(1),
    'KB gzip': (size.gzip / 1024).toFixed(1),
  })),
);
