// functions/_lib/store keeps the records: the Store interface, its Redis and SQLite adapters, and getStore() with its deadlines.
/**
 * The store on Upstash Redis. Records are JSON strings (automatic deserialisation is off, so a
 * name like "1234" or "null" stays a string); every write is one atomic round trip.
 */
import { Redis } from '@upstash/redis';
import type { Lead, Subscriber } from '../../../src/shared/records';
import {
  countTable,
  dayOf,
  IDEMPOTENCY_TTL_SECONDS,
  type DailyCounts,
  type LeadInput,
  type LoginAttempts,
  type Page,
  type Store,
  type SubscribeInput,
  type SubscribeResult,
  type WriteOptions,
} from './types';

/** Every key the store uses, in one place. */
export const KEYS = {
  subscriber: (email: string) => `sub:${email}`,
  subscribersByCreated: 'subs:by_created',
  lead: (id: string) => `lead:${id}`,
  leadsByCreated: 'leads:by_created',
  daily: (kind: 'subscribers' | 'leads', day: string) => `stats:${kind}:${day}`,
  honeypot: 'stats:honeypot',
  session: (id: string) => `admin:session:${id}`,
  loginAttempts: (client: string) => `admin:login-attempts:${client}`,
  /** A form submission's idempotency key (scoped per endpoint by the caller); holds what it stored. */
  idempotency: (key: string) => `idem:${key}`,
} as const;

/** Per-day statistics are kept for two years. */
const DAILY_TTL_SECONDS = 2 * 366 * 24 * 3600;

/**
 * Upsert of a subscriber by e-mail, atomically: a new address is created and indexed and counted;
 * a known one keeps its createdAt, takes the newer names and gains the source if it is new.
 * With an idempotency key (KEYS[4]) seen before, nothing changes and the record stored under the
 * e-mail it holds is returned; otherwise the key is kept, holding the e-mail, in the same step.
 * KEYS: record, index, daily counts[, idempotency key]. ARGV: record JSON, score (ms), e-mail,
 * source, daily ttl, subscriber key prefix, idempotency ttl.
 * Returns { created (0/1), record JSON or false, repeated (0/1) }.
 */
const SUBSCRIBE_SCRIPT = `
if KEYS[4] then
  local first = redis.call('GET', KEYS[4])
  if first then return { 0, redis.call('GET', ARGV[6] .. first), 1 } end
  redis.call('SET', KEYS[4], ARGV[3], 'EX', ARGV[7])
end
local incoming = cjson.decode(ARGV[1])
local existing = redis.call('GET', KEYS[1])
local created = 0
local record
if existing then
  record = cjson.decode(existing)
  record.firstName = incoming.firstName
  if incoming.lastName then record.lastName = incoming.lastName end
  record.updatedAt = incoming.updatedAt
  local known = false
  for _, source in ipairs(record.sources) do
    if source == ARGV[4] then known = true end
  end
  if not known then table.insert(record.sources, ARGV[4]) end
else
  record = incoming
  created = 1
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
  redis.call('HINCRBY', KEYS[3], ARGV[4], 1)
  redis.call('EXPIRE', KEYS[3], ARGV[5])
end
local encoded = cjson.encode(record)
redis.call('SET', KEYS[1], encoded)
return { created, encoded, 0 }
`;

/**
 * Appends a lead, indexed and counted, atomically. With an idempotency key (KEYS[4]) seen before,
 * nothing is written and the first lead is returned; otherwise the key is kept, holding the id.
 * KEYS: record, index, daily counts[, idempotency key]. ARGV: lead JSON, score (ms), id, source,
 * daily ttl, lead key prefix, idempotency ttl. Returns the stored lead's JSON.
 */
const LEAD_SCRIPT = `
if KEYS[4] then
  local first = redis.call('GET', KEYS[4])
  if first then return redis.call('GET', ARGV[6] .. first) end
  redis.call('SET', KEYS[4], ARGV[3], 'EX', ARGV[7])
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
redis.call('HINCRBY', KEYS[3], ARGV[4], 1)
redis.call('EXPIRE', KEYS[3], ARGV[5])
return ARGV[1]
`;

/**
 * One login attempt counted: the window starts at a client's first attempt (EXPIRE NX never
 * extends it). Returns the count and the milliseconds left in the window.
 */
const LOGIN_ATTEMPT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[1], 'NX')
return { count, redis.call('PTTL', KEYS[1]) }
`;

/** HGETALL without automatic deserialisation answers a flat [field, value, …] list. Fields are sources people sent. */
function countsOf(reply: unknown): Record<string, number> {
  const counts = countTable();
  if (Array.isArray(reply)) {
    for (let index = 0; index + 1 < reply.length; index += 2) counts[String(reply[index])] = Number(reply[index + 1]);
  } else if (reply && typeof reply === 'object') {
    for (const [field, value] of Object.entries(reply)) counts[field] = Number(value);
  }
  return counts;
}

/**
 * The dashboard's first view in one round trip: both totals, the newest page of each list with
 * its records, and the per-day counts of every day asked for.
 * KEYS: subscriber index, lead index. ARGV: offset, limit, subscriber key prefix, lead key prefix,
 * subscriber daily prefix, lead daily prefix, then the days.
 */
const DASHBOARD_SCRIPT = `
local first, last = tonumber(ARGV[1]), tonumber(ARGV[1]) + tonumber(ARGV[2]) - 1
local function records(index, prefix)
  local out = {}
  for i, member in ipairs(redis.call('ZRANGE', index, first, last, 'REV')) do
    out[i] = redis.call('GET', prefix .. member) or ''
  end
  return out
end
local subscriberDaily, leadDaily = {}, {}
for i = 7, #ARGV do
  subscriberDaily[i - 6] = redis.call('HGETALL', ARGV[5] .. ARGV[i])
  leadDaily[i - 6] = redis.call('HGETALL', ARGV[6] .. ARGV[i])
end
return { redis.call('ZCARD', KEYS[1]), redis.call('ZCARD', KEYS[2]), records(KEYS[1], ARGV[3]), records(KEYS[2], ARGV[4]), subscriberDaily, leadDaily }
`;

function dailyFrom(days: string[], rows: unknown[]): DailyCounts {
  const counts = countTable<Record<string, number>>();
  days.forEach((day, index) => {
    const row = countsOf(rows[index]);
    if (Object.keys(row).length > 0) counts[day] = row;
  });
  return counts;
}

function parseRecord<T>(value: unknown): T | undefined {
  return typeof value === 'string' ? (JSON.parse(value) as T) : undefined;
}

/** Lua's cjson writes an empty table as {}; a subscriber always has at least one source. */
function toSubscriber(encoded: string): Subscriber {
  const record = JSON.parse(encoded) as Subscriber;
  return { ...record, sources: Array.isArray(record.sources) ? record.sources : [] };
}

export interface RedisStoreOptions {
  url: string;
  token: string;
  /** Abort any request after this many milliseconds. */
  timeoutMs: number;
}

export function createUpstashClient({ url, token, timeoutMs }: RedisStoreOptions): Redis {
  return new Redis({
    url,
    token,
    automaticDeserialization: false,
    enableTelemetry: false,
    // The client retries thrown fetches for about 4 s by default and has no timeout: bound both.
    retry: { retries: 1, backoff: () => 100 },
    signal: () => AbortSignal.timeout(timeoutMs),
  });
}

export function createRedisStore(redis: Redis): Store {
  async function listByIndex<T>(
    index: string,
    keyOf: (member: string) => string,
    { offset, limit }: Page,
  ): Promise<T[]> {
    const members = await redis.zrange<string[]>(index, offset, offset + limit - 1, { rev: true });
    if (members.length === 0) return [];
    const values = await redis.mget<(string | null)[]>(...members.map(keyOf));
    return values.flatMap((value) => {
      const record = parseRecord<T>(value);
      return record ? [record] : [];
    });
  }

  return {
    async subscribe(input: SubscribeInput, now: Date, { idempotencyKey }: WriteOptions = {}): Promise<SubscribeResult> {
      const at = now.toISOString();
      const { source, ...person } = input;
      const incoming: Subscriber = { ...person, sources: [source], createdAt: at, updatedAt: at };
      const keys = [KEYS.subscriber(input.email), KEYS.subscribersByCreated, KEYS.daily('subscribers', dayOf(now))];
      if (idempotencyKey) keys.push(KEYS.idempotency(idempotencyKey));
      const [created, encoded, repeated] = (await redis.eval(SUBSCRIBE_SCRIPT, keys, [
        JSON.stringify(incoming),
        String(now.getTime()),
        input.email,
        source,
        String(DAILY_TTL_SECONDS),
        KEYS.subscriber(''),
        String(IDEMPOTENCY_TTL_SECONDS),
      ])) as [number | string, string | null, number | string];
      if (Number(repeated) === 1)
        return { subscriber: encoded ? toSubscriber(encoded) : undefined, created: false, repeated: true };
      return { subscriber: toSubscriber(encoded ?? ''), created: Number(created) === 1, repeated: false };
    },

    async createLead(input: LeadInput, now: Date, { idempotencyKey }: WriteOptions = {}) {
      const lead: Lead = { id: crypto.randomUUID(), ...input, createdAt: now.toISOString() };
      const keys = [KEYS.lead(lead.id), KEYS.leadsByCreated, KEYS.daily('leads', dayOf(now))];
      if (idempotencyKey) keys.push(KEYS.idempotency(idempotencyKey));
      const stored = await redis.eval(LEAD_SCRIPT, keys, [
        JSON.stringify(lead),
        String(now.getTime()),
        lead.id,
        lead.source,
        String(DAILY_TTL_SECONDS),
        KEYS.lead(''),
        String(IDEMPOTENCY_TTL_SECONDS),
      ]);
      // A repeat gives back the first lead as it was stored (leads are never deleted).
      return parseRecord<Lead>(stored) ?? lead;
    },

    async recordHoneypot(endpoint: string) {
      await redis.hincrby(KEYS.honeypot, endpoint, 1);
    },

    countSubscribers: () => redis.zcard(KEYS.subscribersByCreated),
    countLeads: () => redis.zcard(KEYS.leadsByCreated),
    listSubscribers: (page) => listByIndex<Subscriber>(KEYS.subscribersByCreated, KEYS.subscriber, page),
    listLeads: (page) => listByIndex<Lead>(KEYS.leadsByCreated, KEYS.lead, page),

    async getSubscriber(email: string) {
      const value = await redis.get<string>(KEYS.subscriber(email));
      return value ? toSubscriber(value) : undefined;
    },

    async dailyCounts(kind, days) {
      if (days.length === 0) return {};
      const pipeline = redis.pipeline();
      for (const day of days) pipeline.hgetall(KEYS.daily(kind, day));
      return dailyFrom(days, await pipeline.exec());
    },

    async honeypotCounts() {
      return countsOf(await redis.hgetall(KEYS.honeypot));
    },

    async dashboard(days, { offset, limit }) {
      const [subscriberTotal, leadTotal, subscribers, leads, subscriberDaily, leadDaily] = (await redis.eval(
        DASHBOARD_SCRIPT,
        [KEYS.subscribersByCreated, KEYS.leadsByCreated],
        [
          String(offset),
          String(limit),
          KEYS.subscriber(''),
          KEYS.lead(''),
          KEYS.daily('subscribers', ''),
          KEYS.daily('leads', ''),
          ...days,
        ],
      )) as [number, number, string[], string[], unknown[], unknown[]];
      return {
        subscriberTotal: Number(subscriberTotal),
        leadTotal: Number(leadTotal),
        subscribers: subscribers.filter(Boolean).map(toSubscriber),
        leads: leads.flatMap((value) => parseRecord<Lead>(value || undefined) ?? []),
        subscriberDaily: dailyFrom(days, subscriberDaily),
        leadDaily: dailyFrom(days, leadDaily),
      };
    },

    async deleteSubscriber(email: string) {
      const [deleted] = (await redis
        .multi()
        .del(KEYS.subscriber(email))
        .zrem(KEYS.subscribersByCreated, email)
        .exec()) as [number, number];
      return Number(deleted) > 0;
    },

    async createSession(sessionId: string, expiresAt: Date) {
      const seconds = Math.max(1, Math.ceil((expiresAt.getTime() - Date.now()) / 1000));
      await redis.set(KEYS.session(sessionId), expiresAt.toISOString(), { ex: seconds });
    },

    async hasSession(sessionId: string, now: Date) {
      const expiresAt = await redis.get<string>(KEYS.session(sessionId));
      return typeof expiresAt === 'string' && Date.parse(expiresAt) > now.getTime();
    },

    async deleteSession(sessionId: string) {
      await redis.del(KEYS.session(sessionId));
    },

    async countLoginAttempt(client: string, windowSeconds: number, now: Date): Promise<LoginAttempts> {
      const [count, ttl] = (await redis.eval(
        LOGIN_ATTEMPT_SCRIPT,
        [KEYS.loginAttempts(client)],
        [String(windowSeconds)],
      )) as [number, number];
      return { count: Number(count), resetAt: now.getTime() + Math.max(0, Number(ttl)) };
    },

    async clearLoginAttempts(client: string) {
      await redis.del(KEYS.loginAttempts(client));
    },
  };
}
