/**
 * GET /api/admin/campaigns with real Requests, on the embedded store and on Upstash Redis: every
 * campaign, 20 to a page in the dashboard's order, searched by source, medium and campaign.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import adminCampaigns from '../../functions/admin-campaigns';
import adminLogin from '../../functions/admin-login';
import { resetEnv } from '../../functions/_lib/platform/env';
import { createUpstashClient } from '../../functions/_lib/store/redis/backend';
import type { CampaignRow, ListPage } from '../../src/shared/api';
import { createContext } from '../../scripts/harness/functions';
import { startRedisServer, type RedisServerHandle } from '../../scripts/harness/redis-server';
import { startUpstashBridge, type UpstashBridge } from '../../scripts/harness/upstash-bridge';
import { CAMPAIGNS, seedCampaigns } from '../support/campaigns';
import { createRedisStore, createSqliteStore, type SqliteStore, type Store } from '../support/stores';

const PASSWORD = 'correct horse battery staple';
const TOKEN = 'admin-campaigns-token';
let folder = '';
let redis: RedisServerHandle | undefined;
let bridge: UpstashBridge | undefined;
const opened: SqliteStore[] = [];
const upstashClient = () => createUpstashClient({ url: bridge?.url ?? '', token: TOKEN, timeoutMs: 5000 });

beforeAll(async () => {
  redis = await startRedisServer();
  bridge = await startUpstashBridge({ redisUrl: redis.url, token: TOKEN });
});
afterAll(async () => {
  await bridge?.stop();
  await redis?.stop();
});
beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'admin-campaigns-'));
  Object.assign(process.env, {
    LOCAL_STORE_DIR: folder,
    ADMIN_PASSWORD: PASSWORD,
    SESSION_SECRET: 'a'.repeat(16) + 'b'.repeat(16) + 'c'.repeat(8),
    SITE_LOCAL_RUN: 'true',
  });
  resetEnv();
});
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  rmSync(folder, { recursive: true, force: true });
  for (const key of [
    'ADMIN_PASSWORD',
    'SESSION_SECRET',
    'LOCAL_STORE_DIR',
    'SITE_LOCAL_RUN',
    'UPSTASH_REDIS_REST_URL',
    'UPSTASH_REDIS_REST_TOKEN',
  ])
    delete process.env[key];
  resetEnv();
});

const context = () => createContext({ ip: '203.0.113.9' });

async function login(): Promise<string> {
  const response = await adminLogin(
    new Request('http://localhost/api/admin/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: PASSWORD }),
    }),
    context(),
  );
  // The cookie as the server set it: on a local run over http it has no __Host- prefix.
  return /^[^;]*/.exec(response.headers.get('set-cookie') ?? '')?.[0] ?? '';
}

/** GET /api/admin/campaigns with the query given (already encoded), with or without a session. */
const campaigns = (query: string, cookie?: string, method = 'GET') =>
  adminCampaigns(
    new Request(`http://localhost/api/admin/campaigns${query}`, {
      method,
      headers: cookie ? { cookie } : {},
    }),
    context(),
  );

test('without a session it answers 401', async () => {
  const response = await campaigns('?page=1');
  expect(response.status).toBe(401);
  expect(await response.json()).toEqual({ error: 'Not logged in' });
});

test('other methods answer 405', async () => {
  const response = await campaigns('', await login(), 'DELETE');
  expect(response.status).toBe(405);
  expect(response.headers.get('allow')).toBe('GET');
});

test.each([
  ['page=0', 'page must be a whole number from 1 to 100000'],
  ['page=-1', 'page must be a whole number from 1 to 100000'],
  ['page=two', 'page must be a whole number from 1 to 100000'],
  ['page=1.5', 'page must be a whole number from 1 to 100000'],
  ['page=', 'page must be a whole number from 1 to 100000'],
  ['page=100001', 'page must be a whole number from 1 to 100000'],
  ['page=1&page=2', 'Give page only once'],
  [`q=${'x'.repeat(201)}`, 'q must be at most 200 characters'],
  ['q=a%00b', 'q must not hold control characters'],
  ['q=a&q=b', 'Give q only once'],
  ['sort=leads', 'Unknown query parameter sort; use page and q'],
])('?%s answers 400: %s', async (query, error) => {
  const response = await campaigns(`?${query}`, await login());
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({ error });
  expect(response.headers.get('cache-control')).toBe('no-store');
});

describe.each([
  [
    'the embedded SQLite store',
    () => undefined,
    (): Store => {
      const store = createSqliteStore(folder);
      opened.push(store);
      return store;
    },
  ],
  [
    'Upstash Redis',
    async () => {
      Object.assign(process.env, { UPSTASH_REDIS_REST_URL: bridge?.url, UPSTASH_REDIS_REST_TOKEN: TOKEN });
      resetEnv();
      await upstashClient().flushdb();
    },
    (): Store => createRedisStore(upstashClient()),
  ],
])('on %s', (_name, use: () => unknown, openStore: () => Store) => {
  let cookie = '';
  beforeEach(async () => {
    await use();
    await seedCampaigns(openStore(), CAMPAIGNS, new Date());
    cookie = await login();
  });

  async function page(query: string): Promise<ListPage<CampaignRow>> {
    const response = await campaigns(query, cookie);
    expect(response.status, query).toBe(200);
    return (await response.json()) as ListPage<CampaignRow>;
  }

  test('pages every campaign, 20 to a page, in the dashboard order; a page past the end is empty', async () => {
    expect(await page('')).toEqual({ items: CAMPAIGNS.slice(0, 20), total: 29, page: 1, pageSize: 20 });
    expect(await page('?page=2')).toEqual({ items: CAMPAIGNS.slice(20), total: 29, page: 2, pageSize: 20 });
    expect(await page('?page=3')).toEqual({ items: [], total: 29, page: 3, pageSize: 20 });
  });

  test.each([
    ['LINKEDIN', ['alpha']],
    ['email', ['bravo']],
    ['Alph', ['alpha']],
    ['  podcast ', ['zulu']],
    ['filler-2', ['filler-20', 'filler-21', 'filler-22', 'filler-23', 'filler-24']],
    ['(none)', ['(none)']],
    ['', CAMPAIGNS.slice(0, 20).map((row) => row.campaign)],
    ['nothing like it', []],
  ])('searches source, medium and campaign, whatever the case: %j', async (q, names) => {
    const found = await page(`?q=${encodeURIComponent(q)}`);
    expect(found.items.map((row) => row.campaign)).toEqual(names);
    expect(found.total).toBe(q === '' ? 29 : names.length);
  });

  test('pages what a search finds', async () => {
    const second = await page('?q=FILLER&page=2');
    expect(second).toEqual({ items: CAMPAIGNS.slice(24, 28), total: 24, page: 2, pageSize: 20 });
  });
});
