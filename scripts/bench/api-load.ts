/**
 * Benchmarks the /api on the local production server: requests per second and p50/p99 latency
 * for a content GET, a newsletter subscription, a lead and a view (each from a new visitor,
 * so each opens a visit: the most a view writes), with the embedded store and with Redis
 * (a real redis-server behind the Upstash REST bridge the tests use, both in a process of their
 * own), each without and with delivery configured (SMTP_URL to a real SMTP server and a signed
 * webhook to a real receiver, both on 127.0.0.1: every subscription then sends a confirmation,
 * every lead a notification and a webhook, after its answer). Plus the size of each function with its dependencies as one
 * esbuild bundle (a measure of the code it loads; Netlify itself ships v2 functions traced by nft).
 *
 * Every form submission carries a valid, unspent proof of work, as the site's forms send: the
 * benchmark signs its challenges with the server's secrets (one PBKDF2 iteration each, counter 0,
 * so thousands can be made a second; the server's verification is the same two HMACs whatever a
 * challenge's cost) before each run, outside the timing.
 *
 * Latency is measured at a steady rate, in rounds: each round starts a new server for each setting
 * (without delivery, then with it; the next round the other way round, so a drift of the machine
 * weighs on both alike), on an empty store (a new folder, or Redis flushed), warms each endpoint up
 * for a second, then times every request. The table gives the median of the rounds' p50 and p99,
 * and the range of the p99s, since one round's p99 is a handful of requests. Throughput is measured
 * after the rounds, flat out, on one server per setting.
 *
 *   npm run bench:api            (builds first)
 *   BENCH_SECONDS=10 npm run bench:api
 *   BENCH_ROUNDS=5 npm run bench:api          (rounds of the steady runs; 3 by default)
 *   BENCH_DELIVERY=off npm run bench:api      (only without delivery; `on` only with it)
 *   BENCH_RATE=100 npm run bench:api          (the rate of the steady runs; 50/s by default)
 *
 * Before and after a change: BENCH_BASELINE names another checkout of the repository (at an
 * older commit, installed and built: `npm ci && npx astro build` in it; see README.md), and the
 * settings compared are that checkout and this one instead of delivery off and on.
 *
 *   BENCH_BASELINE=../site-baseline npm run bench:api
 *
 * Each round then starts, for each store, a server of the baseline and one of this checkout
 * (baseline first, then the other way round), each with its own code and node_modules through its
 * own harness (checkout.ts), with the same settings, secret and peers, and times the same
 * requests, the content GET included; the flat-out runs follow, one per checkout. Delivery is off
 * unless BENCH_DELIVERY says `on` or `both`. A last table gives, per store and endpoint, the p50,
 * the p99 with its range and the flat-out requests per second, baseline → current with the change.
 *
 * Last, the Redis commands one view costs (Upstash bills each, those inside a script too),
 * counted by redis-server itself (INFO commandstats) over views that open a visit and page
 * views that continue one.
 */
import autocannon from 'autocannon';
import { build } from 'esbuild';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { PROJECT_ROOT } from '../harness/project.ts';
import { loadCheckout, type Checkout } from './checkout.ts';
import { importBundled } from '../harness/functions.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
/** Another checkout to compare this one with, from the current folder. */
const BASELINE = process.env.BENCH_BASELINE ? path.resolve(process.env.BENCH_BASELINE) : undefined;
const DELIVERY = process.env.BENCH_DELIVERY ?? (BASELINE ? 'off' : 'both');
if (!['off', 'on', 'both'].includes(DELIVERY)) throw new Error(`BENCH_DELIVERY is off, on or both, not ${DELIVERY}`);
/** The steady load of the latency runs of each endpoint, in requests per second. */
const RATE = Number(process.env.BENCH_RATE ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Solved challenges made for each flat-out run, per second of it: more than the server answers. */
const PROOFS_PER_SECOND = Number(process.env.BENCH_PROOFS_PER_SECOND ?? 8000);

// The servers and this process share the secret the challenges are signed with.
process.env.SESSION_SECRET ??= `bench-${randomBytes(24).toString('hex')}`;
/** The machine's load when the runs start: figures taken on a busy machine say little. */
const loadAtStart = loadavg()[0] ?? NaN;
const current = await loadCheckout('current', PROJECT_ROOT);
const baseline = BASELINE ? await loadCheckout('baseline', BASELINE) : undefined;

/** What one server is started as: a checkout, with or without delivery. */
interface Setting {
  checkout: Checkout;
  delivery: boolean;
}

/** A setting as the tables name it: only what varies in this run. */
const settingName = ({ checkout, delivery }: Setting) =>
  [baseline ? checkout.name : '', delivery ? 'delivery on' : ''].filter(Boolean).join(', ');

interface Row {
  store: string;
  setting: Setting;
  endpoint: string;
  /** `max`: as many requests as the server takes; else the steady rate asked for. */
  load: string;
  rps: number;
  p50: number;
  p99: number;
  /** The lowest and highest p99 of the rounds a steady row is the median of. */
  p99Range?: [number, number];
  non2xx: number;
}

interface Endpoint {
  label: string;
  path: string;
  /** A form's JSON body for a record of its own (`id`), sent with a proof of work; none: a GET. */
  body?: (id: string) => string;
  /** A page's beacon rather than a form: text/plain, no proof of work, a browser's user agent. */
  beacon?: boolean;
}
type Form = Endpoint & Required<Pick<Endpoint, 'body'>>;

/** A browser's user agent, another for each `id`: each beacon is a new visitor's. */
const browser = (id: string) => `Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:${id}) Gecko/20100101 Firefox/145.0`;

/** A request's headers and body: a form's JSON with its proof of work, or a page's beacon. */
function requestOf(
  { body, beacon }: Form,
  id: string,
  proof: string | undefined,
): { headers: Record<string, string>; body: string } {
  return beacon
    ? { headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': browser(id) }, body: body(id) }
    : { headers: { 'content-type': 'application/json' }, body: withProof(body(id), proof) };
}

async function measure(url: string, options: Partial<autocannon.Options>) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, ...options });
  return {
    load: 'max',
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/**
 * An open-loop steady load: one request every 1000/RATE ms, whatever the answers before it, each
 * timed from its send to its answer. Unlike a closed loop of connections, a slow answer does not
 * slow the next request down, so the figures are the latency of each request at that rate.
 */
async function steady(origin: string, checkout: Checkout, endpoint: Endpoint, id: string, seconds = SECONDS) {
  const { path, body, beacon } = endpoint;
  const latencies: number[] = [];
  const pool = body && !beacon ? await checkout.proofs(Math.ceil(RATE * seconds * 1.1)) : [];
  const pending: Promise<void>[] = [];
  let failed = 0;
  const start = performance.now();
  for (let index = 0; performance.now() - start < seconds * 1000; index += 1) {
    const wait = start + (index * 1000) / RATE - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const sent = performance.now();
    pending.push(
      fetch(
        `${origin}${path}`,
        body ? { method: 'POST', ...requestOf({ ...endpoint, body }, `${id}-${index}`, pool.pop()) } : {},
      ).then(
        async (response) => {
          await response.arrayBuffer();
          latencies.push(performance.now() - sent);
          if (!response.ok) failed += 1;
        },
        () => {
          failed += 1;
        },
      ),
    );
  }
  await Promise.all(pending);
  latencies.sort((a, b) => a - b);
  return {
    load: `${RATE}/s`,
    rps: Math.round(latencies.length / seconds),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    non2xx: failed,
  };
}

/** A JSON body with its proof of work (none once the pool is spent: the server answers 422, counted). */
const withProof = (body: string, altcha: string | undefined) =>
  altcha ? `${body.slice(0, -1)},"altcha":${JSON.stringify(altcha)}}` : body;

const subscriber = (id: string) =>
  JSON.stringify({ email: `bench-${id}@example.com`, firstName: 'Bench', source: 'website_footer' });
const lead = (id: string) =>
  JSON.stringify({
    name: 'Bench Lead',
    email: `lead-${id}@example.com`,
    source: 'contact_form',
    notes: 'We would like to automate our invoicing.',
    page: '/contact',
    attribution: { utm_source: 'bench', utm_campaign: 'load' },
  });
const viewBody = (id: string) =>
  JSON.stringify({
    path: '/zoho',
    referrer: 'www.linkedin.com',
    utm_source: 'linkedin',
    utm_campaign: `bench-${id.length}`,
  });
const CONTENT: Endpoint = { label: 'GET /api/sectors', path: '/api/sectors' };
const VIEW: Form = { label: 'POST /api/visits', path: '/api/visits', body: viewBody, beacon: true };
const FORMS: Form[] = [
  { label: 'POST /api/newsletter/subscribe', path: '/api/newsletter/subscribe', body: subscriber },
  { label: 'POST /api/leads/create', path: '/api/leads/create', body: lead },
  VIEW,
];
/**
 * The endpoints timed at a steady rate: the forms, whose answers delivery could slow down, and
 * when two checkouts are compared the content GET too, whose code may have changed.
 */
const STEADY = baseline ? [CONTENT, ...FORMS] : FORMS;

async function withServer<T>(
  { checkout }: Setting,
  env: Record<string, string>,
  run: (origin: string) => Promise<T>,
): Promise<T> {
  const server = await checkout.startSiteServer({
    ...env,
    RATE_LIMIT_PER_MINUTE: '1000000',
    VISITS_PER_MINUTE: '10000',
    SESSION_SECRET: process.env.SESSION_SECRET ?? '',
  });
  try {
    return await run(server.origin);
  } finally {
    await server.stop();
  }
}

/**
 * One round of latency runs on a new server: each endpoint is warmed up for a second (its
 * function loaded, its connections open: a cold start is not what this measures), then timed.
 */
async function steadyRound(store: string, setting: Setting, env: Record<string, string>): Promise<Row[]> {
  return withServer(setting, env, async (origin) => {
    const rows: Row[] = [];
    const run = `${Date.now()}-${randomBytes(3).toString('hex')}`;
    for (const endpoint of STEADY) {
      await steady(origin, setting.checkout, endpoint, `warm-${run}`, 1);
      const figures = await steady(origin, setting.checkout, endpoint, `steady-${run}`);
      rows.push({ store, setting, endpoint: endpoint.label, ...figures });
    }
    return rows;
  });
}

/** Flat out: requests per second, every bit of work the server does showing, delivery included. */
async function flatOut(store: string, setting: Setting, env: Record<string, string>): Promise<Row[]> {
  return withServer(setting, env, async (origin) => {
    const rows: Row[] = [
      { store, setting, endpoint: CONTENT.label, ...(await measure(`${origin}${CONTENT.path}`, {})) },
    ];
    const run = Date.now();
    for (const form of FORMS) {
      const pool = form.beacon ? [] : await setting.checkout.proofs(PROOFS_PER_SECOND * SECONDS);
      let sent = 0;
      const figures = await measure(`${origin}${form.path}`, {
        requests: [
          {
            method: 'POST',
            path: form.path,
            // Every request a new record (or visitor), a form's with a proof of work of its own.
            setupRequest: (request) => ({ ...request, ...requestOf(form, `max-${run}-${(sent += 1)}`, pool.pop()) }),
          },
        ],
      });
      rows.push({ store, setting, endpoint: form.label, ...figures });
    }
    return rows;
  });
}

/** The rounds of one endpoint and setting as one row: the medians of their p50s and p99s. */
function medianRow(rounds: Row[]): Row {
  const first = rounds[0];
  if (!first) throw new Error('no rounds to summarise');
  const p99s = rounds.map((row) => row.p99);
  return {
    ...first,
    rps: median(rounds.map((row) => row.rps)),
    p50: median(rounds.map((row) => row.p50)),
    p99: median(p99s),
    p99Range: [Math.min(...p99s), Math.max(...p99s)],
    non2xx: rounds.reduce((sum, row) => sum + row.non2xx, 0),
  };
}

/**
 * Every setting of one store: the latency rounds, alternating the settings' order, then the
 * flat-out runs. A flat-out run leaves a backlog of deliveries behind it, so none comes before a
 * latency run. `emptyStore` gives each server the settings of a store with nothing in it.
 */
async function benchStore(store: string, emptyStore: () => Promise<Record<string, string>>): Promise<Row[]> {
  const rounds = new Map<Setting, Map<string, Row[]>>(settings.map((setting) => [setting, new Map()]));
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = round % 2 === 0 ? settings : [...settings].reverse();
    for (const setting of order)
      for (const row of await steadyRound(store, setting, { ...(await emptyStore()), ...deliveryEnv(setting) })) {
        const byEndpoint = rounds.get(setting);
        byEndpoint?.set(row.endpoint, [...(byEndpoint.get(row.endpoint) ?? []), row]);
      }
  }
  const rows = [...rounds.values()].flatMap((byEndpoint) => [...byEndpoint.values()].map(medianRow));
  for (const setting of settings)
    rows.push(...(await flatOut(store, setting, { ...(await emptyStore()), ...deliveryEnv(setting) })));
  return rows;
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

/**
 * A harness script in a process of its own, so its work never shares an event loop with the load
 * generator: it answers in JSON lines on stdout, and stops once its stdin ends.
 */
function peerProcess(script: string) {
  const child = spawn(process.execPath, [fileURLToPath(new URL(`../harness/${script}`, import.meta.url))], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    nextLine: async () => JSON.parse(String((await lines.next()).value)) as Record<string, string | number>,
    ask: (line: string) => child.stdin.write(`${line}\n`),
    stop: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

const rows: Row[] = [];
// The SMTP server and the webhook receiver (see delivery-peers.ts).
const peers = peerProcess('delivery-peers.ts');
const { smtp, webhook } = await peers.nextLine();
const delivery = {
  SMTP_URL: String(smtp),
  MAIL_FROM: 'Bench <bench@loopwork.example>',
  LEADS_NOTIFY_TO: 'team@loopwork.example',
  LEAD_WEBHOOK_URL: String(webhook),
  LEAD_WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
};
const deliveryEnv = (setting: Setting): Record<string, string> => (setting.delivery ? delivery : {});
/** Without delivery, then with it; each checkout in turn when two are compared, the baseline first. */
const settings: Setting[] = [...(DELIVERY === 'on' ? [] : [false]), ...(DELIVERY === 'off' ? [] : [true])].flatMap(
  (on) => (baseline ? [baseline, current] : [current]).map((checkout) => ({ checkout, delivery: on })),
);

// The embedded store: a new data folder for each server, removed at the end.
const embeddedDirs: string[] = [];
try {
  rows.push(
    ...(await benchStore('embedded', async () => {
      const directory = mkdtempSync(path.join(tmpdir(), 'bench-store-'));
      embeddedDirs.push(directory);
      return { LOCAL_STORE_DIR: directory };
    })),
  );
} finally {
  for (const directory of embeddedDirs) rmSync(directory, { recursive: true, force: true });
}

// A redis-server behind the Upstash REST bridge (see store-peers.ts), emptied before each server:
// what one server (or one checkout's way of keeping data) left is no other's.
const store = peerProcess('store-peers.ts');
const bridge = await store.nextLine();
const redisEnv = { UPSTASH_REDIS_REST_URL: String(bridge.url), UPSTASH_REDIS_REST_TOKEN: String(bridge.token) };
/** One Redis command through the bridge, as @upstash/redis sends it. */
async function redisCommand(command: string[]): Promise<unknown> {
  const answer = await fetch(redisEnv.UPSTASH_REDIS_REST_URL, {
    method: 'POST',
    headers: { authorization: `Bearer ${redisEnv.UPSTASH_REDIS_REST_TOKEN}` },
    body: JSON.stringify(command),
  });
  if (!answer.ok) throw new Error(`${command[0]} through the bridge answered ${answer.status}`);
  return ((await answer.json()) as { result: unknown }).result;
}

/** Every command redis-server ran since its counts were reset, scripts' own commands included. */
async function commandsRun(): Promise<Map<string, number>> {
  const info = String(await redisCommand(['INFO', 'commandstats']));
  const counts = new Map<string, number>();
  for (const [, name = '', calls = '0'] of info.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm))
    if (!['info', 'config|resetstat'].includes(name)) counts.set(name, Number(calls));
  return counts;
}

/**
 * What Upstash bills for one view: the commands of `views` views, each the one commit
 * the endpoint makes (its per-client limit included; the day's salt is read once a day by each
 * instance, left out), made through the store's own code and counted by redis-server, per view.
 * Straight to the store rather than through a server, whose sweep would add its own commands.
 * `sameVisitor`: each continues one visit, else each opens one.
 */
async function commandsPerView(views: number, sameVisitor: boolean) {
  const [{ createUpstashClient, redisBackend }, { visitVerbs }] = await Promise.all([
    importBundled<typeof import('../../functions/_lib/store/redis/redis-backend.ts')>(
      PROJECT_ROOT,
      'functions/_lib/store/redis/redis-backend.ts',
    ),
    importBundled<typeof import('../../functions/_lib/store/visits.ts')>(
      PROJECT_ROOT,
      'functions/_lib/store/visits.ts',
    ),
  ]);
  const client = createUpstashClient({
    url: redisEnv.UPSTASH_REDIS_REST_URL,
    token: redisEnv.UPSTASH_REDIS_REST_TOKEN,
    timeoutMs: 5000,
  });
  const visits = visitVerbs(redisBackend(client));
  const view = (index: number) =>
    visits.recordView(
      {
        day: '2026-11-30',
        visitor: sameVisitor ? 'one-visitor' : `visitor-${index}`,
        path: '/zoho',
        source: 'linkedin.com',
        campaign: 'autumn',
        device: 'phone',
      },
      // Each view its own client: the per-client limit counts every one of them.
      { client: `client-${index}`, perMinute: 120 },
    );
  await redisCommand(['FLUSHALL']);
  await view(-1);
  await redisCommand(['CONFIG', 'RESETSTAT']);
  for (let index = 0; index < views; index += 1) await view(index);
  const counts = await commandsRun();
  const total = [...counts.values()].reduce((sum, calls) => sum + calls, 0);
  const each = [...counts].map(([name, calls]) => `${name} ${(calls / views).toFixed(1)}`).join(', ');
  return { total: total / views, each };
}

let commandCounts: { visit: string; commands: number; which: string }[] | undefined;
try {
  const flush = async () => {
    await redisCommand(['FLUSHALL']);
    return redisEnv;
  };
  rows.push(...(await benchStore('redis (REST bridge)', flush)));
  const opening = await commandsPerView(200, false);
  const continuing = await commandsPerView(200, true);
  commandCounts = [
    { visit: 'a view that opens a visit', commands: opening.total, which: opening.each },
    { visit: 'a view within a visit', commands: continuing.total, which: continuing.each },
  ];
} finally {
  await store.stop();
}
peers.ask('count');
const { mails, webhooks } = await peers.nextLine();
await peers.stop();

const change = (after: number, before: number) =>
  `${after >= before ? '+' : ''}${(((after - before) / before) * 100).toFixed(0)}%`;
const fromTo = (before: number, after: number) =>
  `${before.toFixed(1)} → ${after.toFixed(1)} (${change(after, before)})`;
const range = (row: Row) => row.p99Range?.map((value) => value.toFixed(1)).join('–') ?? '';

const where = (row: Row) => [row.store, settingName(row.setting)].filter(Boolean).join(', ');
console.log(
  `\n/api on the local production server, ${SECONDS} s per run: steady rows are the medians of ${ROUNDS} rounds at ${RATE}/s (p99 range: the rounds' lowest and highest); max rows one run with ${CONNECTIONS} connections`,
);
console.log(
  `Load average (1 min) ${loadAtStart.toFixed(1)} at the start, ${(loadavg()[0] ?? NaN).toFixed(1)} at the end, on ${availableParallelism()} CPUs: other work on the machine weighs on every figure\n`,
);
console.table(
  rows.map((row) => ({
    store: where(row),
    endpoint: row.endpoint,
    load: row.load,
    'req/s': row.rps,
    'p50 ms': Number(row.p50.toFixed(1)),
    'p99 ms': Number(row.p99.toFixed(1)),
    'p99 range': range(row),
    'non-2xx': row.non2xx,
  })),
);

/** The row of `row`'s store and endpoint with another checkout, delivery setting or load. */
function counterpart(row: Row, other: Partial<Setting> & { load?: string }): Row {
  const { checkout = row.setting.checkout, delivery = row.setting.delivery, load = row.load } = other;
  const found = rows.find(
    (candidate) =>
      candidate.store === row.store &&
      candidate.endpoint === row.endpoint &&
      candidate.load === load &&
      candidate.setting.checkout === checkout &&
      candidate.setting.delivery === delivery,
  );
  if (!found)
    throw new Error(`no ${load} run of ${row.endpoint} on ${row.store} as ${settingName({ checkout, delivery })}`);
  return found;
}

if (DELIVERY === 'both') {
  // What delivery costs the answers: each steady row with delivery on against the same without.
  console.log('\nDelivery on against off, steady rows (medians of the rounds)\n');
  console.table(
    rows
      .filter((row) => row.load !== 'max' && row.setting.delivery)
      .map((on) => {
        const off = counterpart(on, { delivery: false });
        return {
          store: where(off),
          endpoint: on.endpoint,
          'p50 off → on': fromTo(off.p50, on.p50),
          'p99 off → on': fromTo(off.p99, on.p99),
        };
      }),
  );
}
if (baseline) {
  // Before and after: each steady row of this checkout against the baseline's, and the flat-out rates.
  const commits = [baseline, current].map((checkout) => `${checkout.name} ${checkout.commit}`).join(' → ');
  console.log(
    `\n${commits}: p50 and p99 in ms at ${RATE}/s (medians of ${ROUNDS} rounds; p99 range: the rounds' lowest and highest), req/s flat out (one run each)\n`,
  );
  console.table(
    rows
      .filter((row) => row.load !== 'max' && row.setting.checkout === current)
      .map((after) => {
        const before = counterpart(after, { checkout: baseline });
        const maxAfter = counterpart(after, { load: 'max' });
        const maxBefore = counterpart(after, { checkout: baseline, load: 'max' });
        return {
          store: [after.store, after.setting.delivery ? 'delivery on' : ''].filter(Boolean).join(', '),
          endpoint: after.endpoint,
          'p50 ms': fromTo(before.p50, after.p50),
          'p99 ms': fromTo(before.p99, after.p99),
          'p99 range': `${range(before)} → ${range(after)}`,
          'req/s flat out': `${maxBefore.rps} → ${maxAfter.rps} (${change(maxAfter.rps, maxBefore.rps)})`,
        };
      }),
  );
}
if (DELIVERY !== 'off')
  console.log(`\nDelivered during the runs with delivery on: ${mails} e-mails, ${webhooks} webhooks`);
console.log('\nRedis commands per view, counted by redis-server (INFO commandstats; Upstash bills each one)\n');
console.table(commandCounts ?? []);
console.log('\nFunction bundles (esbuild, dependencies included, not minified)\n');
console.table(
  (await functionSizes()).map((size) => ({
    function: size.name,
    KB: (size.bytes / 1024).toFixed(1),
    'KB gzip': (size.gzip / 1024).toFixed(1),
  })),
);
