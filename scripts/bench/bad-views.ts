/**
 * Bad and hostile views against the local production server, on both stores: floods of
 * made-up paths and campaign values, an oversized body, a bot, a forged referrer, a missing user
 * agent and malformed bodies. Prints what each got (HTTP statuses) and how much the store grew:
 * on Redis the bytes its keys take (MEMORY USAGE), in the embedded store its rows and file size.
 * The floods come as a new visitor each (another user agent and address), each opening a visit,
 * and the per-client limits are raised for them, so that the caps alone are what bounds them.
 *
 * Two attacks on the figures themselves, read back as the owner reads them (GET /api/admin/visits):
 * invented sources and campaigns from as many addresses, then 30 visitors from Hacker News (which
 * rows the day keeps, and where those 30 land); and one address rotating 150 user agents, with
 * the limits at their defaults (how many visitors it adds).
 *
 *   npm run bench:bad-views      (builds first; BENCH_FLOOD=2000 for a shorter run)
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startRedisServer } from '../harness/redis-server.ts';
import { startSiteServer } from '../harness/site-server.ts';
import { startUpstashBridge } from '../harness/upstash-bridge.ts';

const FLOOD = Number(process.env.BENCH_FLOOD ?? 10_000);
const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';
const TOKEN = 'bad-views';
const PASSWORD = 'bench admin password';
const HACKER_NEWS = 30;
const AGENTS = 150;

/** A browser's user agent, another for each number. */
const browserNumber = (index: number) =>
  `Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:${index}) Gecko/20100101 Firefox/145.0`;
/** An address of its own for each number, in 198.18.0.0/15 (kept for benchmarks, RFC 2544). */
const addressNumber = (index: number) => `198.${18 + ((index >> 16) & 1)}.${(index >> 8) & 255}.${index & 255}`;
const json = (value: unknown) => JSON.stringify(value);
const count = (n: number) => n.toLocaleString('en');

interface Sender {
  agent?: string;
  /** The client's address, in the header Netlify puts it in (a server that ignores it sees 127.0.0.1). */
  address?: string;
  headers?: Record<string, string | undefined>;
}

/** A view as a page's beacon sends it (text/plain, from the site's own origin); answers its status. */
async function view(origin: string, body: string, { agent = BROWSER, address, headers = {} }: Sender = {}) {
  const sent: Record<string, string> = {
    'content-type': 'text/plain;charset=UTF-8',
    'user-agent': agent,
    origin,
    'sec-fetch-site': 'same-origin',
    ...(address ? { 'x-nf-client-connection-ip': address } : {}),
  };
  for (const [name, value] of Object.entries(headers))
    if (value === undefined) delete sent[name];
    else sent[name] = value;
  const answer = await fetch(`${origin}/api/visits`, { method: 'POST', headers: sent, body });
  await answer.arrayBuffer();
  return answer.status;
}

/** Sends `total` requests, 100 at a time; answers how many got each status, as `2000 × 202`. */
async function inBatches(total: number, send: (index: number) => Promise<number>) {
  const statuses = new Map<number, number>();
  for (let start = 0; start < total; start += 100)
    for (const status of await Promise.all(
      Array.from({ length: Math.min(100, total - start) }, (_, offset) => send(start + offset)),
    ))
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
  return [...statuses].map(([status, n]) => `${count(n)} × ${status}`).join(', ');
}

interface Attempt {
  label: string;
  count: number;
  body: (index: number) => string;
  headers?: Record<string, string | undefined>;
  /** Each request from a user agent and address of its own: each a new visitor, opening a visit (the most a view writes). */
  newVisitors?: boolean;
}

const ATTEMPTS: Attempt[] = [
  {
    label: `${count(FLOOD)} made-up paths`,
    count: FLOOD,
    body: (i) => json({ path: `/wp-admin/x${i}.php` }),
    newVisitors: true,
  },
  {
    label: `${count(FLOOD)} campaign values`,
    count: FLOOD,
    body: (i) => json({ path: '/', utm_source: `src-${i}`, utm_campaign: `campaign-${i}-${'x'.repeat(80)}` }),
    newVisitors: true,
  },
  { label: 'a 1 MB body', count: 1, body: () => json({ path: `/${'a'.repeat(1_000_000)}` }) },
  {
    label: 'a bot (Googlebot)',
    count: 1,
    body: () => json({ path: '/' }),
    headers: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
  },
  { label: 'a forged referrer (a host)', count: 1, body: () => json({ path: '/', referrer: 'forged.example' }) },
  {
    label: 'a forged referrer (markup)',
    count: 1,
    body: () => json({ path: '/', referrer: '<img src=x onerror=alert(1)>' }),
  },
  { label: 'no user agent', count: 1, body: () => json({ path: '/' }), headers: { 'user-agent': undefined } },
  { label: 'a body that is not JSON', count: 1, body: () => 'path=/' },
  { label: 'an unknown field', count: 1, body: () => json({ path: '/', visitor: 'me' }) },
  {
    label: 'form-encoded',
    count: 1,
    body: () => 'path=/',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  },
];

async function attack(origin: string) {
  const results: { attempt: string; answers: string }[] = [];
  for (const [number, attempt] of ATTEMPTS.entries()) {
    const answers = await inBatches(attempt.count, (index) =>
      view(origin, attempt.body(index), {
        // Visitors of their own for each attempt: one already in a visit would open none.
        ...(attempt.newVisitors
          ? { agent: browserNumber(number * FLOOD + index), address: addressNumber(number * FLOOD + index) }
          : {}),
        ...(attempt.headers ? { headers: attempt.headers } : {}),
      }),
    );
    results.push({ attempt: attempt.label, answers });
  }
  return results;
}

type Row = { source?: string; campaign?: string; visitors: number };
interface Figures {
  totals: { visitors: number };
  sources: Row[];
  campaigns: Row[];
}

/** Today's figures as the admin page gets them (on an emptied store the default range holds today alone). */
async function figures(origin: string): Promise<Figures> {
  const login = await fetch(`${origin}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: json({ password: PASSWORD }),
  });
  if (!login.ok) throw new Error(`the admin login answered ${login.status}`);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const answer = await fetch(`${origin}/api/admin/visits`, { headers: { cookie } });
  if (!answer.ok) throw new Error(`GET /api/admin/visits answered ${answer.status}`);
  return (await answer.json()) as Figures;
}

/** A table's rows, each by name but the invented values, summed up. */
function rowsOf(rows: Row[], key: 'source' | 'campaign') {
  const invented = rows.filter((row) => row[key]?.startsWith('invented-')).map((row) => row.visitors);
  const named = rows
    .filter((row) => !row[key]?.startsWith('invented-'))
    .map((row) => `${row[key]} ${count(row.visitors)}`);
  const [least = 0, most = 0] = [Math.min(...invented), Math.max(...invented)];
  if (invented.length > 0)
    named.push(
      `${invented.length} invented (${least === most ? least : `${least} to ${most}`} visitor${most === 1 ? '' : 's'} each)`,
    );
  return `${rows.length} rows: ${named.join(', ')}`;
}

/** What a step sent and got, and the visitors it added; with `rows`, the rows the day then keeps. */
async function step(origin: string, label: string, send: () => Promise<string>, rows = true) {
  const before = await figures(origin);
  const started = performance.now();
  const answers = await send();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const after = await figures(origin);
  const added = after.totals.visitors - before.totals.visitors;
  const lines = [`${label} (${answers} in ${seconds} s): ${count(added)} visitors counted`];
  if (rows)
    lines.push(`  sources: ${rowsOf(after.sources, 'source')}`, `  campaigns: ${rowsOf(after.campaigns, 'campaign')}`);
  return { lines, after };
}

/** Invented sources and campaigns, a new visitor and address each; then real readers from a link on Hacker News. */
async function inventedThenHackerNews(origin: string) {
  const flood = await step(origin, `${count(FLOOD)} invented sources and campaigns from as many addresses`, () =>
    inBatches(FLOOD, (i) =>
      view(origin, json({ path: '/', utm_source: `invented-${i}`, utm_campaign: `invented-${i}` }), {
        agent: browserNumber(10 * FLOOD + i),
        address: addressNumber(10 * FLOOD + i),
      }),
    ),
  );
  const readers = await step(origin, `then ${HACKER_NEWS} from news.ycombinator.com, utm_campaign=spring-launch`, () =>
    inBatches(HACKER_NEWS, (i) =>
      view(origin, json({ path: '/', referrer: 'news.ycombinator.com', utm_campaign: 'spring-launch' }), {
        agent: browserNumber(11 * FLOOD + i),
        address: `203.0.113.${i + 1}`,
      }),
    ),
  );
  const source = readers.after.sources.find((row) => /hacker news|ycombinator/i.test(row.source ?? ''));
  const campaign = readers.after.campaigns.find((row) => row.campaign === 'spring-launch');
  return [
    ...flood.lines,
    ...readers.lines,
    `  their rows: ${source ? `source "${source.source}" ${count(source.visitors)}` : 'no source row'}, ` +
      `${campaign ? `campaign "spring-launch" ${count(campaign.visitors)}` : 'no campaign row'}`,
  ];
}

/** One address rotating user agents, at the default limits. */
async function rotatingAgents(origin: string) {
  const { lines } = await step(
    origin,
    `one address, ${AGENTS} user agents, default limits`,
    () =>
      inBatches(AGENTS, (i) =>
        view(origin, json({ path: '/' }), { agent: browserNumber(12 * FLOOD + i), address: '192.0.2.1' }),
      ),
    false,
  );
  return lines;
}

const admin = { ADMIN_PASSWORD: PASSWORD, SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123' };
const defaults = { ...admin, WEEKLY_REPORT: 'off' };
// VISITORS_PER_MINUTE bounds new visitors per address where the server has such a limit.
const raised = { ...defaults, VISITS_PER_MINUTE: '1000000', VISITORS_PER_MINUTE: '1000000' };

interface Store<Size> {
  /** The settings that point a server at it. */
  settings: () => Record<string, string>;
  size: () => Promise<Size>;
  /** Empties it: each part of the run starts on a store of its own. */
  empty: () => Promise<void>;
}

/** Everything on one store: the attempts (raised limits), then each attack on the figures on an emptied store. */
async function onStore<Size>(store: Store<Size>) {
  const on = async <T>(env: Record<string, string>, work: (origin: string) => Promise<T>) => {
    const server = await startSiteServer({ ...env, ...store.settings() });
    try {
      return await work(server.origin);
    } finally {
      await server.stop();
    }
  };
  const { results, before, after } = await on(raised, async (origin) => {
    // One counted view first: the store exists, and the day's salt is made.
    await view(origin, json({ path: '/' }));
    const before = await store.size();
    const results = await attack(origin);
    return { results, before, after: await store.size() };
  });
  await store.empty();
  const lines = await on(raised, inventedThenHackerNews);
  await store.empty();
  lines.push(...(await on(defaults, rotatingAgents)));
  return { results, before, after, lines };
}

// The embedded store.
let folder = mkdtempSync(path.join(tmpdir(), 'bad-views-'));
const embedded = await onStore({
  settings: () => ({ LOCAL_STORE_DIR: folder }),
  /** Rows of the tables the figures use, and the database's size once its log is folded in. */
  async size() {
    const { DatabaseSync } = await import('node:sqlite');
    const database = new DatabaseSync(path.join(folder, 'store.sqlite'));
    try {
      database.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      const rows = (table: string) => Number(database.prepare(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0);
      const bytes = readdirSync(folder)
        .filter((name) => name.startsWith('store.sqlite'))
        .reduce((sum, name) => sum + statSync(path.join(folder, name)).size, 0);
      return { counters: rows('counters'), members: rows('distinct_members'), bytes };
    } finally {
      database.close();
    }
  },
  async empty() {
    rmSync(folder, { recursive: true, force: true });
    folder = mkdtempSync(path.join(tmpdir(), 'bad-views-'));
  },
});
rmSync(folder, { recursive: true, force: true });
const embeddedGrowth =
  `${((embedded.after.bytes - embedded.before.bytes) / 1024).toFixed(0)} KB: ` +
  `${embedded.after.counters - embedded.before.counters} more counters, ` +
  `${embedded.after.members - embedded.before.members} more members of exact visitor sets (one per visitor and set: the embedded store counts exactly)`;

// Upstash, through the REST bridge to a real redis-server.
const redis = await startRedisServer();
const bridge = await startUpstashBridge({ redisUrl: redis.url, token: TOKEN });
const command = async (...parts: string[]) => {
  const answer = await fetch(bridge.url, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(parts),
  });
  return ((await answer.json()) as { result: unknown }).result;
};
let upstash;
try {
  upstash = await onStore({
    settings: () => ({ UPSTASH_REDIS_REST_URL: bridge.url, UPSTASH_REDIS_REST_TOKEN: TOKEN }),
    /** The bytes the keys take: the figures', and the marks of visits under way (gone 30 minutes after their last view). */
    async size() {
      const keys = (await command('KEYS', '*')) as string[];
      const size = { keys: 0, bytes: 0, marks: 0, markBytes: 0 };
      for (const key of keys) {
        const bytes = Number(await command('MEMORY', 'USAGE', key));
        if (key.startsWith('visits:open:')) {
          size.marks += 1;
          size.markBytes += bytes;
        } else {
          size.keys += 1;
          size.bytes += bytes;
        }
      }
      return size;
    },
    empty: () => command('FLUSHALL').then(() => undefined),
  });
} finally {
  await bridge.stop();
  await redis.stop();
}
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const { before, after } = upstash;
const redisGrowth =
  `${kb(after.bytes - before.bytes)} in ${after.keys - before.keys} more keys of figures (${after.keys} in all), ` +
  `and ${kb(after.markBytes - before.markBytes)} in ${after.marks - before.marks} marks of visits under way, gone 30 minutes after their last view`;

console.log(`\nBad and hostile views, POST /api/visits on the local production server\n`);
console.table(
  embedded.results.map((row, index) => ({
    attempt: row.attempt,
    'embedded store': row.answers,
    'Upstash (REST bridge)': upstash.results[index]?.answers ?? '',
  })),
);
console.log(`\nStore growth over all of them: embedded ${embeddedGrowth}; Upstash ${redisGrowth}.`);
for (const [store, lines] of [
  ['embedded store (exact sets)', embedded.lines],
  ['Upstash (REST bridge; HyperLogLog estimates, 0.81 % standard error)', upstash.lines],
] as const)
  console.log(`\nThe day's figures as the admin page shows them, ${store}\n${lines.join('\n')}`);
