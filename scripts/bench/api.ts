/**
 * Benchmarks the /api on the local production server: requests per second and p50/p99 latency
 * for a content GET, a newsletter subscription and a lead, with the embedded store and with Redis
 * (a real redis-server behind the Upstash REST bridge the tests use), each without and with
 * delivery configured (SMTP_URL to a real SMTP server and a signed webhook to a real receiver,
 * both on 127.0.0.1: every subscription then sends a confirmation, every lead a notification and
 * a webhook, after its answer). Plus the size of each function with its dependencies as one
 * esbuild bundle (a measure of the code it loads; Netlify itself ships v2 functions traced by nft).
 *
 *   npm run bench:api            (builds first)
 *   BENCH_SECONDS=10 npm run bench:api
 *   BENCH_DELIVERY=off npm run bench:api      (only without delivery; `on` only with it)
 */
import autocannon from 'autocannon';
import { build } from 'esbuild';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { startRedisServer } from '../harness/redis-server.ts';
import { startSmtpSink } from '../harness/smtp-sink.ts';
import { startWebhookReceiver } from '../harness/webhook-receiver.ts';
import { startSiteServer } from '../harness/site-server.ts';
import { startUpstashBridge } from '../harness/upstash-bridge.ts';
import { PROJECT_ROOT } from '../harness/project.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const DELIVERY = process.env.BENCH_DELIVERY ?? 'both';

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
    rows.push(
      await measure(`${url}/api/leads/create`, 'POST /api/leads/create', store, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Bench Lead',
          email: 'lead-[<id>]@example.com',
          source: 'contact_form',
          notes: 'We would like to automate our invoicing.',
          page: '/contact',
          attribution: { utm_source: 'bench', utm_campaign: 'load' },
        }),
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
const smtp = await startSmtpSink({ keep: false });
const receiver = await startWebhookReceiver();
const delivery = {
  SMTP_URL: smtp.url,
  MAIL_FROM: 'Bench <bench@loopwork.example>',
  LEADS_NOTIFY_TO: 'team@loopwork.example',
  LEAD_WEBHOOK_URL: receiver.url,
  LEAD_WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
};
const modes: [string, Record<string, string>][] = [
  ...(DELIVERY === 'on' ? [] : [['', {}] as [string, Record<string, string>]]),
  ...(DELIVERY === 'off' ? [] : [[', delivery on', delivery] as [string, Record<string, string>]]),
];

for (const [suffix, settings] of modes) {
  const embeddedDir = mkdtempSync(path.join(tmpdir(), 'bench-store-'));
  try {
    rows.push(...(await benchServer(`embedded${suffix}`, { LOCAL_STORE_DIR: embeddedDir, ...settings })));
  } finally {
    rmSync(embeddedDir, { recursive: true, force: true });
  }
}

const redis = await startRedisServer();
const token = 'bench-token';
const bridge = await startUpstashBridge({ redisUrl: redis.url, token });
try {
  for (const [suffix, settings] of modes)
    rows.push(
      ...(await benchServer(`redis (REST bridge)${suffix}`, {
        UPSTASH_REDIS_REST_URL: bridge.url,
        UPSTASH_REDIS_REST_TOKEN: token,
        ...settings,
      })),
    );
} finally {
  await bridge.stop();
  await redis.stop();
}
const mails = smtp.received();
const webhooks = receiver.requests.length;
await Promise.all([smtp.stop(), receiver.stop()]);

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
if (modes.some(([suffix]) => suffix))
  console.log(`\nDelivered during the runs with delivery on: ${mails} e-mails, ${webhooks} webhooks`);
console.log('\nFunction bundles (esbuild, dependencies included, not minified)\n');
console.table(
  (await functionSizes()).map((size) => ({
    function: size.name,
    KB: (size.bytes / 1024).toFixed(1),
    'KB gzip': (size.gzip / 1024).toFixed(1),
  })),
);
