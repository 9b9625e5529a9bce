/** The store over each backend, with the reads no endpoint makes, as the tests and fixtures open it. */
import type { Redis } from '@upstash/redis';
import { inspectableStore, type InspectableStore } from '../../functions/_lib/store/inspect';
import { redisBackend } from '../../functions/_lib/store/redis/backend';
import { sqliteBackend } from '../../functions/_lib/store/sqlite/backend';

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
