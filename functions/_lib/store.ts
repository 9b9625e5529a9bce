/**
 * Chooses the store for a request: Upstash Redis when configured; otherwise the embedded
 * file store, but only off Netlify (a deployed site without Upstash must not pretend to save).
 */
import type { Context } from '@netlify/functions';
import path from 'node:path';
import { getEnv, type Env } from './env';
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from './rate-limit';
import { createFileStore } from './store-file';
import { createRedisStore, createUpstashClient } from './store-redis';
import type { Store } from './store-types';

export interface Backend {
  kind: 'upstash' | 'embedded';
  store: Store;
  limiter: RateLimiter;
}

/** True when the code runs in a deployed Netlify function (not in local emulation or tests). */
export function isDeployed(context: Pick<Context, 'deploy'> | undefined): boolean {
  const deployContext = context?.deploy?.context;
  return Boolean(deployContext) && deployContext !== 'dev';
}

let cached: { env: Env; backend: Backend } | undefined;

/** The backend for this environment, created once and reused by warm invocations. */
export function getBackend(context: Pick<Context, 'deploy'> | undefined): Backend | undefined {
  const env = getEnv();
  if (cached?.env === env) return cached.backend;
  let backend: Backend | undefined;
  if (env.UPSTASH_REDIS_REST_URL && env.UPSTASH_REDIS_REST_TOKEN) {
    const redis = createUpstashClient({ url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN, timeoutMs: env.STORE_TIMEOUT_MS });
    backend = { kind: 'upstash', store: createRedisStore(redis), limiter: createRedisRateLimiter(redis, env.RATE_LIMIT_PER_MINUTE, env.STORE_TIMEOUT_MS) };
  } else if (!isDeployed(context)) {
    const directory = env.LOCAL_STORE_DIR ?? path.join(process.cwd(), '.data');
    backend = { kind: 'embedded', store: createFileStore(directory), limiter: createMemoryRateLimiter(env.RATE_LIMIT_PER_MINUTE) };
  }
  if (backend) cached = { env, backend };
  return backend;
}
