/**
 * The admin dashboard at scale: 10,000 subscribers and 10,000 leads are seeded into a fresh store,
 * then the dashboard's first view is timed on the local production server, through its API and
 * in Chromium, with the embedded store and with Redis (a real redis-server behind the Upstash
 * REST bridge the tests use, which also counts the store round trips of each request). It also
 * weighs the JavaScript the browser fetched on its way to the dashboard (gzip).
 *
 *   npm run bench:admin          (builds first)
 */
import { chromium } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startRedisServer } from '../harness/redis-server.ts';
import { startSiteServer } from '../harness/site-server.ts';
import { startUpstashBridge, type UpstashBridge } from '../harness/upstash-bridge.ts';
import { seedStore } from '../admin/seed-store.ts';

const COUNT = Number(process.env.BENCH_RECORDS ?? 10_000);
const RUNS = 7;
const PASSWORD = 'bench admin password';
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function measure(store: string, env: Record<string, string>, bridge?: UpstashBridge) {
  const seedStarted = Date.now();
  await seedStore({ subscribers: COUNT, leads: COUNT, env });
  const seedSeconds = (Date.now() - seedStarted) / 1000;
  const server = await startSiteServer({
    ...env,
    ADMIN_PASSWORD: PASSWORD,
    SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123',
  });
  const { origin } = server;
  try {
    const login = await fetch(`${origin}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: PASSWORD }),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const apiTimes: number[] = [];
    const roundTrips: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const before = bridge?.requestCount() ?? 0;
      const started = performance.now();
      const response = await fetch(`${origin}/api/admin/overview`, { headers: { cookie } });
      // The lists' totals: the subscribers' figure on the dashboard counts confirmed ones only.
      const body = (await response.json()) as { subscribers: { total: number }; leads: { total: number } };
      apiTimes.push(performance.now() - started);
      roundTrips.push((bridge?.requestCount() ?? 0) - before);
      if (body.subscribers.total < COUNT || body.leads.total < COUNT)
        throw new Error('the store does not hold the seeded records');
    }

    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu'],
    });
    const pageTimes: number[] = [];
    // Every script the page fetches on the way to the dashboard (the login form's, then the dashboard's and the chart's).
    const scripts = new Map<string, Buffer>();
    try {
      const page = await browser.newPage();
      page.on('response', async (response) => {
        if (response.request().resourceType() !== 'script') return;
        scripts.set(response.url(), await response.body().catch(() => Buffer.alloc(0)));
      });
      await page.goto(`${origin}/admin/insights`);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('button', { name: 'Logout' }).waitFor();
      for (let run = 0; run < 3; run += 1) {
        const started = performance.now();
        await page.goto(`${origin}/admin/insights`);
        await page.locator('section[aria-labelledby="leads-title"] tbody tr').first().waitFor();
        await page.locator('section[aria-labelledby="activity-title"] canvas').first().waitFor();
        pageTimes.push(performance.now() - started);
      }
    } finally {
      await browser.close();
    }
    return {
      store,
      records: `${COUNT} + ${COUNT}`,
      'seed s': seedSeconds.toFixed(1),
      'overview API ms (median)': median(apiTimes).toFixed(0),
      'store round trips': bridge ? median(roundTrips) : 'n/a (SQLite)',
      'page to dashboard ms (median)': median(pageTimes).toFixed(0),
      'dashboard JS KB gzip': (
        [...scripts.values()].reduce((sum, code) => sum + gzipSync(code).byteLength, 0) / 1024
      ).toFixed(1),
    };
  } finally {
    server.stop();
  }
}

const rows = [];
const folder = mkdtempSync(path.join(tmpdir(), 'bench-admin-'));
try {
  rows.push(await measure('embedded', { LOCAL_STORE_DIR: folder }));
} finally {
  rmSync(folder, { recursive: true, force: true });
}
const redis = await startRedisServer();
const bridge = await startUpstashBridge({ redisUrl: redis.url, token: 'bench' });
try {
  rows.push(
    await measure(
      'redis (REST bridge)',
      { UPSTASH_REDIS_REST_URL: bridge.url, UPSTASH_REDIS_REST_TOKEN: 'bench' },
      bridge,
    ),
  );
} finally {
  await bridge.stop();
  await redis.stop();
}
console.log('\nAdmin dashboard, first view, on the local production server\n');
console.table(rows);
