/**
 * Bad and hostile views against the local production server, on both stores: floods of
 * made-up paths and campaign values, an oversized body, a bot, a forged referrer, a missing user
 * agent and malformed bodies. Prints what each got (HTTP statuses) and how much the store grew:
 * on Redis the bytes its keys take (MEMORY USAGE), in the embedded store its rows and file size.
 * The floods come as a new visitor each (another user agent), each opening a visit, and the
 * per-client limit is raised for them, so that the caps alone are what bounds them.
 *
 *   npm run bench:bad-views      (builds first)
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

interface Attempt {
  label: string;
  count: number;
  /** The body of the n-th request, and its headers beyond a browser's text/plain. */
  body: (index: number) => string;
  headers?: Record<string, string | undefined>;
  /** Each request with a user agent of its own: each a new visitor, opening a visit (the most a view writes). */
  newVisitors?: boolean;
}

/** A browser's user agent, another for each request. */
const browserNumber = (index: number) =>
  `Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:${index}) Gecko/20100101 Firefox/145.0`;

const json = (value: unknown) => JSON.stringify(value);
const ATTEMPTS: Attempt[] = [
  {
    label: `${FLOOD.toLocaleString('en')} made-up paths`,
    count: FLOOD,
    body: (i) => json({ path: `/wp-admin/x${i}.php` }),
    newVisitors: true,
  },
  {
    label: `${FLOOD.toLocaleString('en')} campaign values`,
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
    const statuses = new Map<number, number>();
    for (let start = 0; start < attempt.count; start += 100) {
      const batch = Array.from({ length: Math.min(100, attempt.count - start) }, async (_, offset) => {
        const index = start + offset;
        const headers: Record<string, string> = {
          'content-type': 'text/plain;charset=UTF-8',
          // Visitors of their own for each attempt: one already in a visit would open none.
          'user-agent': attempt.newVisitors ? browserNumber(number * FLOOD + index) : BROWSER,
        };
        for (const [name, value] of Object.entries(attempt.headers ?? {}))
          if (value === undefined) delete headers[name];
          else headers[name] = value;
        const answer = await fetch(`${origin}/api/visits`, {
          method: 'POST',
          headers,
          body: attempt.body(index),
        });
        await answer.arrayBuffer();
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      });
      await Promise.all(batch);
    }
    results.push({
      attempt: attempt.label,
      answers: [...statuses].map(([status, count]) => `${count} × ${status}`).join(', '),
    });
  }
  return results;
}

const env = { VISITS_PER_MINUTE: '1000000', WEEKLY_REPORT: 'off' };

// The embedded store.
const folder = mkdtempSync(path.join(tmpdir(), 'bad-views-'));
const folderBytes = () =>
  readdirSync(folder)
    .filter((name) => name.startsWith('store.sqlite'))
    .reduce((sum, name) => sum + statSync(path.join(folder, name)).size, 0);
/** Rows of the tables the figures use, and the database's size once its log is folded in. */
async function embeddedSize() {
  const { DatabaseSync } = await import('node:sqlite');
  const file = readdirSync(folder).find((name) => name === 'store.sqlite');
  if (!file) throw new Error('the embedded store wrote no database');
  const database = new DatabaseSync(path.join(folder, file));
  try {
    database.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    const count = (table: string) => Number(database.prepare(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0);
    return { counters: count('counters'), members: count('distinct_members'), bytes: folderBytes() };
  } finally {
    database.close();
  }
}
const embedded = await startSiteServer({ ...env, LOCAL_STORE_DIR: folder });
let embeddedResults;
let embeddedBefore;
try {
  // One counted view first: the store's file exists, and the day's salt is made.
  await fetch(`${embedded.origin}/api/visits`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', 'user-agent': BROWSER },
    body: json({ path: '/' }),
  });
  embeddedBefore = await embeddedSize();
  embeddedResults = await attack(embedded.origin);
} finally {
  await embedded.stop();
}
const embeddedAfter = await embeddedSize();
rmSync(folder, { recursive: true, force: true });
const embeddedGrowth =
  `${((embeddedAfter.bytes - embeddedBefore.bytes) / 1024).toFixed(0)} KB: ` +
  `${embeddedAfter.counters - embeddedBefore.counters} more counters, ` +
  `${embeddedAfter.members - embeddedBefore.members} more members of exact visitor sets (one per visitor and set: the embedded store counts exactly)`;

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
/** The bytes the keys take: the figures', and the marks of visits under way (gone 30 minutes after their last view). */
async function redisSize() {
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
}
const upstash = await startSiteServer({ ...env, UPSTASH_REDIS_REST_URL: bridge.url, UPSTASH_REDIS_REST_TOKEN: TOKEN });
let redisResults;
let redisGrowth: string;
try {
  await fetch(`${upstash.origin}/api/visits`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', 'user-agent': BROWSER },
    body: json({ path: '/' }),
  });
  const before = await redisSize();
  redisResults = await attack(upstash.origin);
  const after = await redisSize();
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
  redisGrowth =
    `${kb(after.bytes - before.bytes)} in ${after.keys - before.keys} more keys of figures (${after.keys} in all), ` +
    `and ${kb(after.markBytes - before.markBytes)} in ${after.marks - before.marks} marks of visits under way, gone 30 minutes after their last view`;
} finally {
  await upstash.stop();
  await bridge.stop();
  await redis.stop();
}

console.log(`\nBad and hostile views, POST /api/visits on the local production server\n`);
console.table(
  embeddedResults.map((row, index) => ({
    attempt: row.attempt,
    'embedded store': row.answers,
    'Upstash (REST bridge)': redisResults[index]?.answers ?? '',
  })),
);
console.log(`\nStore growth over all of them: embedded ${embeddedGrowth}; Upstash ${redisGrowth}.`);
