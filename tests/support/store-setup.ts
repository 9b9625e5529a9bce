/**
 * What every store test sets up: a real redis-server of its own on a free port with the Upstash
 * REST bridge in front of it for the whole file, the embedded store's temp folder for each case,
 * and the functions' environment set afresh for each case.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Redis } from '@upstash/redis';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { resetEnv } from '../../functions/_lib/platform/env';
import { createUpstashClient } from '../../functions/_lib/store/redis/redis-backend';
import { afterAnswerWork } from '../../scripts/harness/functions';
import { startRedisServer, type RedisServerHandle } from '../../scripts/harness/redis-server';
import { startUpstashBridge, type UpstashBridge } from '../../scripts/harness/upstash-bridge';
import { testBackends, type SqliteStore, type Store, type TestBackend } from './stores';

/** The variables the store tests set for the functions, every one cleared before each case. */
export const ENV_KEYS = [
  'SITE_LOCAL_RUN',
  'LOCAL_STORE_DIR',
  'UPSTASH_REDIS_REST_URL',
  'UPSTASH_REDIS_REST_TOKEN',
  'STORE_TIMEOUT_MS',
  'RATE_LIMIT_PER_MINUTE',
  'SMTP_URL',
  'MAIL_FROM',
  'LEADS_NOTIFY_TO',
  'LEAD_WEBHOOK_URL',
  'LEAD_WEBHOOK_SECRET',
  'AKISMET_API_KEY',
  'AKISMET_ENDPOINT',
  'ALTCHA_HMAC_KEY',
  'ADMIN_PASSWORD',
  'ADMIN_PASSWORD_HASH',
  'SESSION_SECRET',
  'MAIL_RATE_PER_MINUTE',
  'NEWSLETTER_AUTO_SEND_HOURS',
  'WEEKLY_REPORT',
  'SITE_TIME_ZONE',
  'VISITS_PER_MINUTE',
  'VISITORS_PER_MINUTE',
  'BOOKING_BUSY_ICS_URL',
  'BOOKING_LOCATION',
];

/** Clears every variable of ENV_KEYS, sets `values` and parses the environment again. */
export function setEnv(values: Record<string, string> = {}): void {
  for (const key of ENV_KEYS) delete process.env[key];
  addEnv(values);
}

/** Sets `values` beside the variables already set and parses the environment again. */
export function addEnv(values: Record<string, string>): void {
  Object.assign(process.env, values);
  resetEnv();
}

/** The redis-server and its bridge a file's tests share. */
export interface UpstashSetup {
  redis: () => RedisServerHandle;
  bridge: () => UpstashBridge;
  /** The bridge's address and the token it takes. */
  upstash: () => { url: string; token: string };
  /** The settings that point the functions at it. */
  env: () => { UPSTASH_REDIS_REST_URL: string; UPSTASH_REDIS_REST_TOKEN: string };
  /** A new client of the bridge, as a function instance makes one. */
  client: (timeoutMs?: number) => Redis;
}

/** The token the bridge takes. */
export const UPSTASH_TOKEN = 'store-test-token';

/** Starts a redis-server (`persistent` for a test that restarts it) and its bridge before the file's tests; stops them after. */
export function useUpstash({ persistent = false } = {}): UpstashSetup {
  let redis: RedisServerHandle | undefined;
  let bridge: UpstashBridge | undefined;
  beforeAll(async () => {
    redis = await startRedisServer({ persistent });
    bridge = await startUpstashBridge({ redisUrl: redis.url, token: UPSTASH_TOKEN });
  });
  afterAll(async () => {
    await bridge?.stop();
    await redis?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('redis-server is not started: use it inside a test or a hook');
    return value;
  };
  const upstash = () => ({ url: started(bridge).url, token: UPSTASH_TOKEN });
  return {
    redis: () => started(redis),
    bridge: () => started(bridge),
    upstash,
    env: () => ({ UPSTASH_REDIS_REST_URL: upstash().url, UPSTASH_REDIS_REST_TOKEN: UPSTASH_TOKEN }),
    client: (timeoutMs = 5000) => createUpstashClient({ ...upstash(), timeoutMs }),
  };
}

/** useUpstash, with the folder of each case's embedded store and the two backends to run a case on. */
export interface StoreSetup extends UpstashSetup {
  /** This case's temp folder, made before it and removed after. */
  folder: () => string;
  /** Embedded stores (and backends) the case opened, closed after it. */
  opened: Pick<SqliteStore, 'close'>[];
  /** The embedded store in the case's folder and Upstash through the bridge, for describe.each. */
  backends: [name: string, backend: TestBackend][];
  /**
   * Empties a backend, points a local run of the functions at it (with the case's folder and
   * `env` besides) and opens a store over it: the start of a case run on each backend.
   */
  fresh: (backend: TestBackend, env?: Record<string, string>) => Promise<Store>;
}

/**
 * Registers the file's redis-server and bridge, and for each case a fresh temp folder and an
 * environment cleared of ENV_KEYS (set a case's own with setEnv); after each case, closes what it
 * opened and removes its folder.
 */
export function useStores({ persistent = false } = {}): StoreSetup {
  const upstash = useUpstash({ persistent });
  let folder: string | undefined;
  const opened: Pick<SqliteStore, 'close'>[] = [];
  beforeEach(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'store-test-'));
    setEnv();
  });
  afterEach(async () => {
    // A function's delivery after its answer may still be writing to the folder.
    await afterAnswerWork();
    for (const store of opened.splice(0)) store.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
    folder = undefined;
    setEnv();
  });
  const caseFolder = () => {
    if (folder === undefined) throw new Error('there is a folder only inside a test or its hooks');
    return folder;
  };
  return {
    ...upstash,
    folder: caseFolder,
    opened,
    backends: testBackends({ folder: caseFolder, opened, upstash: upstash.upstash }),
    async fresh(backend, env = {}) {
      await backend.reset();
      setEnv({ SITE_LOCAL_RUN: 'true', LOCAL_STORE_DIR: caseFolder(), ...env, ...backend.env() });
      return backend.open();
    },
  };
}
