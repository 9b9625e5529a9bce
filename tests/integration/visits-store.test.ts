/**
 * The visits figures' contract on both backends: Upstash through the REST bridge to a real
 * redis-server (a HyperLogLog per set, so counts are within 0.81 %), and the embedded store
 * (exact). Small counts are exact on both: a HyperLogLog's sparse form counts a few hundred
 * members without error.
 */
import { describe, expect, test } from 'vitest';
import {
  OTHER_PAGE,
  OTHER_VALUE,
  VISIT_CAPS,
  VISIT_MS,
  VISITS_TTL_SECONDS,
  type Device,
  type View,
} from '../../functions/_lib/store/visits';
import { useStores } from '../support/store-setup';
import { createRedisStore, type Store } from '../support/stores';

const stores = useStores();

/** Each backend, emptied, with a store over it. */
const backends = stores.backends.map(([name, backend]): [string, () => Promise<Store>] => [
  name,
  async () => {
    await backend.reset();
    return backend.open();
  },
]);

const DAY = '2026-11-20';
const view = (visitor: string, overrides: Partial<View> = {}): View => ({
  day: DAY,
  visitor,
  path: '/',
  source: 'Direct',
  device: 'desktop' as Device,
  ...overrides,
});

describe.each(backends)('visits on %s', (_name, fresh) => {
  let store: Store;

  test('counts visitors once a day, every view, and a visit by its first page', async () => {
    store = await fresh();
    for (const visitor of ['a', 'b', 'c'])
      for (const page of ['/zoho', '/sectors']) {
        await store.recordView(view(visitor, { path: page, source: 'linkedin', campaign: 'autumn', device: 'phone' }));
      }
    await store.recordView(view('d', { source: 'news.ycombinator.com' }));
    const [day] = await store.visitDays([DAY], '2000-01-01');
    expect(day).toMatchObject({
      visitors: 4,
      pages: {
        '/zoho': { views: 3, visitors: 3 },
        '/sectors': { views: 3, visitors: 3 },
        '/': { views: 1, visitors: 1 },
      },
      entries: { '/zoho': 3, '/': 1 },
      sources: { linkedin: { views: 3, visitors: 3 }, 'news.ycombinator.com': { views: 1, visitors: 1 } },
      campaigns: { autumn: { views: 3, visitors: 3 } },
      devices: { phone: { views: 3, visitors: 3 }, desktop: { views: 1, visitors: 1 } },
    });
  });

  test('a day before the last open one is stored whole once read, and reads the same after', async () => {
    store = await fresh();
    await store.recordView(view('a', { path: '/blog' }));
    await store.recordView(view('b', { path: '/blog', campaign: 'x' }));
    const [live] = await store.visitDays([DAY], '2026-11-22');
    const [stored] = await store.visitDays([DAY], '2026-11-22');
    expect(stored).toEqual(live);
    expect(stored?.pages['/blog']).toEqual({ views: 2, visitors: 2 });
    // Only the stored figures remain of the day: its live tables and sets are gone.
    expect(await store.liveVisitTables(DAY)).toEqual({
      visitors: 0,
      tables: { pages: {}, entries: {}, sources: {}, campaigns: {}, devices: {} },
    });
  });

  test('a day with nothing reads as zeros', async () => {
    store = await fresh();
    const [day] = await store.visitDays(['2026-01-01'], '2026-11-22');
    expect(day).toEqual({ visitors: 0, pages: {}, entries: {}, sources: {}, campaigns: {}, devices: {} });
  });

  test('a flood of made-up campaigns and sources is kept to the cap plus one "other" row', async () => {
    store = await fresh();
    await Promise.all(
      Array.from({ length: 300 }, (_, index) =>
        store.recordView(view(`v${index}`, { source: `s${index}`, campaign: `c${index}` })),
      ),
    );
    const [day] = await store.visitDays([DAY], '2000-01-01');
    expect(Object.keys(day?.sources ?? {})).toHaveLength(VISIT_CAPS.sources + 1);
    expect(Object.keys(day?.campaigns ?? {})).toHaveLength(VISIT_CAPS.campaigns + 1);
    expect(day?.campaigns[OTHER_VALUE]?.views).toBe(300 - VISIT_CAPS.campaigns);
    expect(day?.visitors).toBeGreaterThanOrEqual(297);
    expect(day?.visitors).toBeLessThanOrEqual(303);
  });

  test('200 concurrent views of one page lose no count', async () => {
    store = await fresh();
    await Promise.all(
      Array.from({ length: 200 }, (_, index) => store.recordView(view(`v${index % 50}`, { path: OTHER_PAGE }))),
    );
    const [day] = await store.visitDays([DAY], '2000-01-01');
    expect(day?.pages[OTHER_PAGE]?.views).toBe(200);
    expect(day?.pages[OTHER_PAGE]?.visitors).toBe(50);
    // Four views of each visitor in one visit: 50 entries, not 200.
    expect(day?.entries[OTHER_PAGE]).toBe(50);
    expect(day?.visitors).toBe(50);
  });

  test('one salt a day, the same to every caller', async () => {
    store = await fresh();
    const salts = await Promise.all(Array.from({ length: 20 }, () => store.visitSalt(DAY)));
    expect(new Set(salts).size).toBe(1);
    expect(salts[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(await store.visitSalt('2026-11-21')).not.toBe(salts[0]);
  });
});

test('on Upstash every key a view writes expires: 25 months for the figures, 30 minutes for a visit', async () => {
  const client = stores.client();
  await client.flushdb();
  const store = createRedisStore(client);
  await store.recordView(view('a', { path: '/zoho', source: 'linkedin', campaign: 'autumn' }), {
    client: 'rate-a',
    perMinute: 10,
  });
  await store.recordView(view('a', { path: '/sectors' }), { client: 'rate-a', perMinute: 10 });
  const keys = await client.keys('visits:*');
  expect(keys.length).toBeGreaterThan(8);
  for (const key of keys) {
    const seconds = await client.ttl(key);
    if (key.startsWith('visits:open:')) expect(seconds, key).toBeLessThanOrEqual(VISIT_MS / 1000);
    else if (key.startsWith('visits:rate:')) expect(seconds, key).toBeLessThanOrEqual(60);
    else expect(seconds, key).toBeGreaterThan(VISITS_TTL_SECONDS - 60);
    expect(seconds, key).toBeGreaterThan(0);
  }
});
