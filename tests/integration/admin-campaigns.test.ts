/**
 * GET /api/admin/campaigns with real Requests, on the embedded store and on Upstash Redis: every
 * campaign, 20 to a page in the dashboard's order, searched by source, medium and campaign.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import adminCampaigns from '../../functions/admin-campaigns';
import adminLogin from '../../functions/admin-login';
import type { CampaignRow, ListPage } from '../../src/shared/api-responses';
import { createContext } from '../../scripts/harness/functions';
import { CAMPAIGNS, seedCampaigns } from '../support/campaigns';
import { addEnv, setEnv, useStores } from '../support/store-setup';

const PASSWORD = 'correct horse battery staple';
const stores = useStores();
beforeEach(() =>
  setEnv({
    LOCAL_STORE_DIR: stores.folder(),
    ADMIN_PASSWORD: PASSWORD,
    SESSION_SECRET: 'a'.repeat(16) + 'b'.repeat(16) + 'c'.repeat(8),
    SITE_LOCAL_RUN: 'true',
  }),
);

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

describe.each(stores.backends)('on %s', (_name, backend) => {
  let cookie = '';
  beforeEach(async () => {
    await backend.reset();
    addEnv(backend.env());
    await seedCampaigns(backend.open(), CAMPAIGNS, new Date());
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
