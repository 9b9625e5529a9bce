/**
 * The visits figures end to end on both stores: views through the real POST /api/visits
 * handler, the Visits figures through GET /api/admin/visits with an admin session. The counted
 * pages are the build integration's own list of a few pages (tests/support/build-files.ts).
 */
import { beforeEach, describe, expect, test } from 'vitest';
import adminOverview from '../../functions/admin-overview';
import adminVisits from '../../functions/admin-visits';
import visitsCreate from '../../functions/visits-create';
import { resetEnv } from '../../functions/_lib/platform/env';
import { VISIT_CAPS } from '../../functions/_lib/store/visits';
import type { VisitsReport } from '../../src/shared/api-responses';
import type { Attribution } from '../../src/shared/records';
import { call, logIn } from '../support/admin-calls';
import { useBuildFiles } from '../support/build-files';
import { setEnv, useStores } from '../support/store-setup';
import type { Store } from '../support/stores';

const PASSWORD = 'a password for the visits tests';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';
const WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';
const ANDROID_TABLET =
  'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

useBuildFiles();
const stores = useStores();

/** A view as the page's script sends it (sendBeacon: a string, so text/plain). */
function view(body: unknown, { agent = WINDOWS, ip = '203.0.113.7', headers = {} as Record<string, string> } = {}) {
  return call(visitsCreate, '/api/visits', {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': agent, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ip,
  });
}

async function report(cookie: string, query = '') {
  const response = await call(adminVisits, `/api/admin/visits${query}`, { headers: { cookie } });
  return { status: response.status, body: (await response.json()) as VisitsReport & { error?: string } };
}

describe.each(stores.backends)('visits on %s', (_name, backend) => {
  let store: Store;

  beforeEach(async () => {
    store = await stores.fresh(backend, {
      ADMIN_PASSWORD: PASSWORD,
      SESSION_SECRET: 'a session secret of at least thirty-two characters',
    });
  });

  test('three campaign visitors, one from LinkedIn, and neither the crawler nor GPC counted; a lead converts', async () => {
    const campaign = { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'autumn-offer' };
    const visitors = [
      { agent: IPHONE, ip: '198.51.100.1' },
      { agent: WINDOWS, ip: '198.51.100.2' },
      { agent: ANDROID_TABLET, ip: '198.51.100.3' },
    ];
    for (const visitor of visitors) {
      expect((await view({ path: '/zoho', ...campaign }, visitor)).status).toBe(202);
      expect((await view({ path: '/sectors' }, visitor)).status).toBe(202);
    }
    expect((await view({ path: '/blog', referrer: 'www.linkedin.com' }, { ip: '198.51.100.4' })).status).toBe(202);
    expect((await view({ path: '/blog' }, { agent: GOOGLEBOT, ip: '66.249.66.1' })).status).toBe(204);
    expect((await view({ path: '/blog' }, { ip: '198.51.100.5', headers: { 'sec-gpc': '1' } })).status).toBe(204);

    await store.createLead(
      {
        name: 'Ada',
        email: 'ada@example.com',
        source: 'zoho_guide',
        page: '/zoho',
        attribution: { landingPage: '/zoho?utm_source=newsletter&utm_campaign=autumn-offer', ...campaign },
      },
      new Date(),
    );

    const cookie = await logIn(PASSWORD);
    const { status, body } = await report(cookie);
    expect(status).toBe(200);
    expect(body.totals).toEqual({ visitors: 4, pageviews: 7, leads: 1, won: 0, subscribers: 0 });
    expect(body.campaigns).toEqual([{ campaign: 'autumn-offer', visitors: 3, leads: 1, won: 0, subscribers: 0 }]);
    expect(body.sources).toEqual([
      { source: 'newsletter', visitors: 3, leads: 1, won: 0, subscribers: 0 },
      { source: 'linkedin.com', visitors: 1, leads: 0, won: 0, subscribers: 0 },
    ]);
    expect(body.pages.find((page) => page.path === '/zoho')).toEqual({
      path: '/zoho',
      visitors: 3,
      pageviews: 3,
      entries: 3,
      leads: 1,
      won: 0,
      subscribers: 0,
    });
    expect(body.pages.find((page) => page.path === '/sectors')).toMatchObject({ visitors: 3, entries: 0 });
    expect(Object.fromEntries(body.devices.map((row) => [row.device, row.visitors]))).toEqual({
      phone: 1,
      desktop: 2,
      tablet: 1,
    });
    expect(body.days.at(-1)).toMatchObject({ visitors: 4, pageviews: 7 });
    expect(body.days).toHaveLength(30);
  });

  test('leads marked won count as won under the page, source and campaign of their own first touch', async () => {
    const lead = async (name: string, attribution: Attribution) =>
      (
        await store.createLead(
          { name, email: `${name.toLowerCase()}@example.com`, source: 'contact_form', attribution },
          new Date(),
        )
      ).record.id;
    const autumn = { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'autumn-offer' };
    const won = await lead('Ada', { landingPage: '/zoho?utm_source=newsletter', ...autumn });
    const booked = await lead('Grace', { landingPage: '/zoho?utm_source=newsletter', ...autumn });
    const lost = await lead('Alan', { landingPage: '/blog', referrer: 'www.linkedin.com' });
    const wonThenBooked = await lead('Edsger', { landingPage: '/blog', referrer: 'www.linkedin.com' });
    const wonDirect = await lead('Barbara', { landingPage: '/sectors' });
    await lead('Donald', { landingPage: '/sectors' });
    const marked = new Date();
    for (const [id, status] of [
      [won, 'won'],
      [booked, 'booked'],
      [lost, 'lost'],
      [wonThenBooked, 'won'],
      [wonThenBooked, 'booked'],
      [wonDirect, 'won'],
    ] as const)
      expect(await store.updateLead(id, { status }, marked)).toMatchObject({ status });

    const { body } = await report(await logIn(PASSWORD));
    expect(body.totals).toEqual({ visitors: 0, pageviews: 0, leads: 6, won: 2, subscribers: 0 });
    expect(body.campaigns).toEqual([{ campaign: 'autumn-offer', visitors: 0, leads: 2, won: 1, subscribers: 0 }]);
    expect(Object.fromEntries(body.sources.map((row) => [row.source, { leads: row.leads, won: row.won }]))).toEqual({
      newsletter: { leads: 2, won: 1 },
      'linkedin.com': { leads: 2, won: 0 },
      Direct: { leads: 2, won: 1 },
    });
    expect(Object.fromEntries(body.pages.map((row) => [row.path, { leads: row.leads, won: row.won }]))).toEqual({
      '/zoho': { leads: 2, won: 1 },
      '/blog': { leads: 2, won: 0 },
      '/sectors': { leads: 2, won: 1 },
    });
  });

  test('made-up paths and campaigns land in one row each past the cap', async () => {
    process.env.VISITS_PER_MINUTE = '10000';
    resetEnv();
    const answers = await Promise.all(
      Array.from({ length: 400 }, (_, index) =>
        view(
          { path: `/made-up/${index}`, utm_campaign: `campaign-${index}`, utm_source: `source-${index}` },
          {
            ip: `198.18.${index >> 8}.${index & 255}`,
          },
        ),
      ),
    );
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([202]));
    const { body } = await report(await logIn(PASSWORD));
    // Every view counted exactly; visitors within a HyperLogLog's error on Upstash.
    expect(body.pages).toMatchObject([{ path: 'other', pageviews: 400, entries: 400 }]);
    expect(body.pages[0]?.visitors).toBeGreaterThanOrEqual(396);
    expect(body.pages[0]?.visitors).toBeLessThanOrEqual(404);
    expect(body.campaigns).toHaveLength(VISIT_CAPS.campaigns + 1);
    expect(body.sources).toHaveLength(VISIT_CAPS.sources + 1);
  });

  test('a client past VISITS_PER_MINUTE is answered but not counted', async () => {
    process.env.VISITS_PER_MINUTE = '5';
    resetEnv();
    const answers = await Promise.all(Array.from({ length: 12 }, () => view({ path: '/' })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(202));
    const { body } = await report(await logIn(PASSWORD));
    expect(body.totals.pageviews).toBe(5);
  });
});

describe('bad views', () => {
  beforeEach(() => setEnv({ SITE_LOCAL_RUN: 'true', LOCAL_STORE_DIR: stores.folder() }));

  test.each([
    ['a body that is not JSON', 'not json', {}, 400, 'The body is not valid JSON'],
    ['an array', '[1]', {}, 400, 'The body must be a JSON object'],
    ['a path that is not one', { path: 'https://evil.example/' }, {}, 422, 'path must be a path on this site'],
    ['a field it does not know', { path: '/', ip: '1.2.3.4' }, {}, 422, 'Unknown field ip'],
    [
      'a forged referrer with a script in it',
      { path: '/', referrer: '<script>' },
      {},
      422,
      'referrer must be a host name',
    ],
    ['a 1 MB body', { path: `/${'a'.repeat(1_000_000)}` }, {}, 413, 'The body is larger than'],
    ['a form post', 'path=/', { 'content-type': 'application/x-www-form-urlencoded' }, 415, 'Send the view as JSON'],
  ])('%s: %i', async (_case, body, headers, status, error) => {
    const response = await view(body, { headers });
    expect(response.status).toBe(status);
    expect(JSON.stringify(await response.json())).toContain(error);
  });

  test.each([
    ['no user agent', {}, undefined],
    ['a tool', {}, 'curl/8.5.0'],
    ['a crawler', {}, GOOGLEBOT],
    [
      'a headless browser',
      {},
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/142.0.0.0 Safari/537.36',
    ],
    ['Do Not Track', { dnt: '1' }, WINDOWS],
    ['Global Privacy Control', { 'sec-gpc': '1' }, WINDOWS],
  ])('%s: answered 204, not counted', async (_case, headers, agent) => {
    const response = await call(visitsCreate, '/api/visits', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', ...(agent ? { 'user-agent': agent } : {}), ...headers },
      body: JSON.stringify({ path: '/' }),
    });
    expect(response.status).toBe(204);
  });

  test('the admin pages are not counted', async () => {
    expect((await view({ path: '/admin/insights' })).status).toBe(204);
  });
});

describe('GET /api/admin/visits', () => {
  let cookie: string;
  beforeEach(async () => {
    setEnv({
      SITE_LOCAL_RUN: 'true',
      LOCAL_STORE_DIR: stores.folder(),
      ADMIN_PASSWORD: PASSWORD,
      SESSION_SECRET: 'a session secret of at least thirty-two characters',
    });
    cookie = await logIn(PASSWORD);
  });

  test('answers 401 without a session', async () => {
    expect((await report('')).status).toBe(401);
  });

  test.each([
    ['?from=2026-13-01&to=2026-12-01', 'from must be a date that exists'],
    ['?from=yesterday', 'from must be a date written YYYY-MM-DD'],
    ['?from=2026-11-10&to=2026-11-01', 'from (2026-11-10) is after to (2026-11-01)'],
    ['?from=2025-01-01&to=2026-11-01', 'The range holds 670 days; ask for at most 400'],
    ['?from=2026-11-01&from=2026-11-02', 'Give from only once'],
    ['?since=2026-11-01', 'Unknown query parameter since'],
  ])('%s: 400 saying why', async (query, error) => {
    const { status, body } = await report(cookie, query);
    expect(status).toBe(400);
    expect(body.error).toContain(error);
  });

  test("the days are the site time zone's: today there is where the overview and the default range end", async () => {
    process.env.SITE_TIME_ZONE = 'Pacific/Kiritimati';
    resetEnv();
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(new Date());
    const overview = (await (await call(adminOverview, '/api/admin/overview', { headers: { cookie } })).json()) as {
      today: string;
    };
    expect(overview.today).toBe(today);
    expect((await report(cookie)).body.to).toBe(today);
    delete process.env.SITE_TIME_ZONE;
    resetEnv();
  });

  test('a range of days, each of them, zeros included', async () => {
    const { status, body } = await report(cookie, '?from=2026-02-27&to=2026-03-02');
    expect(status).toBe(200);
    expect(body.days.map((day) => day.date)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    expect(body.totals).toEqual({ visitors: 0, pageviews: 0, leads: 0, won: 0, subscribers: 0 });
  });
});
