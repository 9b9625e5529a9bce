/** The store over each backend, with the reads no endpoint makes, as the tests and fixtures open it. */
import type { Redis } from '@upstash/redis';
import type { Backend } from '../../functions/_lib/store/backend-contract';
import { inspectableStore, type InspectableStore } from '../../functions/_lib/store/inspect';
import { createUpstashClient, redisBackend } from '../../functions/_lib/store/redis/redis-backend';
import { sqliteBackend } from '../../functions/_lib/store/sqlite/sqlite-backend';

export type Store = InspectableStore;
export type SqliteStore = Store & { close(): void };

/** The embedded store of a folder; close() closes its database. */
export function createSqliteStore(folder: string): SqliteStore {
  const backend = sqliteBackend(folder);
  return { ...inspectableStore(backend), close: () => backend.close() };
}

/** The store on Upstash through a client (in tests, the REST bridge to a real redis-server). */
export function createRedisStore(client: Redis): Store {
  return inspectableStore(redisBackend(client));
}

/** A backend as the handler tests run each of their cases on: its settings, a store over its data, and a reset. */
export interface TestBackend {
  /** The environment that points the handlers at it. */
  env: () => Record<string, string>;
  /** A store of its own over the same data: a second function instance, or the test's reader. */
  open: () => Store;
  /** A backend of its own over the same data, for a test that must order what reaches it. */
  backend: () => Backend;
  /** Empties it before a case. */
  reset: () => Promise<void>;
  /**
   * Whether it counts distinct members (a day's visitors) exactly: the embedded store does; Upstash
   * keeps a HyperLogLog, where two members hashed to one of its 16,384 registers count as one.
   */
  exactDistinct: boolean;
}

/**
 * The two backends, by name, for describe.each: the embedded store in the folder the case made
 * (its stores are pushed on `opened` for the case to close), and Upstash through the REST bridge.
 */
export function testBackends(place: {
  folder: () => string;
  opened: Pick<SqliteStore, 'close'>[];
  upstash: () => { url: string; token: string };
}): [name: string, backend: TestBackend][] {
  const client = () => createUpstashClient({ ...place.upstash(), timeoutMs: 5000 });
  return [
    [
      'the embedded SQLite store',
      {
        env: () => ({}),
        open: () => {
          const store = createSqliteStore(place.folder());
          place.opened.push(store);
          return store;
        },
        backend: () => {
          const backend = sqliteBackend(place.folder());
          place.opened.push(backend);
          return backend;
        },
        reset: async () => undefined,
        exactDistinct: true,
      },
    ],
    [
      'Upstash Redis',
      {
        env: () => ({ UPSTASH_REDIS_REST_URL: place.upstash().url, UPSTASH_REDIS_REST_TOKEN: place.upstash().token }),
        open: () => createRedisStore(client()),
        backend: () => redisBackend(client()),
        reset: async () => {
          await client().flushdb();
        },
        exactDistinct: false,
      },
    ],
  ];
}
