/**
 * The visits figures' contract on both backends: Upstash through the REST bridge to a real
 * redis-server (a HyperLogLog per set, so counts are within 0.81 %), and the embedded store
 * (exact). Small counts are exact on both: a HyperLogLog's sparse form counts a few hundred
 * members without error.
 */
import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Backend } from '../../functions/_lib/store/backend-contract';
import { DATABASE_FILE } from '../../functions/_lib/store/sqlite/database';
import { createStore } from '../../functions/_lib/store/store';
import {
  OTHER_PAGE,
  OTHER_VALUE,
  VISIT_CAPS,
  VISIT_MS,
  VISITS_TTL_SECONDS,
  type Device,
  type View,
} from '../../functions/_lib/store/visits';
import { KEYS } from '../../functions/_lib/store/keys';
import { addDays } from '../../functions/_lib/visits/calendar-days';
import { useStores } from '../support/store-setup';
import { createRedisStore, type Store, type TestBackend } from '../support/stores';

const stores = useStores();

/** Each backend, emptied, with a store over it, and the backend itself for a second store over the same data. */
const backends = stores.backends.map(([name, backend]): [string, () => Promise<Store>, TestBackend] => [
  name,
  async () => {
    await backend.reset();
    return backend.open();
  },
  backend,
]);

// Ten days ago: a past day, well within the 25 months a day's figures are kept, whatever the date.
const DAY = addDays(new Date().toISOString().slice(0, 10), -10);
/** The first day still open in these tests: DAY is before it, so it is stored once read. */
const OPEN = addDays(DAY, 2);
const view = (visitor: string, overrides: Partial<View> = {}): View => ({
  day: DAY,
  visitor,
  path: '/',
  source: 'Direct',
  device: 'desktop' as Device,
  ...overrides,
});

/** The views and visitors of a table's rows, summed. */
const sum = (table: Record<string, { views: number; visitors: number }>) =>
  Object.values(table).reduce(
    (total, row) => ({ views: total.views + row.views, visitors: total.visitors + row.visitors }),
    {
      views: 0,
      visitors: 0,
    },
  );

/** A promise and the function that settles it: a step of one reader the test lets happen. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe.each(backends)('visits on %s', (_name, fresh, backend) => {
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
    const [live] = await store.visitDays([DAY], OPEN);
    const [stored] = await store.visitDays([DAY], OPEN);
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
    const [day] = await store.visitDays([addDays(DAY, -300)], OPEN);
    expect(day).toEqual({ visitors: 0, pages: {}, entries: {}, sources: {}, campaigns: {}, devices: {} });
  });

  test('a day is kept 25 months from the day itself: one read later than that is not stored again', async () => {
    store = await fresh();
    const old = addDays(DAY, -Math.ceil(VISITS_TTL_SECONDS / 86_400) - 2);
    await store.recordView(view('a', { day: old }));
    const [first] = await store.visitDays([old], OPEN);
    expect(first?.visitors).toBe(1);
    const own = backend.backend();
    expect(await own.get([KEYS.visitDay(old)])).toEqual([null]);
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

  test('a past day read by two readers at once keeps its figures: the later one answers what the first stored', async () => {
    store = await fresh();
    for (const visitor of ['a', 'b', 'c']) await store.recordView(view(visitor, { source: 'linkedin' }));
    const [expected] = await store.visitDays([DAY], '2000-01-01');
    expect(expected?.visitors).toBe(3);
    // The later reader (an open admin page) finds no stored figures, then waits while the first
    // one (the weekly letter) stores them and deletes the day's tables, and only then reads those.
    const looked = gate();
    const firstDone = gate();
    const own = backend.backend();
    let held = false;
    const slow: Backend = {
      ...own,
      async get(keys) {
        const values = await own.get(keys);
        if (!held) {
          held = true;
          looked.open();
          await firstDone.opened;
        }
        return values;
      },
    };
    const later = createStore(slow).visitDays([DAY], OPEN);
    await looked.opened;
    const [first] = await backend.open().visitDays([DAY], OPEN);
    firstDone.open();
    expect(first).toEqual(expected);
    expect((await later)[0]).toEqual(expected);
    expect((await store.visitDays([DAY], OPEN))[0]).toEqual(expected);
  });

  test('eight readers of a past day at once all answer its figures, and the day keeps them', async () => {
    store = await fresh();
    for (const visitor of ['a', 'b', 'c']) await store.recordView(view(visitor, { path: '/blog', campaign: 'x' }));
    const [expected] = await store.visitDays([DAY], '2000-01-01');
    const answers = await Promise.all(Array.from({ length: 8 }, () => backend.open().visitDays([DAY], OPEN)));
    for (const [answer] of answers) expect(answer).toEqual(expected);
    expect((await store.visitDays([DAY], OPEN))[0]).toMatchObject({ visitors: 3 });
  });

  test('a source 30 visitors came from keeps its row after 100 made-up values filled the table, as more keep coming', async () => {
    store = await fresh();
    for (let index = 0; index < 100; index += 1)
      await store.recordView(view(`bot-${index}`, { source: `made-up-${index}`, campaign: `made-up-${index}` }));
    for (let index = 0; index < 30; index += 1) {
      await store.recordView(view(`reader-${index}`, { source: 'news.ycombinator.com', campaign: 'launch' }));
      for (const more of ['x', 'y'])
        await store.recordView(
          view(`bot-${index}${more}`, { source: `late-${index}${more}`, campaign: `late-${index}${more}` }),
        );
    }
    const [day] = await store.visitDays([DAY], '2000-01-01');
    const tables = { sources: 'news.ycombinator.com', campaigns: 'launch' } as const;
    for (const [table, real] of Object.entries(tables) as [keyof typeof tables, string][]) {
      const rows = day?.[table] ?? {};
      expect(rows[real], table).toEqual({ views: 30, visitors: 30 });
      expect(Object.keys(rows), table).toHaveLength(VISIT_CAPS[table] + 1);
      // Every visit is counted once, in its own row or under (other), and so is its visitor.
      expect(sum(rows), table).toEqual({ views: 190, visitors: 190 });
      expect(rows[OTHER_VALUE]?.visitors, table).toBe(rows[OTHER_VALUE]?.views);
    }
  });

  test('views at once lose no count, and a source seen often takes its row in a table already full', async () => {
    store = await fresh();
    await Promise.all(
      Array.from({ length: 100 }, (_, index) => store.recordView(view(`v${index}`, { source: `s${index}` }))),
    );
    await Promise.all(
      Array.from({ length: 300 }, (_, index) =>
        store.recordView(view(`w${index}`, { source: index % 4 === 0 ? 'news.ycombinator.com' : `t${index}` })),
      ),
    );
    const [day] = await store.visitDays([DAY], '2000-01-01');
    expect(Object.keys(day?.sources ?? {})).toHaveLength(VISIT_CAPS.sources + 1);
    expect(sum(day?.sources ?? {}).views).toBe(400);
    expect(day?.sources['news.ycombinator.com']).toEqual({ views: 75, visitors: 75 });
  });

  test('one client begins at most visitorsPerMinute visits a minute, however many come at once; those begun go on', async () => {
    store = await fresh();
    const limit = { client: 'one-address', perMinute: 1000, visitorsPerMinute: 20 };
    const agents = Array.from({ length: 50 }, (_, index) => `agent-${index}`);
    await Promise.all(agents.map((visitor) => store.recordView(view(visitor), limit)));
    expect((await store.visitDays([DAY], '2000-01-01'))[0]).toMatchObject({
      visitors: 20,
      pages: { '/': { views: 20, visitors: 20 } },
      entries: { '/': 20 },
      sources: { Direct: { views: 20, visitors: 20 } },
    });
    // Each again: the 20 counted go on; the 30 others would still begin one more visit this minute.
    await Promise.all(agents.map((visitor) => store.recordView(view(visitor, { path: '/blog' }), limit)));
    const [day] = await store.visitDays([DAY], '2000-01-01');
    expect(day?.pages['/blog']).toEqual({ views: 20, visitors: 20 });
    expect(day?.visitors).toBe(20);
    // Another address begins its own.
    await store.recordView(view('elsewhere'), { ...limit, client: 'another-address' });
    expect((await store.visitDays([DAY], '2000-01-01'))[0]?.visitors).toBe(21);
  });

  test("a visit open at midnight goes on under the new day's hash: no new entry, and not Direct", async () => {
    store = await fresh();
    const yesterday = addDays(DAY, -1);
    await store.recordView(view('a-yesterday', { day: yesterday, path: '/zoho', source: 'linkedin' }));
    await store.recordView(view('a-today', { continues: 'a-yesterday', path: '/sectors' }));
    // Nobody had a visit open under this one's hash of yesterday: a visit begins.
    await store.recordView(view('b-today', { continues: 'b-yesterday', path: '/blog' }));
    // The visit goes on under today's hash, as any other.
    await store.recordView(view('a-today', { path: '/' }));
    const [before, today] = await store.visitDays([yesterday, DAY], '2000-01-01');
    expect(before).toMatchObject({ visitors: 1, entries: { '/zoho': 1 }, sources: { linkedin: { views: 1 } } });
    expect(today?.visitors).toBe(2);
    expect(today?.pages).toEqual({
      '/sectors': { views: 1, visitors: 1 },
      '/blog': { views: 1, visitors: 1 },
      '/': { views: 1, visitors: 1 },
    });
    expect(today?.entries).toEqual({ '/blog': 1 });
    expect(today?.sources).toEqual({ Direct: { views: 1, visitors: 1 } });
  });

  test('one salt a day, the same to every caller', async () => {
    store = await fresh();
    const salts = await Promise.all(Array.from({ length: 20 }, () => store.visitSalt(DAY)));
    expect(new Set(salts).size).toBe(1);
    expect(salts[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(await store.visitSalt(addDays(DAY, 1))).not.toBe(salts[0]);
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

/** The distinct sets of a day's sources each backend keeps, by its own means. */
const sourceSets: Record<string, () => Promise<number>> = {
  'the embedded SQLite store': async () => {
    const db = new DatabaseSync(path.join(stores.folder(), DATABASE_FILE), { readOnly: true });
    try {
      const row = db
        .prepare('SELECT count(DISTINCT name) AS sets FROM distinct_members WHERE name LIKE ?')
        .get(`visits:${DAY}:sources|%`);
      return Number(row?.sets);
    } finally {
      db.close();
    }
  },
  'Upstash Redis': async () => (await stores.client().keys(`visits:${DAY}:sources|*`)).length,
};

test.each(Object.keys(sourceSets))(
  'on %s a day keeps a distinct set for each of its kept sources only',
  async (name) => {
    const [, fresh] = backends.find(([backendName]) => backendName === name) ?? [];
    const store = await fresh?.();
    if (!store) throw new Error(`no backend named ${name}`);
    for (let index = 0; index < 300; index += 1)
      await store.recordView(view(`v${index}`, { source: `made-up-${index}` }));
    expect(await sourceSets[name]?.()).toBe(VISIT_CAPS.sources + 1);
  },
);
