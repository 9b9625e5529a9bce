/**
 * The admin endpoints with real Requests against the embedded store (and, for the login lockout,
 * Upstash Redis too): who gets in, who does not, and what a cookie is worth after logout or tampering.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Context } from '@netlify/functions';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import adminLeads from '../../functions/admin-leads';
import adminLogin from '../../functions/admin-login';
import adminLogout from '../../functions/admin-logout';
import adminOutbox from '../../functions/admin-outbox';
import adminOverview from '../../functions/admin-overview';
import adminSession from '../../functions/admin-session';
import adminSpam from '../../functions/admin-spam';
import adminSubscribers from '../../functions/admin-subscribers';
import { hashPassword, SESSION_COOKIE, signSession } from '../../functions/_lib/admin/auth';
import { loginClient } from '../../functions/_lib/admin/session';
import { resetEnv } from '../../functions/_lib/platform/env';
import { KEYS } from '../../functions/_lib/store/keys';
import { DATABASE_FILE } from '../../functions/_lib/store/sqlite/database';
import { addEnv, setEnv, useStores } from '../support/store-setup';
import { createRedisStore, createSqliteStore, type Store } from '../support/stores';
import { OUTBOX_MESSAGE_KEEP_MS } from '../../functions/_lib/store/outbox-state';
import { deliverNow, pruneDelivered } from '../../functions/_lib/delivery/outbox';
import { localOutboxDir } from '../../functions/_lib/delivery/mail-transport';
import { getStore } from '../../functions/_lib/store/get-store';
import type { Lead, Subscriber } from '../../src/shared/records';
import type { LeadsPage, OutboxItem, Overview, SpamPage } from '../../src/shared/api-responses';
import { createContext } from '../../scripts/harness/functions';
import { leadEntries } from '../support/outbox-entries';
import { newsletterEntryId } from '../../functions/_lib/delivery/emails/newsletter-email';

type Handler = (req: Request, context: Context) => Promise<Response>;
/** One page of an admin list, as the dashboard reads it. */
interface ListPage<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

const PASSWORD = 'correct horse battery staple';
/** The session cookie of a local run over http (Safari keeps no Secure cookie on http://localhost). */
const LOCAL_COOKIE = 'admin_session';
const SECRET = 'a'.repeat(16) + 'b'.repeat(16) + 'c'.repeat(8);
const ORIGIN = 'http://localhost';
const stores = useStores();
/** The embedded store the handlers use, opened beside them. */
const createFileStore = (directory: string) => {
  const store = createSqliteStore(directory);
  stores.opened.push(store);
  return store;
};

beforeEach(() =>
  setEnv({
    LOCAL_STORE_DIR: stores.folder(),
    ADMIN_PASSWORD: PASSWORD,
    SESSION_SECRET: SECRET,
    SITE_LOCAL_RUN: 'true',
  }),
);

function request(
  pathname: string,
  {
    method = 'GET',
    cookie,
    cookieName = LOCAL_COOKIE,
    origin = ORIGIN,
    body,
    headers = {},
  }: {
    method?: string;
    cookie?: string;
    cookieName?: string;
    origin?: string;
    body?: unknown;
    headers?: Record<string, string>;
  } = {},
) {
  return new Request(`${origin}${pathname}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(cookie ? { cookie: `${cookieName}=${cookie}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const run = (handler: Handler, req: Request, ip = '203.0.113.9', params: Record<string, string> = {}) =>
  handler(req, createContext({ ip, params }));

/** DELETE /api/admin/subscribers/:email, the path segment as given (still percent-encoded). */
const deleteSubscriber = (email: string, cookie?: string) =>
  run(
    adminSubscribers,
    request(`/api/admin/subscribers/${email}`, { method: 'DELETE', cookie, body: {} }),
    '203.0.113.9',
    {
      email,
    },
  );

/** Hashes of two passwords, for a change of ADMIN_PASSWORD_HASH. */
const HASH_A = await hashPassword('password a 1c7e');
const HASH_B = await hashPassword('password b 2d8f');

async function login(password = PASSWORD, ip = '203.0.113.9', origin = ORIGIN) {
  const response = await run(
    adminLogin,
    request('/api/admin/login', { method: 'POST', body: { password }, origin }),
    ip,
  );
  const cookie = /^(?:__Host-)?admin_session=([^;]*)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  return { response, cookie };
}

/** A lead id no lead has. */
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** Every admin data endpoint, as a request carrying the given cookie. */
const DATA_ENDPOINTS: [string, Handler, (cookie?: string) => Request, Record<string, string>?][] = [
  ['GET /api/admin/overview', adminOverview, (cookie) => request('/api/admin/overview', { cookie })],
  ['GET /api/admin/leads', adminLeads, (cookie) => request('/api/admin/leads?page=1', { cookie })],
  ['GET /api/admin/leads?format=csv', adminLeads, (cookie) => request('/api/admin/leads?format=csv', { cookie })],
  ['GET /api/admin/subscribers', adminSubscribers, (cookie) => request('/api/admin/subscribers', { cookie })],
  [
    'GET /api/admin/subscribers?format=csv',
    adminSubscribers,
    (cookie) => request('/api/admin/subscribers?format=csv', { cookie }),
  ],
  [
    'DELETE /api/admin/subscribers/{email}',
    adminSubscribers,
    (cookie) => request('/api/admin/subscribers/a%40example.com', { method: 'DELETE', cookie, body: {} }),
    { email: 'a%40example.com' },
  ],
  [
    'DELETE /api/admin/leads/{id}',
    adminLeads,
    (cookie) => request(`/api/admin/leads/${UNKNOWN_ID}`, { method: 'DELETE', cookie, body: {} }),
    { id: UNKNOWN_ID },
  ],
  ['GET /api/admin/spam', adminSpam, (cookie) => request('/api/admin/spam?page=1', { cookie })],
  [
    'POST /api/admin/spam/{id}/release',
    adminSpam,
    (cookie) => request(`/api/admin/spam/${UNKNOWN_ID}/release`, { method: 'POST', cookie, body: {} }),
    { id: UNKNOWN_ID },
  ],
];

describe('login', () => {
  // Safari keeps no Secure cookie (and so no __Host- one) on http://localhost: the admin page
  // would never stay logged in there.
  test('locally over http, the right password sets an HttpOnly, strict cookie of at most 8 hours, without Secure or __Host-', async () => {
    const { response, cookie } = await login();
    expect(response.status).toBe(200);
    const header = response.headers.get('set-cookie') ?? '';
    expect(header).toMatch(/^admin_session=/);
    for (const attribute of ['HttpOnly', 'SameSite=Strict', 'Path=/', 'Max-Age=28800'])
      expect(header.split('; ')).toContain(attribute);
    expect(header).not.toMatch(/Secure|__Host-|Domain=/i);
    expect(cookie).toBeTruthy();
    expect(response.headers.get('cache-control')).toBe('no-store');
    // The cookie it set is the one it reads.
    const session = await run(adminSession, request('/api/admin/session', { cookie }));
    expect(await session.json()).toEqual({ authenticated: true });
  });

  test('locally over https, the cookie is __Host- and Secure, as deployed', async () => {
    const origin = 'https://localhost:8443';
    const { response, cookie } = await login(PASSWORD, '203.0.113.9', origin);
    const header = response.headers.get('set-cookie') ?? '';
    expect(header).toMatch(/^__Host-admin_session=/);
    expect(header.split('; ')).toEqual(expect.arrayContaining(['Secure', 'HttpOnly', 'SameSite=Strict', 'Path=/']));
    const session = await run(
      adminSession,
      request('/api/admin/session', { cookie, cookieName: SESSION_COOKIE, origin }),
    );
    expect(await session.json()).toEqual({ authenticated: true });
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
    for (let attempt = 0; attempt < 5; attempt += 1)
      expect((await login('wrong', '198.51.100.20')).response.status).toBe(401);
    const sixth = await login('wrong', '198.51.100.20');
    expect(sixth.response.status).toBe(429);
    expect(Number(sixth.response.headers.get('retry-after'))).toBeGreaterThan(800);
    const right = await login(PASSWORD, '198.51.100.20');
    expect(right.response.status).toBe(429);
    expect(right.cookie).toBeUndefined();
    expect((await login(PASSWORD, '198.51.100.21')).response.status).toBe(200);
  });

  test('the lockout ends when its 15-minute window has passed', async () => {
    const store = createFileStore(stores.folder());
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
  test.each(['production', 'deploy-preview', '', 'dev'])(
    'outside a local run (deploy context %j), a plain ADMIN_PASSWORD and the embedded store are refused',
    async (deployContext) => {
      delete process.env.SITE_LOCAL_RUN;
      resetEnv();
      const context = createContext({ ip: '1.2.3.4' });
      context.deploy.context = deployContext;
      const response = await adminLogin(
        request('/api/admin/login', { method: 'POST', body: { password: PASSWORD } }),
        context,
      );
      expect(response.status).toBe(503);
      expect(((await response.json()) as { error: string }).error).toMatch(/ADMIN_PASSWORD_HASH/);
      expect(response.headers.get('set-cookie')).toBeNull();

      // With a hash the password is accepted as configured, and the store is still refused: no embedded store off a local run.
      Object.assign(process.env, { ADMIN_PASSWORD_HASH: await hashPassword(PASSWORD) });
      resetEnv();
      const withHash = await adminLogin(
        request('/api/admin/login', { method: 'POST', body: { password: PASSWORD } }),
        context,
      );
      expect(withHash.status).toBe(503);
      expect(await withHash.json()).toMatchObject({ error: 'Storage is not configured' });
    },
  );

  test.each([
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }, 403],
    ['a foreign Origin', { origin: 'https://evil.example' }, 403],
    ['a form content type', { 'content-type': 'application/x-www-form-urlencoded' }, 415],
  ])('a login with %s is refused', async (_label, headers, status) => {
    const response = await run(
      adminLogin,
      request('/api/admin/login', { method: 'POST', body: { password: PASSWORD }, headers }),
    );
    expect(response.status).toBe(status);
    expect(response.headers.get('set-cookie')).toBeNull();
  });
});

/** A store the login handler can use, and a way to let its lockout window pass without waiting 15 minutes. */
interface LockoutBackend {
  /** Points the handlers at this store (after the shared set-up above). */
  use(): Promise<void>;
  /** Ends the current window of a client (its address) in the store itself, as its expiry would. */
  endWindow(ip: string): Promise<void>;
  /** Every key the store holds tallies under. */
  tallyKeys(): Promise<string[]>;
}

/** The key of the attempts of a client's address, as the login handler counts them. */
const attemptsKey = (ip: string) => KEYS.loginAttempts(loginClient(SECRET, ip));

const embeddedLockout: LockoutBackend = {
  use: async () => undefined,
  async endWindow(ip) {
    const db = new DatabaseSync(path.join(stores.folder(), DATABASE_FILE));
    try {
      db.prepare('UPDATE tallies SET reset_at = ? WHERE key = ?').run(Date.now() - 1, attemptsKey(ip));
    } finally {
      db.close();
    }
  },
  async tallyKeys() {
    const db = new DatabaseSync(path.join(stores.folder(), DATABASE_FILE), { readOnly: true });
    try {
      return db
        .prepare('SELECT key FROM tallies')
        .all()
        .map((row) => String(row.key));
    } finally {
      db.close();
    }
  },
};

const upstashClient = () => stores.client();
const upstashLockout: LockoutBackend = {
  async use() {
    addEnv(stores.env());
    await upstashClient().flushdb();
  },
  async endWindow(ip) {
    await upstashClient().pexpireat(attemptsKey(ip), Date.now() - 1);
  },
  tallyKeys: () => upstashClient().keys('*'),
};

describe.each([
  ['the embedded SQLite store', embeddedLockout],
  ['Upstash Redis', upstashLockout],
])('login lockout on %s', (_name, backend) => {
  beforeEach(() => backend.use());

  test('100 simultaneous wrong passwords from one IP: 5 are checked, the rest and then the right one are refused until the window passes', async () => {
    const ip = '198.51.100.77';
    const statuses = (await Promise.all(Array.from({ length: 100 }, () => login('wrong password', ip)))).map(
      ({ response }) => response.status,
    );
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(95);
    const right = await login(PASSWORD, ip);
    expect(right.response.status).toBe(429);
    expect(right.cookie).toBeUndefined();
    await backend.endWindow(ip);
    expect((await login(PASSWORD, ip)).response.status).toBe(200);
  });

  test("a client's attempts are counted under a keyed hash of its address, never the address", async () => {
    const ip = '198.51.100.79';
    expect((await login('wrong password', ip)).response.status).toBe(401);
    const keys = await backend.tallyKeys();
    expect(keys).toContain(attemptsKey(ip));
    expect(keys.filter((key) => key.includes(ip))).toEqual([]);
  });

  test('a successful login resets the count of its client', async () => {
    const ip = '198.51.100.78';
    for (let attempt = 0; attempt < 4; attempt += 1)
      expect((await login('wrong password', ip)).response.status).toBe(401);
    expect((await login(PASSWORD, ip)).response.status).toBe(200);
    const after = [];
    for (let attempt = 0; attempt < 6; attempt += 1) after.push((await login('wrong password', ip)).response.status);
    expect(after).toEqual([401, 401, 401, 401, 401, 429]);
  });
});

describe('sessions and the password they were opened with', () => {
  const overviewStatus = async (cookie?: string) =>
    (await run(adminOverview, request('/api/admin/overview', { cookie }))).status;

  test.each([
    ['ADMIN_PASSWORD', { ADMIN_PASSWORD: 'another password 9f3c' }],
    ['ADMIN_PASSWORD_HASH', { ADMIN_PASSWORD_HASH: HASH_B }],
  ])('a new %s ends every session opened with the old one', async (_name, change) => {
    if ('ADMIN_PASSWORD_HASH' in change) {
      delete process.env.ADMIN_PASSWORD;
      Object.assign(process.env, { ADMIN_PASSWORD_HASH: HASH_A });
      resetEnv();
    }
    const { cookie } = await login('ADMIN_PASSWORD_HASH' in change ? 'password a 1c7e' : PASSWORD);
    expect(await overviewStatus(cookie)).toBe(200);
    // The server starts again with the new password and the same SESSION_SECRET.
    Object.assign(process.env, change);
    resetEnv();
    expect(await overviewStatus(cookie)).toBe(401);
    delete process.env.ADMIN_PASSWORD_HASH;
  });

  test('"Log out everywhere" ends every session, this one and another browser\'s', async () => {
    const { cookie: here } = await login();
    const { cookie: there } = await login(PASSWORD, '203.0.113.10');
    const everywhere = await run(
      adminLogout,
      request('/api/admin/logout', { method: 'POST', cookie: here, body: { everywhere: true } }),
    );
    expect(everywhere.status).toBe(200);
    expect([await overviewStatus(here), await overviewStatus(there)]).toEqual([401, 401]);
    // A session opened afterwards works.
    const { cookie: again } = await login();
    expect(await overviewStatus(again)).toBe(200);
  });
});

describe('admin data endpoints', () => {
  const now = new Date();
  const cookies: [string, () => Promise<string | undefined>][] = [
    ['no cookie', async () => undefined],
    ['a tampered cookie', async () => (await login()).cookie?.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'))],
    ['a truncated cookie', async () => (await login()).cookie?.slice(0, 30)],
    ['an oversized cookie', async () => 'x'.repeat(8000)],
    [
      'an expired cookie',
      async () => signSession('c2Vzc2lvbi1pZC1leHBpcmVkLTAwMDAwMDAwMDAwMDA', new Date(now.getTime() - 1000), SECRET),
    ],
    [
      'a cookie signed with another secret',
      async () =>
        signSession('c2Vzc2lvbi1pZC1vdGhlci0wMDAwMDAwMDAwMDAwMDA', new Date(now.getTime() + 3_600_000), 'z'.repeat(40)),
    ],
    [
      'a well-signed cookie whose session was never created',
      async () =>
        signSession('bm90LWluLXRoZS1zdG9yZS0wMDAwMDAwMDAwMDAwMDA', new Date(now.getTime() + 3_600_000), SECRET),
    ],
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
    for (const [, handler, build, params] of DATA_ENDPOINTS.filter(([name]) => name.startsWith('GET'))) {
      expect((await run(handler, build(cookie), '203.0.113.9', params)).status).toBe(200);
    }
    expect(await (await run(adminSession, request('/api/admin/session', { cookie }))).json()).toEqual({
      authenticated: true,
    });
    expect(await (await run(adminSession, request('/api/admin/session'))).json()).toEqual({ authenticated: false });
  });

  const LISTS: [string, Handler, string][] = [
    ['leads', adminLeads, 'page and format and q and status and form'],
    ['subscribers', adminSubscribers, 'page and format'],
    ['outbox', adminOutbox, 'page'],
    ['spam', adminSpam, 'page'],
  ];
  const BAD_QUERIES: [string, string | ((known: string) => string)][] = [
    ['page=abc', 'page must be a whole number from 1 to 100000'],
    ['page=0', 'page must be a whole number from 1 to 100000'],
    ['page=-1', 'page must be a whole number from 1 to 100000'],
    ['page=2.5', 'page must be a whole number from 1 to 100000'],
    ['page=1e9', 'page must be a whole number from 1 to 100000'],
    ['page=', 'page must be a whole number from 1 to 100000'],
    ['page=100001', 'page must be a whole number from 1 to 100000'],
    ['page=1&page=2', 'Give page only once'],
    ['sort=newest', (known) => `Unknown query parameter sort; use ${known}`],
  ];
  for (const [list, handler, known] of LISTS) {
    test.each(BAD_QUERIES)(`GET /api/admin/${list}?%s answers 400 saying why`, async (query, error) => {
      const { cookie } = await login();
      const response = await run(handler, request(`/api/admin/${list}?${query}`, { cookie }));
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: typeof error === 'string' ? error : error(known) });
    });
  }

  test.each(['leads', 'subscribers'] as const)('GET /api/admin/%s?format= other than csv answers 400', async (list) => {
    const { cookie } = await login();
    const handler = list === 'leads' ? adminLeads : adminSubscribers;
    const response = await run(handler, request(`/api/admin/${list}?format=xml`, { cookie }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'format can only be csv' });
    const csv = await run(handler, request(`/api/admin/${list}?format=csv`, { cookie }));
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const second = await run(handler, request(`/api/admin/${list}?page=2`, { cookie }));
    expect(await second.json()).toMatchObject({ page: 2, items: [] });
  });

  test('a cookie replayed after logout answers 401', async () => {
    const { cookie } = await login();
    const logout = await run(adminLogout, request('/api/admin/logout', { method: 'POST', cookie, body: {} }));
    expect(logout.status).toBe(200);
    expect(logout.headers.get('set-cookie')).toMatch(/^admin_session=; .*Max-Age=0/);
    expect((await run(adminOverview, request('/api/admin/overview', { cookie }))).status).toBe(401);
  });

  test('a cross-site state-changing call answers 403 and changes nothing', async () => {
    const store = createFileStore(stores.folder());
    await store.subscribe({ email: 'keep@example.com', firstName: 'Keep', source: 'website_footer' }, new Date());
    const { cookie } = await login();
    const params = { email: 'keep%40example.com' };
    const crossSite = request('/api/admin/subscribers/keep%40example.com', {
      method: 'DELETE',
      cookie,
      body: {},
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect((await run(adminSubscribers, crossSite, '203.0.113.9', params)).status).toBe(403);
    const foreign = request('/api/admin/logout', {
      method: 'POST',
      cookie,
      body: {},
      headers: { origin: 'https://evil.example' },
    });
    expect((await run(adminLogout, foreign)).status).toBe(403);
    expect(await store.getSubscriber('keep@example.com')).toBeDefined();
    expect((await run(adminOverview, request('/api/admin/overview', { cookie }))).status).toBe(200);
  });

  test('records whose source is a name Object.prototype has keep the dashboard figures numbers', async () => {
    // Stored before sources were checked, or by an older version: the counts must stay data.
    const store = createFileStore(stores.folder());
    const now = new Date();
    for (const source of ['constructor', 'toString', 'valueOf', '__proto__', 'contact_form'])
      await store.createLead({ name: 'Ada', email: `${source}@example.com`, source }, now);
    await store.subscribe({ email: 'proto@example.com', firstName: 'Proto', source: 'constructor' }, now);
    await store.confirmSubscriber({ email: 'proto@example.com', firstName: 'Proto', source: 'constructor' }, now);
    const { cookie } = await login();
    const overview = (await (await run(adminOverview, request('/api/admin/overview', { cookie }))).json()) as {
      totals: Record<'leads' | 'subscribers', Record<'total' | 'last7' | 'last30', unknown>>;
      daily: { leads: unknown; subscribers: unknown }[];
      sources: Record<'leads' | 'subscribers', Record<string, unknown>>;
    };
    expect(overview.totals).toEqual({
      leads: { total: 5, last7: 5, last30: 5 },
      subscribers: { total: 1, last7: 1, last30: 1 },
    });
    expect(overview.daily.at(-1)).toMatchObject({ leads: 5, subscribers: 1 });
    expect(Object.entries(overview.sources.leads).sort()).toEqual([
      ['__proto__', 1],
      ['constructor', 1],
      ['contact_form', 1],
      ['toString', 1],
      ['valueOf', 1],
    ]);
    expect(overview.sources.subscribers).toEqual({ constructor: 1 });
  });

  test.each([['%E0%A4%A'], ['%'], ['%zz%40example.com']])(
    'deleting with a malformed percent-escape (%s) in the path answers 400, not 500',
    async (email) => {
      const { cookie } = await login();
      const response = await deleteSubscriber(email, cookie);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'The path holds a malformed percent-escape' });
    },
  );

  test('deleting a subscriber erases it', async () => {
    const store = createFileStore(stores.folder());
    await store.subscribe({ email: 'gone@example.com', firstName: 'Gone', source: 'website_footer' }, new Date());
    const { cookie } = await login();
    const response = await deleteSubscriber('gone%40example.com', cookie);
    expect(response.status).toBe(200);
    expect(await store.getSubscriber('gone@example.com')).toBeUndefined();
  });

  test('a subscriber stored under a look-alike spelling, before addresses were normalised, is erased by its exact address alone', async () => {
    const store = createFileStore(stores.folder());
    for (const email of ['victim@gmail.com', 'victim@gmail.com\u200b'])
      await store.subscribe({ email, firstName: 'Victim', source: 'website_footer' }, new Date());
    const { cookie } = await login();
    const response = await deleteSubscriber(encodeURIComponent('victim@gmail.com\u200b'), cookie);
    expect(response.status).toBe(200);
    expect(await store.getSubscriber('victim@gmail.com\u200b')).toBeUndefined();
    expect(await store.getSubscriber('victim@gmail.com')).toBeDefined();
    expect((await deleteSubscriber('victim%40gmail.com', cookie)).status).toBe(200);
    expect(await store.countSubscribers()).toBe(0);
  });

  test('the lists show a first touch cut to 32 characters, without term and content; the CSV has it whole', async () => {
    const store = createFileStore(stores.folder());
    const long = (name: string) => `${name}-`.padEnd(100, 'x');
    const attribution = {
      utm_source: long('source'),
      utm_medium: 'email',
      utm_campaign: long('campaign'),
      utm_term: long('term'),
      utm_content: long('content'),
      landingPage: `/?utm_campaign=${long('campaign')}`,
    };
    await store.subscribe(
      { email: 'touch@example.com', firstName: 'Touch', source: 'website_footer', attribution },
      new Date(),
    );
    await store.createLead(
      { name: 'Touch', email: 'touch@example.com', source: 'contact_form', attribution },
      new Date(),
    );
    const { cookie } = await login();
    const shown = {
      utm_source: `${'source-'.padEnd(31, 'x')}…`,
      utm_medium: 'email',
      utm_campaign: `${'campaign-'.padEnd(31, 'x')}…`,
      landingPage: `${'/?utm_campaign=campaign-'.padEnd(31, 'x')}…`,
    };
    const overview = (await (await run(adminOverview, request('/api/admin/overview', { cookie }))).json()) as Overview;
    expect(overview.subscribers.items[0]?.attribution).toEqual(shown);
    expect(overview.leads.items[0]?.attribution).toEqual(shown);
    const subscribers = (await (
      await run(adminSubscribers, request('/api/admin/subscribers?page=1', { cookie }))
    ).json()) as ListPage<Subscriber>;
    expect(subscribers.items[0]?.attribution).toEqual(shown);
    const leads = (await (
      await run(adminLeads, request('/api/admin/leads?page=1', { cookie }))
    ).json()) as ListPage<Lead>;
    expect(leads.items[0]?.attribution).toEqual(shown);
    const csv = await (await run(adminSubscribers, request('/api/admin/subscribers?format=csv', { cookie }))).text();
    for (const value of [long('source'), long('campaign'), long('term'), long('content')]) expect(csv).toContain(value);
  });

  test('the CSV export quotes cells and neutralises formulas', async () => {
    const store = createFileStore(stores.folder());
    await store.createLead(
      {
        name: '=HYPERLINK("http://evil.example","x")',
        email: 'f@example.com',
        source: 'contact_form',
        notes: 'line one\nline "two"',
      },
      new Date(),
    );
    const { cookie } = await login();
    const response = await run(adminLeads, request('/api/admin/leads?format=csv', { cookie }));
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.headers.get('content-disposition')).toMatch(/attachment; filename="leads-/);
    const csv = await response.text();
    expect(csv).toContain('"\'=HYPERLINK(""http://evil.example"",""x"")"');
    expect(csv).toContain('"line one\nline ""two"""');
  });
});

describe('on a deployed site, with a store that answers', () => {
  let hash: string;
  beforeAll(async () => {
    hash = await hashPassword(PASSWORD);
  });
  beforeEach(async () => {
    delete process.env.SITE_LOCAL_RUN;
    await upstashLockout.use();
  });

  // The store is reachable here, so a 503 can only be the refusal of the plain password itself.
  test.each(['production', 'deploy-preview', '', 'dev'])(
    'a plain ADMIN_PASSWORD is refused as "not configured" (deploy context %j), and the hash gets in',
    async (deployContext) => {
      const context = createContext({ ip: '203.0.113.60' });
      context.deploy.context = deployContext;
      const refused = await adminLogin(
        request('/api/admin/login', { method: 'POST', body: { password: PASSWORD } }),
        context,
      );
      expect(refused.status).toBe(503);
      expect(await refused.json()).toEqual({
        error:
          'Admin login is not configured. Set ADMIN_PASSWORD_HASH (print one with `npm run admin:hash-password`) and SESSION_SECRET (32+ random characters) in the environment; locally, ADMIN_PASSWORD may replace the hash.',
      });
      expect(refused.headers.get('set-cookie')).toBeNull();

      Object.assign(process.env, { ADMIN_PASSWORD_HASH: hash });
      resetEnv();
      const accepted = await adminLogin(
        request('/api/admin/login', { method: 'POST', body: { password: PASSWORD } }),
        context,
      );
      expect(accepted.status).toBe(200);
      const header = accepted.headers.get('set-cookie') ?? '';
      expect(header).toMatch(/^__Host-admin_session=/);
      expect(header.split('; ')).toEqual(expect.arrayContaining(['Secure', 'HttpOnly', 'SameSite=Strict', 'Path=/']));
    },
  );

  // Deployed, only the __Host- cookie is read: one without the prefix may have been set by
  // another site on the domain.
  test('the session is read from __Host-admin_session only, whatever the scheme', async () => {
    Object.assign(process.env, { ADMIN_PASSWORD_HASH: hash });
    resetEnv();
    for (const origin of ['https://www.example.com', 'http://localhost']) {
      const { response, cookie } = await login(PASSWORD, '203.0.113.61', origin);
      expect(response.headers.get('set-cookie')).toMatch(/^__Host-admin_session=.*; Secure; /);
      const read = async (cookieName: string) =>
        (await run(adminSession, request('/api/admin/session', { cookie, cookieName, origin }))).json();
      expect(await read(SESSION_COOKIE)).toEqual({ authenticated: true });
      expect(await read(LOCAL_COOKIE)).toEqual({ authenticated: false });
    }
  });
});

describe('when the store fails, nobody is let in and nothing is shown', () => {
  const STORE_UNAVAILABLE = { error: 'The service is temporarily unavailable. Please try again in a moment.' };
  beforeEach(async () => {
    await upstashLockout.use();
    addEnv({ STORE_TIMEOUT_MS: '300' });
  });
  afterEach(() => stores.bridge().setBroken(false));

  test('a login whose attempt cannot be counted answers 503, even with the right password', async () => {
    const ip = '198.51.100.90';
    // The count's key holds a hash: the store answers, but counting fails (WRONGTYPE).
    await upstashClient().hset(attemptsKey(ip), { broken: '1' });
    const refused = await login(PASSWORD, ip);
    expect(refused.response.status).toBe(503);
    expect(await refused.response.json()).toEqual(STORE_UNAVAILABLE);
    expect(refused.cookie).toBeUndefined();
    await upstashClient().del(attemptsKey(ip));
    expect((await login(PASSWORD, ip)).response.status).toBe(200);
  });

  test('a login while the store does not answer is refused with 503 within seconds', async () => {
    stores.bridge().setBroken(true);
    const started = Date.now();
    const { response, cookie } = await login(PASSWORD, '198.51.100.91');
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual(STORE_UNAVAILABLE);
    expect(cookie).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(3000);
  });

  test('with a valid session, every data endpoint answers 503 while the store does not answer', async () => {
    const { cookie } = await login(PASSWORD, '198.51.100.92');
    expect(cookie).toBeTruthy();
    stores.bridge().setBroken(true);
    for (const [endpoint, handler, build, params] of DATA_ENDPOINTS) {
      const response = await run(handler, build(cookie), '198.51.100.92', params);
      expect(response.status, endpoint).toBe(503);
      expect(await response.json(), endpoint).toEqual(STORE_UNAVAILABLE);
    }
    // The page cannot tell whether its session is live: it says so, rather than "logged out" or "logged in".
    const session = await run(adminSession, request('/api/admin/session', { cookie }));
    expect(session.status).toBe(503);
    expect(await session.json()).toEqual(STORE_UNAVAILABLE);
  });
});

describe('the Spam section', () => {
  const SPAM = { reasons: ['Akismet: spam'] };

  /** POST /api/admin/spam/{id}/release, the path segment as given; the deliveries it starts are kept to be awaited. */
  function release(id: string, cookie?: string, headers: Record<string, string> = {}) {
    const deliveries: Promise<unknown>[] = [];
    const response = adminSpam(
      request(`/api/admin/spam/${id}/release`, { method: 'POST', cookie, body: {}, headers }),
      createContext({ ip: '203.0.113.9', params: { id }, waitUntil: (promise) => deliveries.push(promise) }),
    );
    return { response, delivered: async () => Promise.all(deliveries) };
  }

  async function spamPage(cookie?: string, page = 1) {
    const response = await run(adminSpam, request(`/api/admin/spam?page=${page}`, { cookie }));
    expect(response.status).toBe(200);
    return (await response.json()) as SpamPage;
  }

  test('lists the held leads, newest first, apart from the leads, with what the honeypot and the proof of work refused', async () => {
    const store = createFileStore(stores.folder());
    const now = Date.now();
    const held = [];
    for (let index = 0; index < 21; index += 1)
      held.push(
        (
          await store.createLead(
            { name: `Held ${index}`, email: `h${index}@example.com`, source: 'contact_form', spam: SPAM },
            new Date(now + index),
          )
        ).record,
      );
    await store.createLead({ name: 'Real', email: 'real@example.com', source: 'zoho_guide' }, new Date(now));
    await store.recordHoneypot('leads-create', new Date(now));
    await store.recordChallengeFailure('newsletter-subscribe', new Date(now));
    await store.recordChallengeFailure('newsletter-subscribe', new Date(now));
    const { cookie } = await login();

    const first = await spamPage(cookie);
    expect(first).toMatchObject({
      leads: { total: 21, page: 1, pageSize: 20 },
      honeypot: { 'leads-create': 1 },
      challengeFailures: { 'newsletter-subscribe': 2 },
    });
    expect(first.leads.items[0]).toEqual(held[20]);
    expect((await spamPage(cookie, 2)).leads.items).toEqual([held[0]]);
    const overview = (await (await run(adminOverview, request('/api/admin/overview', { cookie }))).json()) as Overview;
    expect(overview.spam).toEqual({ held: 21 });
    expect(overview.leads.items.map((lead) => lead.name)).toEqual(['Real']);
  });

  test('"Not spam" answers 200 with the lead, sends its notification, and a second release answers 404', async () => {
    const store = createFileStore(stores.folder());
    const { record: lead } = await store.createLead(
      { name: 'Real', email: 'real@example.com', source: 'contact_form', spam: SPAM },
      new Date(),
    );
    const { cookie } = await login();
    const { response, delivered } = release(lead.id, cookie);
    expect((await response).status).toBe(200);
    const body = (await (await response).json()) as { lead: Lead };
    expect(body.lead).toMatchObject({ id: lead.id, name: 'Real', spam: { reasons: SPAM.reasons } });
    expect(body.lead.spam?.releasedAt).toEqual(expect.any(String));
    await delivered();
    // Without mail settings, a local run writes the e-mail to the local outbox folder.
    const entries = await store.listOutbox({ offset: 0, limit: 10 });
    expect(entries.map((entry) => [entry.ref, entry.kind, entry.status])).toEqual([
      [lead.id, 'lead-notification', 'delivered'],
    ]);

    const again = release(lead.id, cookie);
    expect((await again.response).status).toBe(404);
    expect(await (await again.response).json()).toEqual({ error: 'No lead of that id is held as spam' });
    expect(await store.listOutbox({ offset: 0, limit: 10 })).toHaveLength(1);
    const overview = (await (await run(adminOverview, request('/api/admin/overview', { cookie }))).json()) as Overview;
    expect(overview.spam).toEqual({ held: 0 });
    expect(overview.leads.items.map((item) => item.id)).toEqual([lead.id]);
    expect((await spamPage(cookie)).leads).toMatchObject({ items: [], total: 0 });
  });

  test.each([
    ['an id that is not a lead id', 'not-a-uuid', 404],
    ['an unknown id', UNKNOWN_ID, 404],
    ['an uppercase id', UNKNOWN_ID.toUpperCase(), 404],
    ['a malformed percent-escape', '%E0%A4%A', 400],
  ])('releasing with %s answers %i and queues nothing', async (_label, id, status) => {
    const store = createFileStore(stores.folder());
    const { cookie } = await login();
    const { response } = release(id, cookie);
    expect((await response).status).toBe(status);
    expect(await store.listOutbox({ offset: 0, limit: 10 })).toEqual([]);
  });

  test('an ordinary lead cannot be released: 404, and nothing is queued again', async () => {
    const store = createFileStore(stores.folder());
    const { record: lead } = await store.createLead(
      { name: 'Real', email: 'real@example.com', source: 'contact_form' },
      new Date(),
    );
    const { cookie } = await login();
    expect((await release(lead.id, cookie).response).status).toBe(404);
    expect(await store.listOutbox({ offset: 0, limit: 10 })).toEqual([]);
  });

  test('a cross-site release answers 403 and the lead stays held', async () => {
    const store = createFileStore(stores.folder());
    const { record: lead } = await store.createLead(
      { name: 'Held', email: 'held@example.com', source: 'contact_form', spam: SPAM },
      new Date(),
    );
    const { cookie } = await login();
    expect((await release(lead.id, cookie, { 'sec-fetch-site': 'cross-site' }).response).status).toBe(403);
    expect((await release(lead.id, cookie, { origin: 'https://evil.example' }).response).status).toBe(403);
    expect((await store.spamOverview({ offset: 0, limit: 10 })).held).toBe(1);
  });

  test('other methods answer 405', async () => {
    const { cookie } = await login();
    const response = await run(adminSpam, request('/api/admin/spam', { method: 'DELETE', cookie, body: {} }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });
});

describe('a list and its records', () => {
  const ID = '7b0c6f5e-1d2a-4c3b-9e8f-0a1b2c3d4e5f';
  test.each([
    ['GET a lead', adminLeads, 'GET', `/api/admin/leads/${ID}`, { id: ID }, 'DELETE, PATCH'],
    ['DELETE the leads', adminLeads, 'DELETE', '/api/admin/leads', {}, 'GET'],
    ['GET a subscriber', adminSubscribers, 'GET', '/api/admin/subscribers/a@b.co', { email: 'a@b.co' }, 'DELETE'],
    ['DELETE the subscribers', adminSubscribers, 'DELETE', '/api/admin/subscribers', {}, 'GET'],
    ['GET a retry', adminOutbox, 'GET', `/api/admin/outbox/${ID}/retry`, { id: ID }, 'POST'],
    ['POST to the outbox', adminOutbox, 'POST', '/api/admin/outbox', {}, 'GET'],
    ['GET a release', adminSpam, 'GET', `/api/admin/spam/${ID}/release`, { id: ID }, 'POST'],
  ] as const)('%s answers 405, not the list', async (_, handler, method, path, params, allow) => {
    const { cookie } = await login();
    const body = method === 'GET' ? undefined : {};
    const response = await run(handler, request(path, { method, cookie, body }), '203.0.113.9', params);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    expect(await response.json()).toEqual({
      error: `Method ${method} is not allowed; use ${allow.split(', ').join(' or ')}`,
    });
  });
});

describe('the Outbox', () => {
  test('lists each message with its text, and one delivered over 30 days ago by its subject alone', async () => {
    const store = createFileStore(stores.folder());
    const entry = (subject: string) => ({
      id: crypto.randomUUID(),
      kind: 'lead-notification' as const,
      ref: 'lead',
      to: 'team@example.com',
      message: {
        channel: 'mail' as const,
        to: ['team@example.com'],
        subject,
        text: `${subject}: text`,
        html: '<p></p>',
      },
    });
    const old = new Date(Date.now() - OUTBOX_MESSAGE_KEEP_MS - 3600_000);
    await store.createLead({ name: 'Old', email: 'old@example.com', source: 'contact_form' }, old, {
      outbox: () => [entry('Old lead')],
    });
    const claimed = await store.claimOutbox(old, 10);
    await store.completeOutbox(
      claimed.map((item) => ({ claimed: item, outcome: { kind: 'delivered', via: 'file' } as const })),
      old,
    );
    await store.createLead({ name: 'New', email: 'new@example.com', source: 'contact_form' }, new Date(), {
      outbox: () => [entry('New lead')],
    });
    // The sweep's hourly run, at minute 0.
    const onTheHour = new Date();
    onTheHour.setUTCMinutes(0);
    expect(await pruneDelivered(store, new Date(onTheHour.getTime() + 60_000))).toBe(0);
    expect(await pruneDelivered(store, onTheHour)).toBe(1);

    const { cookie } = await login();
    const response = await run(adminOutbox, request('/api/admin/outbox?page=1', { cookie }));
    expect(response.status).toBe(200);
    const page = (await response.json()) as ListPage<OutboxItem>;
    expect(page.items.map(({ subject, text, textKept, status }) => ({ subject, text, textKept, status }))).toEqual([
      { subject: 'New lead', text: 'New lead: text', textKept: undefined, status: 'pending' },
      { subject: 'Old lead', text: '', textKept: false, status: 'delivered' },
    ]);
  });
});

/** POST /api/admin/outbox/:id/retry, from the admin page. */
const retryEntry = (id: string, cookie?: string) =>
  run(adminOutbox, request(`/api/admin/outbox/${id}/retry`, { method: 'POST', cookie, body: {} }), '203.0.113.9', {
    id,
  });

describe('retrying an outbox entry that failed for good', () => {
  test("a newsletter e-mail's Retry puts it back in line (its id is not a UUID)", async () => {
    const store = createFileStore(stores.folder());
    const now = new Date();
    const reader = { email: 'reader@example.com', firstName: 'Reader', source: 'website_footer' };
    await store.subscribe(reader, now);
    await store.confirmSubscriber(reader, now);
    await store.requestMailing({ id: 'post-x', subject: 'Post X' }, 'owner', ORIGIN, now);
    const id = newsletterEntryId('post-x', reader.email);
    await store.fanOutMailing('post-x', now, 10, (subscriber) => ({
      id,
      kind: 'newsletter',
      ref: subscriber.email,
      to: subscriber.email,
      mailing: 'post-x',
      message: { channel: 'mail', to: [subscriber.email], subject: 'Post X', text: 'Hi', html: '<p>Hi</p>' },
    }));
    const claimed = await store.claimBulk(now, 10, null);
    expect(claimed.map((item) => item.entry.id)).toEqual([id]);
    await store.completeOutbox(
      claimed.map((item) => ({
        claimed: item,
        outcome: { kind: 'failed', error: 'SMTP 554: policy', permanent: true } as const,
      })),
      now,
    );
    expect(await store.countOutbox()).toMatchObject({ pending: 0, dead: 1 });

    const { cookie } = await login();
    const response = await retryEntry(id, cookie);
    expect(response.status).toBe(200);
    expect(await store.countOutbox()).toMatchObject({ dead: 0 });
  });

  test.each(['nl-123', `nl-${'g'.repeat(32)}`, `xnl-${'a'.repeat(32)}`, `nl-${'a'.repeat(32)}x`])(
    'an id of neither shape (%s) answers 404 without asking the store',
    async (id) => {
      const { cookie } = await login();
      const response = await retryEntry(id, cookie);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'No outbox entry has that id' });
    },
  );
});

describe('deleting a subscriber', () => {
  test.each([
    ['an address that is not one', 'not-an-email'],
    ['an empty address', ''],
    ['two addresses', 'a%40example.com%2Cb%40example.com'],
  ])('with %s answers 400 and deletes nothing', async (_label, email) => {
    const store = createFileStore(stores.folder());
    await store.subscribe({ email: 'a@example.com', firstName: 'Stay', source: 'website_footer' }, new Date());
    const { cookie } = await login();
    const response = await deleteSubscriber(email, cookie);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'Give the e-mail address of the subscriber to delete' });
    expect(await store.countSubscribers()).toBe(1);
  });

  test('an address nobody subscribed with answers 404 and deletes nothing', async () => {
    const store = createFileStore(stores.folder());
    await store.subscribe({ email: 'stay@example.com', firstName: 'Stay', source: 'website_footer' }, new Date());
    const { cookie } = await login();
    const response = await deleteSubscriber('nobody%40example.com', cookie);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'No subscriber has that address' });
    expect(await store.countSubscribers()).toBe(1);
  });

  test('a known address, in any case, answers 200 naming the address and deletes that subscriber only', async () => {
    const store = createFileStore(stores.folder());
    const now = new Date();
    for (const email of ['gone@example.com', 'stay@example.com'])
      await store.subscribe({ email, firstName: 'Someone', source: 'website_footer' }, now);
    const { cookie } = await login();
    const response = await deleteSubscriber('Gone%40Example.com', cookie);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ deleted: 'gone@example.com' });
    expect((await store.listSubscribers({ offset: 0, limit: 10 })).map((subscriber) => subscriber.email)).toEqual([
      'stay@example.com',
    ]);
  });
});

describe('an erasure and the local outbox folder', () => {
  /** The .eml files the local outbox folder holds for these entries. */
  const filesOf = (ids: string[]) =>
    (existsSync(localOutboxDir()) ? readdirSync(localOutboxDir()) : []).filter((file) =>
      ids.some((id) => file.endsWith(`-${id}.eml`)),
    );

  test('erasing a subscriber or a lead removes the e-mails written for them, and only theirs', async () => {
    const store = createFileStore(stores.folder());
    const now = new Date();
    const ids: Record<string, string[]> = {};
    for (const email of ['gone@example.com', 'stay@example.com'])
      await store.subscribe({ email, firstName: 'Someone', source: 'website_footer' }, now, {
        outbox: () => [
          {
            id: (ids[email] = [crypto.randomUUID()])[0] ?? '',
            kind: 'confirmation',
            ref: email,
            to: email,
            message: { channel: 'mail', to: [email], subject: 'Confirm', text: 'Confirm', html: '<p>Confirm</p>' },
          },
        ],
      });
    const { record: lead } = await store.createLead(
      { name: 'Gone', email: 'lead@example.com', source: 'contact_form' },
      now,
      {
        outbox: (created) => leadEntries(created).filter((entry) => entry.message.channel === 'mail'),
      },
    );
    ids[lead.id] = (await store.listOutbox({ offset: 0, limit: 10 }))
      .filter((entry) => entry.ref === lead.id)
      .map((entry) => entry.id);
    await deliverNow(await getStore(), Object.values(ids).flat());
    expect(filesOf(Object.values(ids).flat())).toHaveLength(3);

    const { cookie } = await login();
    expect((await deleteSubscriber('gone%40example.com', cookie)).status).toBe(200);
    expect(
      (
        await run(
          adminLeads,
          request(`/api/admin/leads/${lead.id}`, { method: 'DELETE', cookie, body: {} }),
          '203.0.113.9',
          { id: lead.id },
        )
      ).status,
    ).toBe(200);
    expect(filesOf(ids['gone@example.com'] ?? [])).toEqual([]);
    expect(filesOf(ids[lead.id] ?? [])).toEqual([]);
    expect(filesOf(ids['stay@example.com'] ?? [])).toHaveLength(1);
  });
});

describe('deleting a lead', () => {
  const deleteLead = (id: string, cookie?: string, headers: Record<string, string> = {}) =>
    run(adminLeads, request(`/api/admin/leads/${id}`, { method: 'DELETE', cookie, body: {}, headers }), '203.0.113.9', {
      id,
    });

  test('a known id answers 200 naming it, and erases that lead and its e-mails only; a second time, 404', async () => {
    const store = createFileStore(stores.folder());
    const now = new Date();
    const { record: gone } = await store.createLead(
      { name: 'Gone', email: 'gone@example.com', source: 'contact_form' },
      now,
      {
        outbox: leadEntries,
      },
    );
    const { record: stay } = await store.createLead(
      { name: 'Stay', email: 'stay@example.com', source: 'contact_form' },
      now,
      {
        outbox: leadEntries,
      },
    );
    const { cookie } = await login();
    const response = await deleteLead(gone.id, cookie);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ deleted: gone.id });
    expect((await store.listLeads({ offset: 0, limit: 10 })).map((lead) => lead.id)).toEqual([stay.id]);
    expect((await store.listOutbox({ offset: 0, limit: 10 })).map((entry) => entry.ref)).toEqual([stay.id, stay.id]);
    const again = await deleteLead(gone.id, cookie);
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ error: 'No lead has that id' });
  });

  test('a held spam lead can be deleted too', async () => {
    const store = createFileStore(stores.folder());
    const { record: held } = await store.createLead(
      { name: 'Spam', email: 'spam@example.com', source: 'contact_form', spam: { reasons: ['akismet'] } },
      new Date(),
    );
    const { cookie } = await login();
    expect((await deleteLead(held.id, cookie)).status).toBe(200);
    expect(await store.spamOverview({ offset: 0, limit: 10 })).toMatchObject({ held: 0, leads: [] });
  });

  test.each([
    ['not-an-id', 404, 'No lead has that id'],
    [`${UNKNOWN_ID}%2F..`, 404, 'No lead has that id'],
    ['%E0%A4%A', 400, 'The path holds a malformed percent-escape'],
  ])('an id that is not one (%s) answers %i and deletes nothing', async (id, status, error) => {
    const store = createFileStore(stores.folder());
    await store.createLead({ name: 'Stay', email: 'stay@example.com', source: 'contact_form' }, new Date());
    const { cookie } = await login();
    const response = await deleteLead(id, cookie);
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ error });
    expect(await store.countLeads()).toBe(1);
  });

  test('from another site it answers 403 and deletes nothing', async () => {
    const store = createFileStore(stores.folder());
    const { record: lead } = await store.createLead(
      { name: 'Stay', email: 'stay@example.com', source: 'contact_form' },
      new Date(),
    );
    const { cookie } = await login();
    expect((await deleteLead(lead.id, cookie, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect(await store.countLeads()).toBe(1);
  });
});

const DAY_MS = 86_400_000;
/** The UTC day of a time: a day of the dashboard while SITE_TIME_ZONE is unset. */
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

describe.each([
  ['the embedded SQLite store', embeddedLockout, () => createFileStore(stores.folder())],
  ['Upstash Redis', upstashLockout, () => createRedisStore(upstashClient())],
])('the dashboard on %s', (_name, backend, openStore: () => Store) => {
  // One moment for the seeding and the handlers alike, so no day boundary falls between them.
  const NOW = Date.now();
  const ago = (days: number, seconds = 0) => new Date(NOW - days * DAY_MS - seconds * 1000);
  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    await backend.use();
  });
  afterEach(() => vi.useRealTimers());

  async function get<T>(handler: Handler, pathname: string, cookie: string | undefined): Promise<T> {
    const response = await run(handler, request(pathname, { cookie }));
    expect(response.status, pathname).toBe(200);
    return (await response.json()) as T;
  }

  test('the overview counts the last 7 and 30 days, 90 days of series and the sources of those 90 days', async () => {
    const store = openStore();
    // [days ago, source]: on the 7th and 30th day back a record falls out of "last 7" and "last 30",
    // on the 90th out of the series and the source counts; the total counts everything.
    const leads: [number, string][] = [
      [0, 'contact_form'],
      [0, 'contact_form'],
      [0, 'zoho_guide'],
      [6, 'contact_form'],
      [7, 'zoho_guide'],
      [29, 'contact_form'],
      [30, 'contact_form'],
      [89, 'zoho_guide'],
      [90, 'contact_form'],
    ];
    for (const [index, [days, source]] of leads.entries())
      await store.createLead({ name: `Lead ${index}`, email: `lead-${index}@example.com`, source }, ago(days, index));
    const subscribers: [number, string][] = [
      [0, 'website_footer'],
      [0, 'newsletter_footer'],
      [3, 'newsletter_footer'],
      [10, 'website_footer'],
      [45, 'newsletter_footer'],
      [120, 'website_footer'],
    ];
    // Each confirms the day they subscribe: the totals count confirmed subscribers by the day they confirmed.
    for (const [index, [days, source]] of subscribers.entries()) {
      const person = { email: `sub-${index}@example.com`, firstName: `Sub ${index}`, source };
      await store.subscribe(person, ago(days, index));
      await store.confirmSubscriber(person, ago(days, index));
    }
    // A known address subscribing again through another form is not a new subscriber; its
    // confirmation adds the form.
    await store.subscribe({ email: 'sub-0@example.com', firstName: 'Sub 0', source: 'newsletter_footer' }, ago(0));
    await store.confirmSubscriber(
      { email: 'sub-0@example.com', firstName: 'Sub 0', source: 'newsletter_footer' },
      ago(0),
    );

    const { cookie } = await login();
    const overview = await get<Overview>(adminOverview, '/api/admin/overview', cookie);
    expect(overview.totals).toEqual({
      leads: { total: 9, last7: 4, last30: 6 },
      subscribers: { total: 6, last7: 3, last30: 4 },
    });
    expect(overview.sources).toEqual({
      leads: { contact_form: 5, zoho_guide: 3 },
      subscribers: { website_footer: 2, newsletter_footer: 3 },
    });

    const series = (counts: Record<number, number>) =>
      Array.from({ length: 90 }, (_, index) => ({
        day: dayOf(NOW - (89 - index) * DAY_MS),
        count: counts[89 - index] ?? 0,
      }));
    expect(overview.daily.map(({ day, leads: count }) => ({ day, count }))).toEqual(
      series({ 0: 3, 6: 1, 7: 1, 29: 1, 30: 1, 89: 1 }),
    );
    expect(overview.daily.map(({ day, subscribers: count }) => ({ day, count }))).toEqual(
      series({ 0: 2, 3: 1, 10: 1, 45: 1 }),
    );
    expect(overview.daily.at(-1)?.day).toBe(dayOf(NOW));

    // The newest records come first, all of them while there are fewer than a page.
    expect(overview.leads.items.map((lead) => lead.email)).toEqual(
      leads.map((_, index) => `lead-${index}@example.com`),
    );
    expect(overview.subscribers.items.map((subscriber) => subscriber.email)).toEqual(
      subscribers.map((_, index) => `sub-${index}@example.com`),
    );
    expect(overview.subscribers.items[0]?.sources).toEqual(['website_footer', 'newsletter_footer']);
  });

  // Midday on 15 January 2026: the same day in UTC and in Paris (then UTC+1), so only the records' days differ.
  const WINTER_NOON = Date.parse('2026-01-15T12:00:00.000Z');
  const row = (overview: Overview, day: string) => overview.daily.find((entry) => entry.day === day);

  test.each([
    [
      'Europe/Paris',
      {
        '2026-01-08': { leads: 0, subscribers: 0 },
        '2026-01-09': { leads: 1, subscribers: 0 },
        '2026-01-13': { leads: 1, subscribers: 0 },
        '2026-01-14': { leads: 1, subscribers: 1 },
      },
      { last7: 3, last30: 3 },
    ],
    [
      'UTC',
      {
        '2026-01-08': { leads: 1, subscribers: 0 },
        '2026-01-09': { leads: 0, subscribers: 0 },
        '2026-01-13': { leads: 2, subscribers: 1 },
        '2026-01-14': { leads: 0, subscribers: 0 },
      },
      { last7: 2, last30: 3 },
    ],
  ])(
    'with SITE_TIME_ZONE %s, the overview counts leads, sign-ups and confirmations on the days there',
    async (timeZone, days, leads) => {
      vi.setSystemTime(WINTER_NOON);
      addEnv({ SITE_TIME_ZONE: timeZone });
      const store = openStore();
      const lead = (name: string, source: string, iso: string) =>
        store.createLead({ name, email: `${name.toLowerCase()}@example.com`, source }, new Date(iso));
      await lead('Late', 'contact_form', '2026-01-13T23:30:00Z');
      await lead('Early', 'contact_form', '2026-01-13T22:30:00Z');
      // 00:30 on 9 January in Paris, the first of its last 7 days; 8 January, the day before them, in UTC.
      await lead('Edge', 'zoho_guide', '2026-01-08T23:30:00Z');
      const person = { email: 'night@example.com', firstName: 'Night', source: 'website_footer' };
      await store.subscribe(person, new Date('2026-01-13T23:30:00Z'));
      await store.confirmSubscriber(person, new Date('2026-01-13T23:40:00Z'));

      const { cookie } = await login();
      const overview = await get<Overview>(adminOverview, '/api/admin/overview', cookie);
      expect({ today: overview.today, timeZone: overview.timeZone, last: overview.daily.at(-1)?.day }).toEqual({
        today: '2026-01-15',
        timeZone,
        last: '2026-01-15',
      });
      for (const [day, figures] of Object.entries(days)) expect(row(overview, day), day).toEqual({ day, ...figures });
      expect(overview.totals.leads).toEqual({ total: 3, ...leads });
      expect(overview.totals.subscribers).toEqual({ total: 1, last7: 1, last30: 1 });
    },
  );

  test('in Paris, a lead at 23:30 UTC comes in tomorrow: the overview ends on that day, and counts it there', async () => {
    vi.setSystemTime(Date.parse('2026-01-15T23:30:00.000Z'));
    addEnv({ SITE_TIME_ZONE: 'Europe/Paris' });
    await openStore().createLead({ name: 'Now', email: 'now@example.com', source: 'contact_form' }, new Date());
    const { cookie } = await login();
    const overview = await get<Overview>(adminOverview, '/api/admin/overview', cookie);
    expect(overview.today).toBe('2026-01-16');
    expect(overview.daily.at(-1)).toEqual({ day: '2026-01-16', leads: 1, subscribers: 0 });
    expect(overview.totals.leads).toEqual({ total: 1, last7: 1, last30: 1 });
  });

  test('the lists come 20 to a page, newest first, with the total; a page past the end is empty', async () => {
    const store = openStore();
    for (let index = 0; index < 45; index += 1)
      await store.createLead(
        { name: `Lead ${index}`, email: `page-${index}@example.com`, source: 'contact_form' },
        ago(0, index),
      );
    for (let index = 0; index < 23; index += 1)
      await store.subscribe(
        { email: `page-${index}@example.com`, firstName: 'Reader', source: 'website_footer' },
        ago(0, index),
      );
    const emails = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, index) => `page-${from + index}@example.com`);
    const { cookie } = await login();

    const pages = await Promise.all(
      [1, 2, 3, 4].map((page) => get<LeadsPage>(adminLeads, `/api/admin/leads?page=${page}`, cookie)),
    );
    // Nobody has marked them: every lead is New.
    const statuses = { new: 45, replied: 0, booked: 0, won: 0, lost: 0 };
    expect(pages.map(({ items, ...rest }) => ({ emails: items.map((lead) => lead.email), ...rest }))).toEqual([
      { emails: emails(0, 20), total: 45, page: 1, pageSize: 20, statuses },
      { emails: emails(20, 40), total: 45, page: 2, pageSize: 20, statuses },
      { emails: emails(40, 45), total: 45, page: 3, pageSize: 20, statuses },
      { emails: [], total: 45, page: 4, pageSize: 20, statuses },
    ]);
    const subscriberPage = await get<ListPage<Subscriber>>(adminSubscribers, '/api/admin/subscribers?page=2', cookie);
    expect({ ...subscriberPage, items: subscriberPage.items.map((subscriber) => subscriber.email) }).toEqual({
      items: emails(20, 23),
      total: 23,
      page: 2,
      pageSize: 20,
    });

    const overview = await get<Overview>(adminOverview, '/api/admin/overview', cookie);
    expect(overview.leads).toMatchObject({ total: 45, page: 1, pageSize: 20 });
    expect(overview.leads.items.map((lead) => lead.email)).toEqual(emails(0, 20));
    expect(overview.subscribers.items.map((subscriber) => subscriber.email)).toEqual(emails(0, 20));
  });
});
