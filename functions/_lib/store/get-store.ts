// functions/_lib/store keeps the records: the Store interface, its Redis and SQLite adapters, and getStore() with its deadlines.
/**
 * The store the functions use. Upstash Redis when configured; otherwise the embedded SQLite
 * store, but only in an explicit local run (a deployed site without Upstash must not pretend to
 * save). getStore() hands it out with a deadline on every call: a store that fails or is slower
 * than STORE_TIMEOUT_MS throws StoreUnavailableError, which endpoint() answers with 503 in seconds.
 */
import { getEnv, isLocalRun, localDataDir, type Env } from '../platform/env';
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from '../forms/rate-limit';
import { createRedisStore, createUpstashClient } from './redis';
import {
  ChallengeSpentError,
  StoreNotConfiguredError,
  StoreUnavailableError,
  type Store,
  type StoreVerbs,
} from './types';

export interface Backend {
  kind: 'upstash' | 'embedded';
  store: Store;
  limiter: RateLimiter;
}

interface Bounded {
  store: StoreVerbs;
  limiter: RateLimiter;
}

/** The backend of an environment, made once and reused by warm invocations, with its bounded verbs. */
let cached: { env: Env; backend: Backend; bounded: Bounded } | undefined;

/**
 * Runs a store call with a deadline; any failure becomes StoreUnavailableError, except a spent
 * challenge: the store answered, and the submission is what is wrong.
 */
async function withDeadline<T>(call: () => Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreUnavailableError(`store call exceeded ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([call(), deadline]);
  } catch (error) {
    throw error instanceof StoreUnavailableError || error instanceof ChallengeSpentError
      ? error
      : new StoreUnavailableError('store call failed', { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The backend's verbs, each bounded by STORE_TIMEOUT_MS. The admin's reads walk whole lists and
 * grow with the data, so they get twice as long, and so does the erasure on the same page.
 */
function bound({ store, limiter }: Backend, timeoutMs: number): Bounded {
  const within =
    <A extends unknown[], R>(verb: (...args: A) => Promise<R>, ms = timeoutMs) =>
    (...args: A) =>
      withDeadline(() => verb(...args), ms);
  const slow = 2 * timeoutMs;
  return {
    store: {
      subscribe: within(store.subscribe),
      confirmSubscriber: within(store.confirmSubscriber),
      unsubscribe: within(store.unsubscribe),
      createLead: within(store.createLead),
      releaseSpam: within(store.releaseSpam),
      spamOverview: within(store.spamOverview, slow),
      recordChallengeFailure: within(store.recordChallengeFailure),
      claimOutbox: within(store.claimOutbox),
      completeOutbox: within(store.completeOutbox),
      retryOutbox: within(store.retryOutbox),
      listOutbox: within(store.listOutbox, slow),
      pruneOutbox: within(store.pruneOutbox, slow),
      countOutbox: within(store.countOutbox, slow),
      subscriberStatusCounts: within(store.subscriberStatusCounts, slow),
      recordHoneypot: within(store.recordHoneypot),
      countSubscribers: within(store.countSubscribers, slow),
      countLeads: within(store.countLeads, slow),
      listSubscribers: within(store.listSubscribers, slow),
      listLeads: within(store.listLeads, slow),
      dashboard: within(store.dashboard, slow),
      deleteSubscriber: within(store.deleteSubscriber, slow),
      deleteLead: within(store.deleteLead, slow),
      createSession: within(store.createSession),
      hasSession: within(store.hasSession),
      deleteSession: within(store.deleteSession),
      countLoginAttempt: within(store.countLoginAttempt),
      clearLoginAttempts: within(store.clearLoginAttempts),
    },
    limiter: { limit: within(limiter.limit) },
  };
}

/** The backend for this environment, or undefined when it has none. */
async function load(): Promise<typeof cached> {
  const env = getEnv();
  if (cached?.env === env) return cached;
  if (env.UPSTASH_REDIS_REST_URL && env.UPSTASH_REDIS_REST_TOKEN) {
    const redis = createUpstashClient({
      url: env.UPSTASH_REDIS_REST_URL,
      token: env.UPSTASH_REDIS_REST_TOKEN,
      timeoutMs: env.STORE_TIMEOUT_MS,
    });
    const backend: Backend = {
      kind: 'upstash',
      store: createRedisStore(redis),
      limiter: createRedisRateLimiter(redis, env.RATE_LIMIT_PER_MINUTE, env.STORE_TIMEOUT_MS),
    };
    cached = { env, backend, bounded: bound(backend, env.STORE_TIMEOUT_MS) };
    return cached;
  }
  if (!isLocalRun()) return undefined;
  // Imported here only: a deployed function never loads the embedded store (nor node:sqlite).
  const { createSqliteStore } = await import('./sqlite');
  // A concurrent first call may have made it meanwhile: one store and one limiter per environment.
  if (cached?.env !== env) {
    const backend: Backend = {
      kind: 'embedded',
      store: createSqliteStore(localDataDir()),
      limiter: createMemoryRateLimiter(env.RATE_LIMIT_PER_MINUTE),
    };
    cached = { env, backend, bounded: bound(backend, env.STORE_TIMEOUT_MS) };
  }
  return cached;
}

/** The backend itself, without deadlines, for scripts that fill it; undefined when this environment has none. */
export async function getBackend(): Promise<Backend | undefined> {
  return (await load())?.backend;
}

async function bounded(): Promise<Bounded> {
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
