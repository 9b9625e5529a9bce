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
import { VISIT_CAPS, VISITS_TTL_SECONDS } from '../../functions/_lib/store/visits';
import { addDays, dayIn, LONGEST_RANGE_DAYS } from '../../functions/_lib/visits/calendar-days';
import type { VisitsReport } from '../../src/shared/api-responses';
import type { Attribution } from '../../src/shared/records';
import { conversionOf } from '../../src/shared/visits-conversion';
import { call, logIn, ORIGIN } from '../support/admin-calls';
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
const HEADLESS =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/142.0.0.0 Safari/537.36';
/** What a browser sends along with a beacon from one of the site's own pages. */
const SAME_ORIGIN = { origin: ORIGIN, 'sec-fetch-site': 'same-origin' };

useBuildFiles();
const stores = useStores();

interface ViewOptions {
  /** The user agent; null sends none. */
  agent?: string | null;
  ip?: string;
  /** Instead of SAME_ORIGIN. */
  headers?: Record<string, string>;
}

/**
 * A view as the page's script sends it (sendBeacon: a string, so text/plain, from the site's own
 * page); `headers` replace SAME_ORIGIN, and an `agent` of null sends no user agent.
 */
function view(body: unknown, { agent = WINDOWS, ip = '203.0.113.7', headers = SAME_ORIGIN }: ViewOptions = {}) {
  return call(visitsCreate, '/api/visits', {
    method: 'POST',
    headers: {
      'content-type': 'text/plain;charset=UTF-8',
      ...(agent === null ? {} : { 'user-agent': agent }),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ip,
  });
}

/** All a client learns from an answer. */
async function answerOf(response: Response) {
  return { status: response.status, headers: [...response.headers], body: await response.text() };
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
    const campaign = { utm_source: 'newsletter', utm_campaign: 'autumn-offer' };
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
    expect((await view({ path: '/blog' }, { agent: GOOGLEBOT, ip: '66.249.66.1' })).status).toBe(202);
    const gpc = { ...SAME_ORIGIN, 'sec-gpc': '1' };
    expect((await view({ path: '/blog' }, { ip: '198.51.100.5', headers: gpc })).status).toBe(202);

    await store.createLead(
      {
        name: 'Ada',
        email: 'ada@example.com',
        source: 'zoho_guide',
        page: '/zoho',
        attribution: {
          landingPage: '/zoho?utm_source=newsletter&utm_medium=email&utm_campaign=autumn-offer',
          utm_medium: 'email',
          ...campaign,
        },
      },
      new Date(),
    );

    const cookie = await logIn(PASSWORD);
    const { status, body } = await report(cookie);
    expect(status).toBe(200);
    expect(body.totals).toEqual({ visitors: 4, pageviews: 7, leads: 1, measuredLeads: 1, won: 0, subscribers: 0 });
    const outcomes = { won: 0, subscribers: 0 };
    expect(body.campaigns).toEqual([
      { campaign: 'autumn-offer', visitors: 3, leads: 1, measuredLeads: 1, ...outcomes },
    ]);
    expect(body.sources).toEqual([
      { source: 'E-mail', visitors: 3, leads: 1, measuredLeads: 1, ...outcomes },
      { source: 'LinkedIn', visitors: 1, leads: 0, measuredLeads: 0, ...outcomes },
    ]);
    expect(body.pages.find((page) => page.path === '/zoho')).toEqual({
      path: '/zoho',
      visitors: 3,
      pageviews: 3,
      entries: 3,
      leads: 1,
      measuredLeads: 1,
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
    // No visit counted: the leads are counted, and none is measured against visits.
    expect(body.totals).toEqual({ visitors: 0, pageviews: 0, leads: 6, measuredLeads: 0, won: 2, subscribers: 0 });
    expect(body.countedFrom).toBeUndefined();
    expect(body.campaigns).toEqual([
      { campaign: 'autumn-offer', visitors: 0, leads: 2, measuredLeads: 0, won: 1, subscribers: 0 },
    ]);
    expect(Object.fromEntries(body.sources.map((row) => [row.source, { leads: row.leads, won: row.won }]))).toEqual({
      'E-mail': { leads: 2, won: 1 },
      LinkedIn: { leads: 2, won: 0 },
      Direct: { leads: 2, won: 1 },
    });
    expect(Object.fromEntries(body.pages.map((row) => [row.path, { leads: row.leads, won: row.won }]))).toEqual({
      '/zoho': { leads: 2, won: 1 },
      '/blog': { leads: 2, won: 0 },
      '/sectors': { leads: 2, won: 1 },
    });
  });

  test('a source or campaign that is not a short name is counted as (other), for visits and leads alike', async () => {
    const lure = {
      utm_source: 'Visit https://evil.example/login to fix your site',
      utm_campaign: 'evil.example/login',
    };
    expect((await view({ path: '/zoho', ...lure }, { ip: '198.51.100.20' })).status).toBe(202);
    await store.createLead(
      { name: 'Ada', email: 'ada@example.com', source: 'contact_form', attribution: { landingPage: '/zoho', ...lure } },
      new Date(),
    );
    const { body } = await report(await logIn(PASSWORD));
    const outcomes = { visitors: 1, leads: 1, measuredLeads: 1, won: 0, subscribers: 0 };
    expect(body.sources).toEqual([{ source: '(other)', ...outcomes }]);
    expect(body.campaigns).toEqual([{ campaign: '(other)', ...outcomes }]);
    expect(JSON.stringify(body)).not.toContain('evil');
  });

  test('one site under several names is one source, for visits, leads and days counted before', async () => {
    const today = dayIn(new Date(), 'UTC');
    // A day counted before sources had one name each: read under today's names.
    await store.recordView({
      day: addDays(today, -1),
      visitor: 'yesterday',
      path: '/',
      source: 'linkedin.com',
      device: 'desktop',
    });
    const arrivals = [
      { referrer: 'www.google.co.uk' },
      { referrer: 'google.com' },
      { utm_source: 'google' },
      { referrer: 'www.linkedin.com' },
      { referrer: 'lnkd.in' },
    ];
    for (const [index, arrival] of arrivals.entries())
      expect((await view({ path: '/', ...arrival }, { ip: `198.51.100.${30 + index}` })).status).toBe(202);
    await store.createLead(
      {
        name: 'Grace',
        email: 'grace@example.com',
        source: 'contact_form',
        attribution: { landingPage: '/', referrer: 'lnkd.in' },
      },
      new Date(),
    );
    const { body } = await report(await logIn(PASSWORD));
    expect(Object.fromEntries(body.sources.map((row) => [row.source, [row.visitors, row.leads]]))).toEqual({
      Google: [3, 0],
      LinkedIn: [3, 1],
    });
  });

  test('leads of days before the first counted visit are counted, and left out of the rates', async () => {
    const today = dayIn(new Date(), 'UTC');
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    const lead = (name: string, at: Date) =>
      store.createLead(
        { name, email: `${name.toLowerCase()}@example.com`, source: 'contact_form', attribution: { landingPage: '/' } },
        at,
      );
    // Leads before visits were counted: each day of them, 12 in all, from no visitor.
    for (let day = 12; day > 6; day -= 1) {
      await lead(`Early${day}a`, daysAgo(day));
      await lead(`Early${day}b`, daysAgo(day));
    }
    // Counting begins 5 days ago with one visitor; 2 more today; one lead since.
    await store.recordView({ day: addDays(today, -5), visitor: 'first', path: '/', source: 'Direct', device: 'phone' });
    expect((await view({ path: '/' }, { ip: '198.51.100.40' })).status).toBe(202);
    expect((await view({ path: '/' }, { ip: '198.51.100.41' })).status).toBe(202);
    await lead('Since', daysAgo(2));

    const { body } = await report(await logIn(PASSWORD));
    expect(body.countedFrom).toBe(addDays(today, -5));
    expect(body.totals).toMatchObject({ visitors: 3, leads: 13, measuredLeads: 1 });
    expect(body.sources).toEqual([
      { source: 'Direct', visitors: 3, leads: 13, measuredLeads: 1, won: 0, subscribers: 0 },
    ]);
    // 1 lead from 3 visitors, not 13 from 3 (433 %).
    expect(conversionOf(body.totals)).toEqual({ rate: 1 / 3 });
  });

  test.each<[string, unknown, ViewOptions]>([
    ['no user agent', { path: '/' }, { agent: null }],
    ['a tool', { path: '/' }, { agent: 'curl/8.5.0', headers: {} }],
    ['a crawler', { path: '/' }, { agent: GOOGLEBOT }],
    ['a headless browser', { path: '/' }, { agent: HEADLESS }],
    ['an admin page', { path: '/admin/insights' }, {}],
    ['Do Not Track', { path: '/' }, { headers: { ...SAME_ORIGIN, dnt: '1' } }],
    ['Do Not Track sent twice', { path: '/' }, { headers: { ...SAME_ORIGIN, dnt: '1, 1' } }],
    ['Global Privacy Control', { path: '/' }, { headers: { ...SAME_ORIGIN, 'sec-gpc': '1' } }],
    ['Global Privacy Control sent twice', { path: '/' }, { headers: { ...SAME_ORIGIN, 'sec-gpc': '1, 1' } }],
    [
      "another site's page",
      { path: '/' },
      { headers: { origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' } },
    ],
    ["another site's page, by its Origin alone", { path: '/' }, { headers: { origin: 'https://elsewhere.example' } }],
    ["another site's page, by Sec-Fetch-Site alone", { path: '/' }, { headers: { 'sec-fetch-site': 'cross-site' } }],
    ['a sandboxed page (Origin: null)', { path: '/' }, { headers: { origin: 'null', 'sec-fetch-site': 'cross-site' } }],
    [
      'a page on another host of the same site',
      { path: '/' },
      { headers: { origin: 'http://blog.localhost:4321', 'sec-fetch-site': 'same-site' } },
    ],
  ])('%s: answered exactly as a counted view, and not counted', async (_case, body, options) => {
    const counted = await answerOf(await view({ path: '/' }, { ip: '198.51.100.60' }));
    expect(counted.status).toBe(202);
    expect(await answerOf(await view(body, options))).toEqual(counted);
    const { body: figures } = await report(await logIn(PASSWORD));
    expect(figures.totals.pageviews).toBe(1);
  });

  test.each([
    ["from the site's own page", SAME_ORIGIN],
    // Browsers from before Origin on every POST and Sec-Fetch-Site: nothing says where it came from.
    ['with neither Origin nor Sec-Fetch-Site', {}],
  ])('a view %s is counted', async (_case, headers) => {
    expect((await view({ path: '/' }, { headers })).status).toBe(202);
    const { body } = await report(await logIn(PASSWORD));
    expect(body.totals.pageviews).toBe(1);
  });

  test("the owner's own reading while logged in is answered as any view and not counted", async () => {
    const cookie = await logIn(PASSWORD);
    expect(cookie).not.toBe('');
    const owner = await view({ path: '/blog' }, { headers: { ...SAME_ORIGIN, cookie } });
    // The session cookie's name with a value the site never signed: a cookie alone proves nothing.
    const forged = `${cookie.split('=')[0]}=made-up.9999999999.signature`;
    const reader = await view({ path: '/blog' }, { ip: '198.51.100.61', headers: { ...SAME_ORIGIN, cookie: forged } });
    expect(await answerOf(owner)).toEqual(await answerOf(reader));
    const { body } = await report(cookie);
    expect(body.totals.pageviews).toBe(1);
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
    // Every view counted exactly; visitors within three standard errors of a HyperLogLog on
    // Upstash (0.81 % each, ±10 of 400): its estimate moves with each run's salt, and ±4 (about
    // one standard error) failed one run in several.
    expect(body.pages).toMatchObject([{ path: 'other', pageviews: 400, entries: 400 }]);
    expect(body.pages[0]?.visitors).toBeGreaterThanOrEqual(390);
    expect(body.pages[0]?.visitors).toBeLessThanOrEqual(410);
    expect(body.campaigns).toHaveLength(VISIT_CAPS.campaigns + 1);
    expect(body.sources).toHaveLength(VISIT_CAPS.sources + 1);
  });

  test('a view from a page built before the script stopped sending utm_medium counts, its medium dropped', async () => {
    // A tab opened before a deploy keeps the old script until it reloads: its views are the site's own.
    expect((await view({ path: '/', utm_medium: 'email', utm_source: 'newsletter' })).status).toBe(202);
    const { body } = await report(await logIn(PASSWORD));
    expect(body.totals.pageviews).toBe(1);
    expect(JSON.stringify(body)).not.toContain('email');
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

  test('a range of days across the end of February, each of them, zeros included', async () => {
    // The last end of February before today: always within the days the store keeps, whatever year it is.
    const now = dayIn(new Date(), 'UTC');
    const year = Number(now.slice(0, 4)) - (now.slice(5) >= '03-02' ? 0 : 1);
    const leap = new Date(Date.UTC(year, 1, 29)).getUTCMonth() === 1;
    const { status, body } = await report(cookie, `?from=${year}-02-27&to=${year}-03-02`);
    expect(status).toBe(200);
    expect(body.days.map((day) => day.date)).toEqual([
      `${year}-02-27`,
      `${year}-02-28`,
      ...(leap ? [`${year}-02-29`] : []),
      `${year}-03-01`,
      `${year}-03-02`,
    ]);
    expect(body.totals).toEqual({ visitors: 0, pageviews: 0, leads: 0, measuredLeads: 0, won: 0, subscribers: 0 });
  });

  // Days in the site's time zone, UTC in these tests; the ranges are written from today.
  const today = () => dayIn(new Date(), 'UTC');
  const kept = () => addDays(today(), -Math.floor(VISITS_TTL_SECONDS / 86_400));

  test.each([
    // The day after 9999-12-31 is written +010000-01-01, which sorts before 9999-12-31: this walked forever.
    ['the last month a date can be written in', () => '?from=9999-12-01&to=9999-12-31', () => 'is after today'],
    ['a to alone in year 9999', () => '?to=9999-12-31', () => 'is after today'],
    ['a from after today', () => `?from=${addDays(today(), 1)}`, () => `is after today (${today()})`],
    [
      'a from before the 25 months figures are kept',
      () => `?from=${addDays(kept(), -1)}&to=${addDays(kept(), 6)}`,
      () => `is before ${kept()}: visits figures are kept 25 months`,
    ],
    ['a from in year 0', () => '?from=0000-01-01&to=0000-01-31', () => 'visits figures are kept 25 months'],
    [
      'a range longer than a year',
      () => `?from=${addDays(today(), -400)}&to=${today()}`,
      () => `The range holds 401 days; ask for at most ${LONGEST_RANGE_DAYS} (a year)`,
    ],
  ])('%s: 400 saying what is allowed', async (_case, query, error) => {
    const { status, body } = await report(cookie, query());
    expect(status).toBe(400);
    expect(body.error).toContain(error());
  });

  test('the longest range ends today, and the one before the 12 months the section offers is still kept', async () => {
    const longest = await report(cookie, `?from=${addDays(today(), 1 - LONGEST_RANGE_DAYS)}&to=${today()}`);
    expect(longest.status).toBe(200);
    expect(longest.body.days).toHaveLength(LONGEST_RANGE_DAYS);
    const before = await report(cookie, `?from=${addDays(today(), -729)}&to=${addDays(today(), -365)}`);
    expect(before.status).toBe(200);
    expect(before.body.days).toHaveLength(365);
  });
});
