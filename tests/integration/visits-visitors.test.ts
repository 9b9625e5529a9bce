/**
 * Who counts as a visitor, through the real POST /api/visits handler on both stores: one address
 * cycling through user agents begins at most VISITORS_PER_MINUTE visits a minute, and a visit
 * open at midnight goes on under the new day's salt instead of beginning again with no source.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import visitsCreate from '../../functions/visits-create';
import type { Tallied } from '../../functions/_lib/store/visits';
import { addDays } from '../../functions/_lib/visits/calendar-days';
import { call, ORIGIN } from '../support/admin-calls';
import { useBuildFiles } from '../support/build-files';
import { useStores } from '../support/store-setup';

useBuildFiles();
const stores = useStores();

/** A browser's user agent; each `version` is another browser, so another visitor. */
const agent = (version = 0) =>
  `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.${version}.0 Safari/537.36`;

/** A view as one of the site's pages sends it with sendBeacon. */
function view(body: object, { ip = '203.0.113.7', userAgent = agent() } = {}) {
  return call(visitsCreate, '/api/visits', {
    method: 'POST',
    headers: {
      'content-type': 'text/plain;charset=UTF-8',
      'user-agent': userAgent,
      origin: ORIGIN,
      'sec-fetch-site': 'same-origin',
    },
    body: JSON.stringify(body),
    ip,
  });
}

/** Today in the site's time zone (UTC, as no SITE_TIME_ZONE is set). */
const today = () => new Date().toISOString().slice(0, 10);

/** The visits and visitors of a table's rows, summed. */
const sum = (table: Record<string, Tallied>) =>
  Object.values(table).reduce(
    (total, row) => ({ views: total.views + row.views, visitors: total.visitors + row.visitors }),
    {
      views: 0,
      visitors: 0,
    },
  );

/** Each case's own nights: the handler keeps each day's salt for the day, whichever store it came from. */
let nights = 0;

describe.each(stores.backends)('visitors on %s', (_name, backend) => {
  afterEach(() => vi.useRealTimers());

  /**
   * A count of visitors as this store gives it. On Upstash the members are hashed with the day's
   * random salt into a HyperLogLog: for 20 visitors, about one run in 80 puts two in one register
   * and counts one less; it never counts more.
   */
  function expectVisitors(counted: number | undefined, visitors: number) {
    if (backend.exactDistinct) {
      expect(counted).toBe(visitors);
    } else {
      expect(counted).toBeLessThanOrEqual(visitors);
      expect(counted).toBeGreaterThanOrEqual(visitors - 2);
    }
  }

  test.each([
    ['unset', 20, {}],
    ['5', 5, { VISITORS_PER_MINUTE: '5' }],
  ])(
    'VISITORS_PER_MINUTE %s: one address sending 150 user agents in a minute counts %i visitors, whose next views count',
    async (_setting, visitors, env) => {
      const store = await stores.fresh(backend, { VISITS_PER_MINUTE: '1000', ...env });
      for (let version = 0; version < 150; version += 1)
        expect((await view({ path: '/' }, { userAgent: agent(version) })).status).toBe(202);
      // Those counted began their visits; each reads another page.
      for (let version = 0; version < visitors; version += 1)
        await view({ path: '/blog' }, { userAgent: agent(version) });
      const [day] = await store.visitDays([today()], '2000-01-01');
      expectVisitors(day?.visitors, visitors);
      for (const page of ['/', '/blog']) {
        expect(day?.pages[page]?.views).toBe(visitors);
        expectVisitors(day?.pages[page]?.visitors, visitors);
      }
      // Another address is not held back by this one: its view counts, as a view and a visitor.
      await view({ path: '/' }, { ip: '198.51.100.8' });
      const [after] = await store.visitDays([today()], '2000-01-01');
      expect(after?.pages['/']?.views).toBe(visitors + 1);
      expectVisitors(after?.visitors, visitors + 1);
    },
  );

  test('a visit open at midnight goes on: the new day counts its views, not a visit begun again', async () => {
    const store = await stores.fresh(backend);
    nights += 1;
    const eve = addDays('2026-10-01', nights * 3);
    const next = addDays(eve, 1);
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(`${eve}T23:50:00Z`) });
    await view({ path: '/zoho', referrer: 'www.linkedin.com' });
    vi.setSystemTime(new Date(`${next}T00:05:00Z`));
    await view({ path: '/sectors' });
    // Someone whose first view is after midnight begins a visit, as ever.
    await view({ path: '/blog' }, { ip: '198.51.100.9' });
    vi.useRealTimers();

    const [before, after] = await store.visitDays([eve, next], '2000-01-01');
    expect(before?.visitors).toBe(1);
    expect(sum(before?.sources ?? {})).toEqual({ views: 1, visitors: 1 });
    expect(after?.visitors).toBe(2);
    expect(after?.pages['/sectors']).toEqual({ views: 1, visitors: 1 });
    // Only the newcomer's visit began on the new day: the other one began before midnight.
    expect(after?.entries).toEqual({ '/blog': 1 });
    expect(sum(after?.sources ?? {})).toEqual({ views: 1, visitors: 1 });
  });
});
