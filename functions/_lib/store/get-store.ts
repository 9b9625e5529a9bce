/**
 * Chooses the store for a request: Upstash Redis when configured; otherwise the embedded
 * SQLite store, but only in an explicit local run (a deployed site without Upstash must not
 * pretend to save).
 */
import path from 'node:path';
import { getEnv, isLocalRun, type Env } from '../env';
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from '../rate-limit';
import { createRedisStore, createUpstashClient } from './redis';
import type { Store } from './types';

export interface Backend {
  kind: 'upstash' | 'embedded';
  store: Store;
  limiter: RateLimiter;
}

let cached: { env: Env; backend: Backend } | undefined;

/** The backend for this environment, created once and reused by warm invocations. */
export async function getBackend(): Promise<Backend | undefined> {
  const env = getEnv();
  if (cached?.env === env) return cached.backend;
  if (env.UPSTASH_REDIS_REST_URL && env.UPSTASH_REDIS_REST_TOKEN) {
    const redis = createUpstashClient({ url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN, timeoutMs: env.STORE_TIMEOUT_MS });
    cached = { env, backend: { kind: 'upstash', store: createRedisStore(redis), limiter: createRedisRateLimiter(redis, env.RATE_LIMIT_PER_MINUTE, env.STORE_TIMEOUT_MS) } };
    return cached.backend;
  }
  if (!isLocalRun()) return undefined;
  // Imported here only: a deployed function never loads the embedded store (nor node:sqlite).
  const { createSqliteStore } = await import('./sqlite');
  // A concurrent first call may have made it meanwhile: one store and one limiter per environment.
  if (cached?.env !== env) {
    const directory = env.LOCAL_STORE_DIR ?? path.join(process.cwd(), '.data');
    cached = { env, backend: { kind: 'embedded', store: createSqliteStore(directory), limiter: createMemoryRateLimiter(env.RATE_LIMIT_PER_MINUTE) } };
  }
  return cached.backend;
}
