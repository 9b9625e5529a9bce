// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/**
 * The store the functions use. Upstash Redis when configured; otherwise the embedded SQLite
 * store, but only in an explicit local run (a deployed site without Upstash must not pretend to
 * save). getStore() hands it out with a deadline on every call: a store that fails or is slower
 * than STORE_TIMEOUT_MS throws StoreUnavailableError, which endpoint() answers with 503 in seconds.
 */
import { getEnv, isLocalRun, localDataDir, type Env } from '../platform/env';
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from '../forms/rate-limit';
import { SLOW_VERBS } from './admin-reads';
import {
  ChallengeSpentError,
  IdempotencyKeyReusedError,
  StoreNotConfiguredError,
  StoreUnavailableError,
} from './errors';
import { createUpstashClient, redisBackend } from './redis/redis-backend';
import { createStore, type StoreVerbs } from './store';

export interface LoadedStore {
  kind: 'upstash' | 'embedded';
  store: StoreVerbs;
  limiter: RateLimiter;
}

/** The store of an environment, made once and reused by warm invocations, with its bounded verbs. */
let cached: { env: Env; loaded: LoadedStore; bounded: Omit<LoadedStore, 'kind'> } | undefined;

/**
 * Runs a store call with a deadline; any failure becomes StoreUnavailableError, except a spent
 * challenge or a reused idempotency key: the store answered, and the submission is what is wrong.
 */
async function withDeadline<T>(call: () => Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreUnavailableError(`store call exceeded ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([call(), deadline]);
  } catch (error) {
    throw error instanceof StoreUnavailableError ||
      error instanceof ChallengeSpentError ||
      error instanceof IdempotencyKeyReusedError
      ? error
      : new StoreUnavailableError('store call failed', { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/** Every verb bounded by STORE_TIMEOUT_MS; the admin's reads, which grow with the data, by twice that. */
function bound({ store, limiter }: LoadedStore, timeoutMs: number): Omit<LoadedStore, 'kind'> {
  const slow = new Set<string>(SLOW_VERBS);
  const verbs = Object.fromEntries(
    Object.entries(store).map(([name, verb]: [string, (...args: never[]) => Promise<unknown>]) => [
      name,
      (...args: never[]) => withDeadline(() => verb(...args), slow.has(name) ? 2 * timeoutMs : timeoutMs),
    ]),
  );
  return {
    // The same verbs, each with its own signature: only a deadline is added.
    store: verbs as StoreVerbs,
    limiter: { limit: (key) => withDeadline(() => limiter.limit(key), timeoutMs) },
  };
}

/** The store for this environment, or undefined when it has none. */
async function load(): Promise<typeof cached> {
  const env = getEnv();
  if (cached?.env === env) return cached;
  let loaded: LoadedStore;
  if (env.UPSTASH_REDIS_REST_URL && env.UPSTASH_REDIS_REST_TOKEN) {
    const redis = createUpstashClient({
      url: env.UPSTASH_REDIS_REST_URL,
      token: env.UPSTASH_REDIS_REST_TOKEN,
      timeoutMs: env.STORE_TIMEOUT_MS,
    });
    loaded = {
      kind: 'upstash',
      store: createStore(redisBackend(redis)),
      limiter: createRedisRateLimiter(redis, env.RATE_LIMIT_PER_MINUTE, env.STORE_TIMEOUT_MS),
    };
  } else {
    if (!isLocalRun()) return undefined;
    // Imported here only: a deployed function never loads the embedded store (nor node:sqlite).
    const { sqliteBackend } = await import('./sqlite/sqlite-backend');
    // A concurrent first call may have made it meanwhile: one store and one limiter per environment.
    if (cached?.env === env) return cached;
    loaded = {
      kind: 'embedded',
      store: createStore(sqliteBackend(localDataDir())),
      limiter: createMemoryRateLimiter(env.RATE_LIMIT_PER_MINUTE),
    };
  }
  cached = { env, loaded, bounded: bound(loaded, env.STORE_TIMEOUT_MS) };
  return cached;
}

/** The store itself, without deadlines, for scripts that fill it; undefined when this environment has none. */
export async function getBackend(): Promise<LoadedStore | undefined> {
  return (await load())?.loaded;
}

async function bounded(): Promise<Omit<LoadedStore, 'kind'>> {
  const loaded = await load();
  if (!loaded) throw new StoreNotConfiguredError();
  return loaded.bounded;
}

/** The store, every call with a deadline. Throws StoreNotConfiguredError when this environment has none. */
export async function getStore(): Promise<StoreVerbs> {
  return (await bounded()).store;
}

/** The form endpoints' rate limiter, on the same backend and with the same deadline. */
export async function getRateLimiter(): Promise<RateLimiter> {
  return (await bounded()).limiter;
}
