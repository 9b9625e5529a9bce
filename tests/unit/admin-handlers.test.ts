/**
 * The admin endpoints with real Requests against the embedded store (and, for the login lockout,
 * Upstash Redis too): who gets in, who does not, and what a cookie is worth after logout or tampering.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Context } from '@netlify/functions';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import adminLeads from '../../functions/admin-leads';
import adminLogin from '../../functions/admin-login';
import adminLogout from '../../functions/admin-logout';
import adminOverview from '../../functions/admin-overview';
import adminSession from '../../functions/admin-session';
import adminSubscribers from '../../functions/admin-subscribers';
import { hashPassword, SESSION_COOKIE, signSession } from '../../functions/_lib/admin/auth';
import { resetEnv } from '../../functions/_lib/env';
import { createUpstashClient, KEYS } from '../../functions/_lib/store/redis';
import { createSqliteStore, DATABASE_FILE, type SqliteStore } from '../../functions/_lib/store/sqlite';
import { createContext } from '../../scripts/functions-runner';
import { startRedisServer, type RedisServerHandle } from '../support/redis-server';
import { startUpstashBridge, type UpstashBridge } from '../support/upstash-bridge';

type Handler = (req: Request, context: Context) => Promise<Response>;

const PASSWORD = 'correct horse battery staple';
const SECRET = 'a'.repeat(16) + 'b'.repeat(16) + 'c'.repeat(8);
const ORIGIN = 'http://localhost';
let folder: string;
const opened: SqliteStore[] = [];
/** The embedded store the handlers use, opened beside them. */
const createFileStore = (directory: string) => {
  const store = createSqliteStore(directory);
  opened.push(store);
  return store;
};

beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'admin-'));
  for (const key of ['UPSTASH_REDIS_REST_URL', 'UPSTASH_REDIS_REST_TOKEN', 'ADMIN_PASSWORD_HASH']) delete process.env[key];
  Object.assign(process.env, { LOCAL_STORE_DIR: folder, ADMIN_PASSWORD: PASSWORD, SESSION_SECRET: SECRET, SITE_LOCAL_RUN: 'true' });
  resetEnv();
});
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  rmSync(folder, { recursive: true, force: true });
  for (const key of ['ADMIN_PASSWORD', 'SESSION_SECRET', 'LOCAL_STORE_DIR', 'SITE_LOCAL_RUN']) delete process.env[key];
  resetEnv();
});

function request(pathname: string, { method = 'GET', cookie, body, headers = {} }: { method?: string; cookie?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  return new Request(`${ORIGIN}${pathname}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(cookie ? { cookie: `${SESSION_COOKIE}=${cookie}` } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const run = (handler: Handler, req: Request, ip = '203.0.113.9', params: Record<string, string> = {}) => handler(req, createContext({ ip, params }));

async function login(password = PASSWORD, ip = '203.0.113.9') {
  const response = await run(adminLogin, request('/api/admin/login', { method: 'POST', body: { password } }), ip);
  const cookie = /__Host-admin_session=([^;]*)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  return { response, cookie };
}

/** Every admin data endpoint, as a request carrying the given cookie. */
const DATA_ENDPOINTS: [string, Handler, (cookie?: string) => Request, Record<string, string>?][] = [
  ['GET /api/admin/overview', adminOverview, (cookie) => request('/api/admin/overview', { cookie })],
  ['GET /api/admin/leads', adminLeads, (cookie) => request('/api/admin/leads?page=1', { cookie })],
  ['GET /api/admin/leads?format=csv', adminLeads, (cookie) => request('/api/admin/leads?format=csv', { cookie })],
  ['GET /api/admin/subscribers', adminSubscribers, (cookie) => request('/api/admin/subscribers', { cookie })],
  ['GET /api/admin/subscribers?format=csv', adminSubscribers, (cookie) => request('/api/admin/subscribers?format=csv', { cookie })],
  ['DELETE /api/admin/subscribers/{email}', adminSubscribers, (cookie) => request('/api/admin/subscribers/a%40example.com', { method: 'DELETE', cookie, body: {} }), { email: 'a%40example.com' }],
];

describe('login', () => {
  test('the right password sets a secure, HttpOnly, strict session cookie of at most 8 hours', async () => {
    const { response, cookie } = await login();
    expect(response.status).toBe(200);
    const header = response.headers.get('set-cookie') ?? '';
    expect(header).toMatch(/^__Host-admin_session=/);
    for (const attribute of ['HttpOnly', 'Secure', 'SameSite=Strict', 'Path=/', 'Max-Age=28800']) expect(header).toContain(attribute);
    expect(header).not.toMatch(/Domain=/i);
    expect(cookie).toBeTruthy();
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  test('each login gets a fresh session id', async () => {
    const first = await login();
    const second = await login();
    expect(first.cookie?.split('.')[0]).not.toBe(second.cookie?.split('.')[0]);
  });

  test('a wrong password answers 401 "Invalid password"', async () => {
    const { response, cookie } = await login('wrong password');
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'Invalid password' });
    expect(cookie).toBeUndefined();
  });

  test('the sixth attempt after five wrong passwords answers 429, even with the right password, for that IP only', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await login('wrong', '198.51.100.20')).response.status).toBe(401);
    const sixth = await login('wrong', '198.51.100.20');
    expect(sixth.response.status).toBe(429);
    expect(Number(sixth.response.headers.get('retry-after'))).toBeGreaterThan(800);
    const right = await login(PASSWORD, '198.51.100.20');
    expect(right.response.status).toBe(429);
    expect(right.cookie).toBeUndefined();
    expect((await login(PASSWORD, '198.51.100.21')).response.status).toBe(200);
  });

  test('the lockout ends when its 15-minute window has passed', async () => {
    const store = createFileStore(folder);
    const longAgo = new Date(Date.now() - 16 * 60 * 1000);
    for (let attempt = 0; attempt < 6; attempt += 1) await store.countLoginAttempt('198.51.100.30', 15 * 60, longAgo);
    expect((await login(PASSWORD, '198.51.100.30')).response.status).toBe(200);
  });

  test('without a password or secret configured, login answers 503 and says how to configure it', async () => {
    delete process.env.SESSION_SECRET;
    resetEnv();
    const { response } = await login();
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: string }).error).toMatch(/ADMIN_PASSWORD_HASH.*SESSION_SECRET/);
  });

  // On Netlify the deploy context comes from a request header and is empty when it is missing:
  // only the local run's own variable lets a plain password or the embedded store in.
  test.each(['production', 'deploy-preview', '', 'dev'])('outside a local run (deploy context %j), a plain ADMIN_PASSWORD and the embedded store are refused', async (deployContext) => {
    delete process.env.SITE_LOCAL_RUN;
    resetEnv();
    const context = createContext({ ip: '1.2.3.4' });
    context.deploy.context = deployContext;
    const response = await adminLogin(request('/api/admin/login', { method: 'POST', body: { password: PASSWORD } }), context);
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: string }).error).toMatch(/ADMIN_PASSWORD_HASH/);
    expect(response.headers.get('set-cookie')).toBeNull();

    // With a hash the password is accepted as configured, and the store is still refused: no embedded store off a local run.
    Object.assign(process.env, { ADMIN_PASSWORD_HASH: await hashPassword(PASSWORD) });
    resetEnv();
    const withHash = await adminLogin(request('/api/admin/login', { method: 'POST', body: { password: PASSWORD } }), context);
    expect(withHash.status).toBe(503);
    expect(await withHash.json()).toMatchObject({ error: 'Storage is not configured' });
  });

  test.each([
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }, 403],
    ['a foreign Origin', { origin: 'https://evil.example' }, 403],
    ['a form content type', { 'content-type': 'application/x-www-form-urlencoded' }, 415],
  ])('a login with %s is refused', async (_label, headers, status) => {
    const response = await run(adminLogin, request('/api/admin/login', { method: 'POST', body: { password: PASSWORD }, headers }));
    expect(response.status).toBe(status);
    expect(response.headers.get('set-cookie')).toBeNull();
  });
});

/** A store the login handler can use, and a way to let its lockout window pass without waiting 15 minutes. */
interface LockoutBackend {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Points the handlers at this store (after the shared set-up above). */
  use(): Promise<void>;
  /** Ends the client's current window in the store itself, as its expiry would. */
  endWindow(client: string): Promise<void>;
}

const embeddedLockout: LockoutBackend = {
  start: async () => undefined,
  stop: async () => undefined,
  use: async () => undefined,
  async endWindow(client) {
    const db = new DatabaseSync(path.join(folder, DATABASE_FILE));
    try {
      db.prepare('UPDATE login_attempts SET reset_at = ? WHERE client = ?').run(Date.now() - 1, client);
    } finally {
      db.close();
    }
  },
};

const UPSTASH_TOKEN = 'admin-lockout-token';
let redis: RedisServerHandle | undefined;
let bridge: UpstashBridge | undefined;
const upstashClient = () => createUpstashClient({ url: bridge?.url ?? '', token: UPSTASH_TOKEN, timeoutMs: 5000 });
const upstashLockout: LockoutBackend = {
  async start() {
    redis = await startRedisServer();
    bridge = await startUpstashBridge({ redisUrl: redis.url, token: UPSTASH_TOKEN });
  },
  async stop() {
    await bridge?.stop();
    await redis?.stop();
  },
  async use() {
    Object.assign(process.env, { UPSTASH_REDIS_REST_URL: bridge?.url, UPSTASH_REDIS_REST_TOKEN: UPSTASH_TOKEN });
    resetEnv();
    await upstashClient().flushdb();
  },
  async endWindow(client) {
    await upstashClient().pexpireat(KEYS.loginAttempts(client), Date.now() - 1);
  },
};

describe.each([
  ['the embedded SQLite store', embeddedLockout],
  ['Upstash Redis', upstashLockout],
])('login lockout on %s', (_name, backend) => {
  beforeAll(() => backend.start());
  afterAll(() => backend.stop());
  beforeEach(() => backend.use());
  afterEach(() => {
    delete process.env.UPSTASH_REDIS_REST_URL;
    delete process.env.UPSTASH_REDIS_REST_TOKEN;
  });

  test('100 simultaneous wrong passwords from one IP: 5 are checked, the rest and then the right one are refused until the window passes', async () => {
    const ip = '198.51.100.77';
    const statuses = (await Promise.all(Array.from({ length: 100 }, () => login('wrong password', ip)))).map(({ response }) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(95);
    const right = await login(PASSWORD, ip);
    expect(right.response.status).toBe(429);
    expect(right.cookie).toBeUndefined();
    await backend.endWindow(ip);
    expect((await login(PASSWORD, ip)).response.status).toBe(200);
  });

  test('a successful login resets the count of its client', async () => {
    const ip = '198.51.100.78';
    for (let attempt = 0; attempt < 4; attempt += 1) expect((await login('wrong password', ip)).response.status).toBe(401);
    expect((await login(PASSWORD, ip)).response.status).toBe(200);
    const after = [];
    for (let attempt = 0; attempt < 6; attempt += 1) after.push((await login('wrong password', ip)).response.status);
    expect(after).toEqual([401, 401, 401, 401, 401, 429]);
  });
});

describe('admin data endpoints', () => {
  const now = new Date();
  const cookies: [string, () => Promise<string | undefined>][] = [
    ['no cookie', async () => undefined],
    ['a tampered cookie', async () => (await login()).cookie?.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'))],
    ['a truncated cookie', async () => (await login()).cookie?.slice(0, 30)],
    ['an oversized cookie', async () => 'x'.repeat(8000)],
    ['an expired cookie', async () => signSession('c2Vzc2lvbi1pZC1leHBpcmVkLTAwMDAwMDAwMDAwMDA', new Date(now.getTime() - 1000), SECRET)],
    ['a cookie signed with another secret', async () => signSession('c2Vzc2lvbi1pZC1vdGhlci0wMDAwMDAwMDAwMDAwMDA', new Date(now.getTime() + 3_600_000), 'z'.repeat(40))],
    ['a well-signed cookie whose session was never created', async () => signSession('bm90LWluLXRoZS1zdG9yZS0wMDAwMDAwMDAwMDAwMDA', new Date(now.getTime() + 3_600_000), SECRET)],
  ];

  for (const [endpoint, handler, build, params] of DATA_ENDPOINTS) {
    test.each(cookies)(`${endpoint} answers 401 to %s`, async (_label, makeCookie) => {
      const response = await run(handler, build(await makeCookie()), '203.0.113.50', params);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'Not logged in' });
      expect(response.headers.get('cache-control')).toBe('no-store');
    });
  }

  test('with a valid session they answer, and the session endpoint says so', async () => {
    const { cookie } = await login();
    for (const [, handler, build, params] of DATA_ENDPOINTS.filter(([name]) => !name.startsWith('DELETE'))) {
      expect((await run(handler, build(cookie), '203.0.113.9', params)).status).toBe(200);
    }
    expect(await (await run(adminSession, request('/api/admin/session', { cookie }))).json()).toEqual({ authenticated: true });
    expect(await (await run(adminSession, request('/api/admin/session'))).json()).toEqual({ authenticated: false });
  });

  test('a cookie replayed after logout answers 401', async () => {
    const { cookie } = await login();
    const logout = await run(adminLogout, request('/api/admin/logout', { method: 'POST', cookie, body: {} }));
    expect(logout.status).toBe(200);
    expect(logout.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    expect((await run(adminOverview, request('/api/admin/overview', { cookie }))).status).toBe(401);
  });

  test('a cross-site state-changing call answers 403 and changes nothing', async () => {
    const store = createFileStore(folder);
    await store.subscribe({ email: 'keep@example.com', firstName: 'Keep', source: 'website_footer' }, new Date());
    const { cookie } = await login();
    const params = { email: 'keep%40example.com' };
    const crossSite = request('/api/admin/subscribers/keep%40example.com', { method: 'DELETE', cookie, body: {}, headers: { 'sec-fetch-site': 'cross-site' } });
    expect((await run(adminSubscribers, crossSite, '203.0.113.9', params)).status).toBe(403);
    const foreign = request('/api/admin/logout', { method: 'POST', cookie, body: {}, headers: { origin: 'https://evil.example' } });
    expect((await run(adminLogout, foreign)).status).toBe(403);
    expect(await store.getSubscriber('keep@example.com')).toBeDefined();
    expect((await run(adminOverview, request('/api/admin/overview', { cookie }))).status).toBe(200);
  });

  test('records whose source is a name Object.prototype has keep the dashboard figures numbers', async () => {
    // Stored before sources were checked, or by an older version: the counts must stay data.
    const store = createFileStore(folder);
    const now = new Date();
    for (const source of ['constructor', 'toString', 'valueOf', '__proto__', 'contact_form']) await store.createLead({ name: 'Ada', email: `${source}@example.com`, source }, now);
    await store.subscribe({ email: 'proto@example.com', firstName: 'Proto', source: 'constructor' }, now);
    const { cookie } = await login();
    const overview = (await (await run(adminOverview, request('/api/admin/overview', { cookie }))).json()) as {
      totals: Record<'leads' | 'subscribers', Record<'total' | 'last7' | 'last30', unknown>>;
      daily: { leads: unknown; subscribers: unknown }[];
      sources: Record<'leads' | 'subscribers', Record<string, unknown>>;
    };
    expect(overview.totals).toEqual({ leads: { total: 5, last7: 5, last30: 5 }, subscribers: { total: 1, last7: 1, last30: 1 } });
    expect(overview.daily.at(-1)).toMatchObject({ leads: 5, subscribers: 1 });
    expect(Object.entries(overview.sources.leads).sort()).toEqual([['__proto__', 1], ['constructor', 1], ['contact_form', 1], ['toString', 1], ['valueOf', 1]]);
    expect(overview.sources.subscribers).toEqual({ constructor: 1 });
  });

  test.each([['%E0%A4%A'], ['%'], ['%zz%40example.com']])('deleting with a malformed percent-escape (%s) in the path answers 400, not 500', async (email) => {
    const { cookie } = await login();
    const response = await run(adminSubscribers, request(`/api/admin/subscribers/${email}`, { method: 'DELETE', cookie, body: {} }), '203.0.113.9', { email });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'The path holds a malformed percent-escape' });
  });

  test('deleting a subscriber erases it', async () => {
    const store = createFileStore(folder);
    await store.subscribe({ email: 'gone@example.com', firstName: 'Gone', source: 'website_footer' }, new Date());
    const { cookie } = await login();
    const response = await run(adminSubscribers, request('/api/admin/subscribers/gone%40example.com', { method: 'DELETE', cookie, body: {} }), '203.0.113.9', { email: 'gone%40example.com' });
    expect(response.status).toBe(200);
    expect(await store.getSubscriber('gone@example.com')).toBeUndefined();
  });

  test('the CSV export quotes cells and neutralises formulas', async () => {
    const store = createFileStore(folder);
    await store.createLead({ name: '=HYPERLINK("http://evil.example","x")', email: 'f@example.com', source: 'contact_form', notes: 'line one\nline "two"' }, new Date());
    const { cookie } = await login();
    const response = await run(adminLeads, request('/api/admin/leads?format=csv', { cookie }));
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.headers.get('content-disposition')).toMatch(/attachment; filename="leads-/);
    const csv = await response.text();
    expect(csv).toContain('"\'=HYPERLINK(""http://evil.example"",""x"")"');
    expect(csv).toContain('"line one\nline ""two"""');
  });
});
