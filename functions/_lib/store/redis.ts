// functions/_lib/store keeps the records: the Store interface, its Redis and SQLite adapters, and getStore() with its deadlines.
/**
 * The store on Upstash Redis. Records are JSON strings (automatic deserialisation is off, so a
 * name like "1234" or "null" stays a string); every write is one atomic round trip.
 */
import { Redis } from '@upstash/redis';
import type { Lead, Subscriber } from '../../../src/shared/records';
import {
  afterAttempt,
  confirmed,
  deliveryOf,
  isHeld,
  newState,
  newSubscriber,
  released,
  revived,
  statusCounts,
  unsubscribed,
  type SubscriberChange,
} from './records';
import {
  campaignKey,
  ChallengeSpentError,
  countTable,
  dayOf,
  IDEMPOTENCY_TTL_SECONDS,
  OUTBOX_LEASE_MS,
  withStatus,
  type ClaimedEntry,
  type Completion,
  type ConfirmInput,
  type CountKind,
  type DailyCounts,
  type DashboardData,
  type LeadInput,
  type LeadWriteOptions,
  type ListedOutboxEntry,
  type LoginAttempts,
  type NewOutboxEntry,
  type OutboxMessage,
  type OutboxState,
  type Page,
  type PrunedMessage,
  type SpamOverview,
  type SpentChallenge,
  type StatusChange,
  type Store,
  type SubscribeInput,
  type SubscribeResult,
  type SubscribeWriteOptions,
} from './types';

/** Every key the store uses, in one place; the scripts take their names from here too. */
export const KEYS = {
  subscriber: (email: string) => `sub:${email}`,
  subscribersByCreated: 'subs:by_created',
  /** Subscribers by status; those in neither set are confirmed (records from before double opt-in included). */
  subscribersPending: 'subs:pending',
  subscribersUnsubscribed: 'subs:unsubscribed',
  /** When the last confirmation e-mail was queued for an address (ms), before confirmations were throttled as any entry: erased with the address. */
  confirmationSent: (email: string) => `sub:confirmation-sent:${email}`,
  lead: (id: string) => `lead:${id}`,
  leadsByCreated: 'leads:by_created',
  /** Leads held as spam, by when they arrived (ms); a released one moves to leadsByCreated. */
  leadsHeld: 'leads:held',
  daily: (kind: CountKind, day: string) => `stats:${kind}:${day}`,
  campaigns: (kind: 'leads' | 'subscribers') => `stats:campaigns:${kind}`,
  honeypot: 'stats:honeypot',
  /** Submissions refused for their proof of work, per endpoint. */
  challengeFailures: 'stats:challenge-failures',
  /** A spent proof-of-work challenge: holds when it expires (ms), and goes away then. */
  spentChallenge: (id: string) => `challenge:spent:${id}`,
  session: (id: string) => `admin:session:${id}`,
  loginAttempts: (client: string) => `admin:login-attempts:${client}`,
  /** A form submission's idempotency key (scoped per endpoint by the caller); holds what it stored. */
  idempotency: (key: string) => `idem:${key}`,
  /** An outbox entry's state (small: what the admin lists) and its message (what is sent). */
  outboxState: (id: string) => `outbox:${id}`,
  outboxMessage: (id: string) => `outbox:msg:${id}`,
  /** Entries waiting, by when they are due (a claimed entry's score is the end of its lease). */
  outboxDue: 'outbox:due',
  outboxDead: 'outbox:dead',
  outboxAll: 'outbox:all',
  /** The entries of a lead or subscriber, in order. */
  outboxOf: (ref: string) => `outbox:ref:${ref}`,
  /** Delivered entries whose message is still kept, by when they were delivered (ms). */
  outboxDelivered: 'outbox:delivered',
  /** Entry id → the token of its current claim. */
  outboxLeases: 'outbox:leases',
  /** When the last entry of a throttle key was queued (ms); it goes away after twice its interval. */
  outboxThrottle: (key: string) => `outbox:throttle:${key}`,
} as const;

/** Per-day statistics are kept for two years. */
const DAILY_TTL_SECONDS = 2 * 366 * 24 * 3600;

/**
 * Lua shared by the writes: queue(entries) writes outbox entries (a JSON list of { id, ref,
 * state, message, due, and for a throttled one throttle (its key) and interval (ms) }) beside
 * the record the script writes, so both land in one step. A throttled entry whose key was used
 * less than its interval before `due` is left out. Answers the ids written.
 */
const QUEUE_LUA = `
local function queue(encoded)
  local written = {}
  for _, entry in ipairs(cjson.decode(encoded)) do
    local write = true
    if entry.throttle then
      local last = tonumber(redis.call('GET', entry.throttle))
      if last and entry.due - last < entry.interval then
        write = false
      else
        redis.call('SET', entry.throttle, string.format('%d', entry.due), 'PX', string.format('%d', entry.interval * 2))
      end
    end
    if write then
      redis.call('SET', '${KEYS.outboxState('')}' .. entry.id, entry.state)
      redis.call('SET', '${KEYS.outboxMessage('')}' .. entry.id, entry.message)
      redis.call('ZADD', '${KEYS.outboxDue}', entry.due, entry.id)
      redis.call('ZADD', '${KEYS.outboxAll}', entry.due, entry.id)
      redis.call('RPUSH', '${KEYS.outboxOf('')}' .. entry.ref, entry.id)
      written[#written + 1] = entry.id
    end
  end
  return written
end
`;

/**
 * Lua shared by the writes that may carry a proof-of-work challenge. spent(key, now) tells whether
 * the challenge of that key ('' for none) was spent and has not expired by now (ms): the stored
 * expiry is compared with the caller's clock, so the store's `now` decides, as in the SQLite
 * store. spend(key, expires, ttl) marks it spent until then (ttl '' when it has expired already).
 */
const CHALLENGE_LUA = `
local function spent(key, now)
  if key == '' then return false end
  local expires = redis.call('GET', key)
  return expires ~= false and tonumber(expires) > tonumber(now)
end
local function spend(key, expires, ttl)
  if key ~= '' and ttl ~= '' then redis.call('SET', key, expires, 'PX', ttl) end
end
`;

/**
 * A subscription, atomically. A new address is created pending, indexed and counted; a known one
 * is left as it is. The confirmation e-mail (ARGV[8], queue()'s JSON, or '') is queued unless its
 * throttle key was used within its interval. With an idempotency key (KEYS[4]) seen before,
 * nothing changes and the record stored under the e-mail it holds is returned; otherwise a spent
 * challenge (KEYS[5]) changes nothing either, and answers spent. Both checks come before any write.
 * KEYS: record, index, daily counts, idempotency key or '', challenge key or ''.
 * ARGV: record JSON, now (ms), e-mail, source, daily ttl, subscriber key prefix, idempotency ttl,
 * confirmation, campaign key, challenge expiry (ms), its mark's ttl (ms) or ''.
 * Returns { created (0/1), record JSON or false, repeated (0/1), queued (0/1), spent (0/1) }.
 */
const SUBSCRIBE_SCRIPT = `${QUEUE_LUA}${CHALLENGE_LUA}
if KEYS[4] ~= '' then
  local first = redis.call('GET', KEYS[4])
  if first then return { 0, redis.call('GET', ARGV[6] .. first), 1, 0, 0 } end
end
if spent(KEYS[5], ARGV[2]) then return { 0, false, 0, 0, 1 } end
if KEYS[4] ~= '' then redis.call('SET', KEYS[4], ARGV[3], 'EX', ARGV[7]) end
spend(KEYS[5], ARGV[10], ARGV[11])
local record = redis.call('GET', KEYS[1])
local created = 0
if not record then
  record = ARGV[1]
  created = 1
  redis.call('SET', KEYS[1], record)
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
  redis.call('ZADD', '${KEYS.subscribersPending}', ARGV[2], ARGV[3])
  redis.call('HINCRBY', KEYS[3], ARGV[4], 1)
  redis.call('EXPIRE', KEYS[3], ARGV[5])
  redis.call('HINCRBY', '${KEYS.campaigns('subscribers')}', ARGV[9], 1)
end
local queued = 0
if ARGV[8] ~= '' and #queue(ARGV[8]) > 0 then queued = 1 end
return { created, record, 0, queued, 0 }
`;

/**
 * A subscriber's change of status, as a compare-and-set: the record is replaced only if it still
 * is what the caller read (else 0, and the caller reads again). The status sets follow the new
 * status; a confirmation is counted for its day and its outbox entries are queued.
 * KEYS: record. ARGV: record as read, new record, e-mail, new status, created (ms), confirmations
 * daily key or '', source, daily ttl, entries JSON or ''.
 */
const CHANGE_STATUS_SCRIPT = `${QUEUE_LUA}
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('ZREM', '${KEYS.subscribersPending}', ARGV[3])
redis.call('ZREM', '${KEYS.subscribersUnsubscribed}', ARGV[3])
if ARGV[4] == 'pending' then redis.call('ZADD', '${KEYS.subscribersPending}', ARGV[5], ARGV[3]) end
if ARGV[4] == 'unsubscribed' then redis.call('ZADD', '${KEYS.subscribersUnsubscribed}', ARGV[5], ARGV[3]) end
if ARGV[6] ~= '' then
  redis.call('HINCRBY', ARGV[6], ARGV[7], 1)
  redis.call('EXPIRE', ARGV[6], ARGV[8])
end
if ARGV[9] ~= '' then queue(ARGV[9]) end
return 1
`;

/**
 * Appends a lead with its outbox entries, indexed and counted, atomically; a held spam lead
 * (ARGV[10] = 1) is only kept and indexed among the held ones (KEYS[2]), not counted. With an
 * idempotency key (KEYS[4]) seen before, nothing is written and the first lead is returned;
 * otherwise a spent challenge (KEYS[5]) writes nothing and answers spent; otherwise the key is
 * kept, holding the id, and the challenge marked spent.
 * KEYS: record, index (the leads', or the held ones'), daily counts, idempotency key or '',
 * challenge key or ''. ARGV: lead JSON, score (ms), id, source, daily ttl, lead key prefix,
 * idempotency ttl, entries JSON or '', campaign key, held (1/0), challenge expiry (ms), its
 * mark's ttl (ms) or ''. Returns { 1, the stored (or first) lead's JSON } or { 0 } when spent.
 */
const LEAD_SCRIPT = `${QUEUE_LUA}${CHALLENGE_LUA}
if KEYS[4] ~= '' then
  local first = redis.call('GET', KEYS[4])
  if first then return { 1, redis.call('GET', ARGV[6] .. first) } end
end
if spent(KEYS[5], ARGV[2]) then return { 0 } end
if KEYS[4] ~= '' then redis.call('SET', KEYS[4], ARGV[3], 'EX', ARGV[7]) end
spend(KEYS[5], ARGV[11], ARGV[12])
redis.call('SET', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
if ARGV[10] == '0' then
  redis.call('HINCRBY', KEYS[3], ARGV[4], 1)
  redis.call('EXPIRE', KEYS[3], ARGV[5])
  redis.call('HINCRBY', '${KEYS.campaigns('leads')}', ARGV[9], 1)
  if ARGV[8] ~= '' then queue(ARGV[8]) end
end
return { 1, ARGV[1] }
`;

/**
 * "Not spam", as a compare-and-set on the held lead's record: it is replaced only if it still is
 * what the caller read and the lead is still held (else 0, and the caller reads again). The lead
 * moves from the held index to the leads' under its original score, is counted under its original
 * day, source and campaign, and its outbox entries are queued.
 * KEYS: record, held index, leads index, daily counts of its day. ARGV: record as read, released
 * record, id, score (ms), source, daily ttl, entries JSON or '', campaign key. Returns { 1, ids
 * of the entries written } or { 0 }.
 */
const RELEASE_SCRIPT = `${QUEUE_LUA}
if redis.call('GET', KEYS[1]) ~= ARGV[1] or not redis.call('ZSCORE', KEYS[2], ARGV[3]) then return { 0 } end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[3])
redis.call('HINCRBY', KEYS[4], ARGV[5], 1)
redis.call('EXPIRE', KEYS[4], ARGV[6])
redis.call('HINCRBY', '${KEYS.campaigns('leads')}', ARGV[8], 1)
local written = {}
if ARGV[7] ~= '' then written = queue(ARGV[7]) end
return { 1, written }
`;

/**
 * The Spam section in one round trip: how many leads are held, one page of them (newest first),
 * and the honeypot's and the proof of work's refusals. ARGV: first, last (ranks).
 */
const SPAM_SCRIPT = `
local leads = {}
for i, id in ipairs(redis.call('ZRANGE', '${KEYS.leadsHeld}', ARGV[1], ARGV[2], 'REV')) do
  leads[i] = redis.call('GET', '${KEYS.lead('')}' .. id) or ''
end
return {
  redis.call('ZCARD', '${KEYS.leadsHeld}'),
  leads,
  redis.call('HGETALL', '${KEYS.honeypot}'),
  redis.call('HGETALL', '${KEYS.challengeFailures}')
}
`;

/**
 * Claims due outbox entries: each due one (score <= now) gets the end of its lease as its score
 * and the claim's token, so no other claim sees it until the lease ends. ARGV: now (ms), limit,
 * lease (ms), token, ids JSON or '' (then the earliest due). Returns [id, state, message, …].
 */
const CLAIM_SCRIPT = `
local now, limit, lease, token = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local candidates
if ARGV[5] ~= '' then
  candidates = cjson.decode(ARGV[5])
else
  candidates = redis.call('ZRANGEBYSCORE', '${KEYS.outboxDue}', '-inf', now, 'LIMIT', 0, limit)
end
local out, claimed = {}, 0
for _, id in ipairs(candidates) do
  if claimed >= limit then break end
  local due = redis.call('ZSCORE', '${KEYS.outboxDue}', id)
  if due and tonumber(due) <= now then
    redis.call('ZADD', '${KEYS.outboxDue}', now + lease, id)
    redis.call('HSET', '${KEYS.outboxLeases}', id, token)
    claimed = claimed + 1
    out[#out + 1] = id
    out[#out + 1] = redis.call('GET', '${KEYS.outboxState('')}' .. id) or ''
    out[#out + 1] = redis.call('GET', '${KEYS.outboxMessage('')}' .. id) or ''
  end
end
return out
`;

/**
 * Attempts' outcomes, each only if its claim still holds: the new state, and the entry back in
 * line (retry), out of it (delivered, indexed by when) or among the dead. ARGV: groups of six (id,
 * token, state, retry|delivered|dead, next attempt (or delivery) in ms, created in ms). Returns
 * how many were recorded.
 */
const COMPLETE_SCRIPT = `
local recorded = 0
for i = 1, #ARGV, 6 do
  local id = ARGV[i]
  if redis.call('HGET', '${KEYS.outboxLeases}', id) == ARGV[i + 1] then
    redis.call('HDEL', '${KEYS.outboxLeases}', id)
    redis.call('SET', '${KEYS.outboxState('')}' .. id, ARGV[i + 2])
    if ARGV[i + 3] == 'retry' then
      redis.call('ZADD', '${KEYS.outboxDue}', ARGV[i + 4], id)
    else
      redis.call('ZREM', '${KEYS.outboxDue}', id)
      if ARGV[i + 3] == 'dead' then redis.call('ZADD', '${KEYS.outboxDead}', ARGV[i + 5], id) end
      if ARGV[i + 3] == 'delivered' then redis.call('ZADD', '${KEYS.outboxDelivered}', ARGV[i + 4], id) end
    end
    recorded = recorded + 1
  end
end
return recorded
`;

/**
 * The texts of entries delivered before ARGV[1] (ms), at most ARGV[2] of them, oldest first: each
 * message becomes its title alone (PrunedMessage). Returns how many.
 */
const PRUNE_SCRIPT = `
local ids = redis.call('ZRANGEBYSCORE', '${KEYS.outboxDelivered}', '-inf', '(' .. ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, id in ipairs(ids) do
  local key = '${KEYS.outboxMessage('')}' .. id
  local message = redis.call('GET', key)
  if message then
    local decoded = cjson.decode(message)
    redis.call('SET', key, cjson.encode({ pruned = true, title = decoded.subject or decoded.type or '' }))
  end
  redis.call('ZREM', '${KEYS.outboxDelivered}', id)
end
return #ids
`;

/** A dead entry back in line, due now. ARGV: id, state, now (ms). Returns 0 when it is not dead. */
const RETRY_SCRIPT = `
if not redis.call('ZSCORE', '${KEYS.outboxDead}', ARGV[1]) then return 0 end
redis.call('ZREM', '${KEYS.outboxDead}', ARGV[1])
redis.call('SET', '${KEYS.outboxState('')}' .. ARGV[1], ARGV[2])
redis.call('ZADD', '${KEYS.outboxDue}', ARGV[3], ARGV[1])
return 1
`;

/** Lua: forget(ref) deletes the outbox entries of a lead or subscriber, whatever their state. */
const FORGET_OUTBOX_LUA = `
local function forget(ref)
  for _, id in ipairs(redis.call('LRANGE', '${KEYS.outboxOf('')}' .. ref, 0, -1)) do
    redis.call('DEL', '${KEYS.outboxState('')}' .. id, '${KEYS.outboxMessage('')}' .. id)
    redis.call('ZREM', '${KEYS.outboxDue}', id)
    redis.call('ZREM', '${KEYS.outboxDead}', id)
    redis.call('ZREM', '${KEYS.outboxDelivered}', id)
    redis.call('ZREM', '${KEYS.outboxAll}', id)
    redis.call('HDEL', '${KEYS.outboxLeases}', id)
  end
  redis.call('DEL', '${KEYS.outboxOf('')}' .. ref)
end
`;

/**
 * An erasure: the subscriber, its places in the indexes, and its outbox entries (their e-mails
 * hold the address). ARGV: e-mail. Returns 1 when there was a subscriber.
 */
const ERASE_SCRIPT = `${FORGET_OUTBOX_LUA}
local email = ARGV[1]
local existed = redis.call('DEL', '${KEYS.subscriber('')}' .. email)
redis.call('ZREM', '${KEYS.subscribersByCreated}', email)
redis.call('ZREM', '${KEYS.subscribersPending}', email)
redis.call('ZREM', '${KEYS.subscribersUnsubscribed}', email)
redis.call('DEL', '${KEYS.confirmationSent('')}' .. email)
forget(email)
return existed
`;

/**
 * Erases a lead as read (a compare-and-set: 0 when it changed meanwhile, and the caller reads
 * again) with its outbox entries. A counted lead (not held) is taken off its day's and its
 * campaign's counts, as the embedded store, which counts rows, does.
 * KEYS: record, daily counts of its day. ARGV: record as read, id, source, campaign key.
 */
const ERASE_LEAD_SCRIPT = `${FORGET_OUTBOX_LUA}
local function uncount(key, field)
  local count = tonumber(redis.call('HGET', key, field) or '0')
  if count > 1 then redis.call('HINCRBY', key, field, -1) elseif count == 1 then redis.call('HDEL', key, field) end
end
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
if redis.call('ZREM', '${KEYS.leadsByCreated}', ARGV[2]) == 1 then
  uncount(KEYS[2], ARGV[3])
  uncount('${KEYS.campaigns('leads')}', ARGV[4])
end
redis.call('ZREM', '${KEYS.leadsHeld}', ARGV[2])
forget(ARGV[2])
return 1
`;

/** Leads with the states of their outbox entries: [lead JSON, {state JSON, …}, …]. */
const LEADS_LUA = `
local function leadsOf(ids)
  local out = {}
  for _, id in ipairs(ids) do
    local states = {}
    for i, entry in ipairs(redis.call('LRANGE', '${KEYS.outboxOf('')}' .. id, 0, -1)) do
      states[i] = redis.call('GET', '${KEYS.outboxState('')}' .. entry) or ''
    end
    out[#out + 1] = redis.call('GET', '${KEYS.lead('')}' .. id) or ''
    out[#out + 1] = states
  end
  return out
end
`;

/** One page of leads, newest first, with their deliveries. ARGV: first, last (ranks). */
const LIST_LEADS_SCRIPT = `${LEADS_LUA}
return leadsOf(redis.call('ZRANGE', '${KEYS.leadsByCreated}', ARGV[1], ARGV[2], 'REV'))
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
 * The dashboard's first view in one round trip: totals and status counts, the newest page of each
 * list (leads with their deliveries), the per-day counts of every day asked for, the outbox's
 * waiting and dead entries and the campaign counts. ARGV: offset, limit, then the days.
 */
const DASHBOARD_SCRIPT = `${LEADS_LUA}
local first, last = tonumber(ARGV[1]), tonumber(ARGV[1]) + tonumber(ARGV[2]) - 1
local subscribers = {}
for i, member in ipairs(redis.call('ZRANGE', '${KEYS.subscribersByCreated}', first, last, 'REV')) do
  subscribers[i] = redis.call('GET', '${KEYS.subscriber('')}' .. member) or ''
end
local subscriberDaily, confirmationDaily, leadDaily = {}, {}, {}
for i = 3, #ARGV do
  subscriberDaily[i - 2] = redis.call('HGETALL', '${KEYS.daily('subscribers', '')}' .. ARGV[i])
  confirmationDaily[i - 2] = redis.call('HGETALL', '${KEYS.daily('confirmations', '')}' .. ARGV[i])
  leadDaily[i - 2] = redis.call('HGETALL', '${KEYS.daily('leads', '')}' .. ARGV[i])
end
return {
  redis.call('ZCARD', '${KEYS.subscribersByCreated}'),
  redis.call('ZCARD', '${KEYS.subscribersPending}'),
  redis.call('ZCARD', '${KEYS.subscribersUnsubscribed}'),
  redis.call('ZCARD', '${KEYS.leadsByCreated}'),
  subscribers,
  leadsOf(redis.call('ZRANGE', '${KEYS.leadsByCreated}', first, last, 'REV')),
  subscriberDaily, confirmationDaily, leadDaily,
  redis.call('ZCARD', '${KEYS.outboxDue}'),
  redis.call('ZCARD', '${KEYS.outboxDead}'),
  redis.call('HGETALL', '${KEYS.campaigns('leads')}'),
  redis.call('HGETALL', '${KEYS.campaigns('subscribers')}'),
  redis.call('ZCARD', '${KEYS.leadsHeld}')
}
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
  return typeof value === 'string' && value !== '' ? (JSON.parse(value) as T) : undefined;
}

/** Lua's cjson writes an empty table as {}; a subscriber always has at least one source. */
function toSubscriber(encoded: string): Subscriber {
  const record = JSON.parse(encoded) as Subscriber;
  return withStatus({ ...record, sources: Array.isArray(record.sources) ? record.sources : [] });
}

/** queue()'s JSON for new entries. */
function queued(entries: NewOutboxEntry[], now: Date): string {
  if (entries.length === 0) return '';
  return JSON.stringify(
    entries.map((entry) => ({
      id: entry.id,
      ref: entry.ref,
      state: JSON.stringify(newState(entry, now)),
      message: JSON.stringify(entry.message),
      due: now.getTime(),
      ...(entry.throttle
        ? { throttle: KEYS.outboxThrottle(entry.throttle.key), interval: entry.throttle.seconds * 1000 }
        : {}),
    })),
  );
}

/**
 * The challenge's part of a write: its key ('' without one) and the ARGV pair spend() takes, the
 * expiry and how long the mark is kept from `now` ('' when the challenge has expired already).
 */
function challengeArgs(challenge: SpentChallenge | undefined, now: Date): { key: string; args: [string, string] } {
  if (!challenge) return { key: '', args: ['', ''] };
  const expires = challenge.expiresAt.getTime();
  const ttl = expires - now.getTime();
  return { key: KEYS.spentChallenge(challenge.id), args: [String(expires), ttl > 0 ? String(ttl) : ''] };
}

/** A lead with the states of its entries, from [lead JSON, [state JSON…]] pairs. */
function leadsFrom(reply: unknown[]): Lead[] {
  const leads: Lead[] = [];
  for (let index = 0; index + 1 < reply.length; index += 2) {
    const lead = parseRecord<Lead>(reply[index]);
    if (!lead) continue;
    const states = Array.isArray(reply[index + 1]) ? (reply[index + 1] as unknown[]) : [];
    lead.delivery = states.flatMap((state) => {
      const parsed = parseRecord<OutboxState>(state);
      return parsed ? [deliveryOf(parsed)] : [];
    });
    leads.push(lead);
  }
  return leads;
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
  async function listByIndex(
    index: string,
    keyOf: (member: string) => string,
    { offset, limit }: Page,
  ): Promise<string[]> {
    const members = await redis.zrange<string[]>(index, offset, offset + limit - 1, { rev: true });
    if (members.length === 0) return [];
    const values = await redis.mget<(string | null)[]>(...members.map(keyOf));
    return values.filter((value): value is string => typeof value === 'string');
  }

  /** A status change as a compare-and-set on the record, tried again if another write came between. */
  async function changeStatus(
    email: string,
    now: Date,
    change: (subscriber: Subscriber) => SubscriberChange,
  ): Promise<StatusChange | undefined> {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const current = await redis.get<string>(KEYS.subscriber(email));
      if (typeof current !== 'string') return undefined;
      const { next, changed, confirmedNow, entries, refused } = change(toSubscriber(current));
      if (!changed) return { subscriber: next, changed, ...(refused ? { refused } : {}) };
      const applied = await redis.eval(
        CHANGE_STATUS_SCRIPT,
        [KEYS.subscriber(email)],
        [
          current,
          JSON.stringify(next),
          email,
          next.status,
          String(Date.parse(next.createdAt) || now.getTime()),
          confirmedNow ? KEYS.daily('confirmations', dayOf(now)) : '',
          next.sources[0] ?? '',
          String(DAILY_TTL_SECONDS),
          queued(entries, now),
        ],
      );
      if (Number(applied) === 1) return { subscriber: next, changed };
    }
    throw new Error('the subscriber kept changing during a status change');
  }

  return {
    async subscribe(
      input: SubscribeInput,
      now: Date,
      { idempotencyKey, confirmation, challenge }: SubscribeWriteOptions = {},
    ): Promise<SubscribeResult> {
      const incoming = newSubscriber(input, now);
      const spending = challengeArgs(challenge, now);
      const keys = [
        KEYS.subscriber(input.email),
        KEYS.subscribersByCreated,
        KEYS.daily('subscribers', dayOf(now)),
        idempotencyKey ? KEYS.idempotency(idempotencyKey) : '',
        spending.key,
      ];
      const [created, encoded, repeated, queuedNow, spent] = (await redis.eval(SUBSCRIBE_SCRIPT, keys, [
        JSON.stringify(incoming),
        String(now.getTime()),
        input.email,
        input.source,
        String(DAILY_TTL_SECONDS),
        KEYS.subscriber(''),
        String(IDEMPOTENCY_TTL_SECONDS),
        confirmation ? queued([confirmation], now) : '',
        campaignKey(input.attribution),
        ...spending.args,
      ])) as [number | string, string | null, number | string, number | string, number | string];
      if (Number(spent) === 1) throw new ChallengeSpentError();
      if (Number(repeated) === 1)
        return {
          subscriber: encoded ? toSubscriber(encoded) : undefined,
          created: false,
          repeated: true,
          confirmationQueued: false,
        };
      return {
        subscriber: toSubscriber(encoded ?? ''),
        created: Number(created) === 1,
        repeated: false,
        confirmationQueued: Number(queuedNow) === 1,
      };
    },

    confirmSubscriber: (input: ConfirmInput, now: Date, outbox = () => []) =>
      changeStatus(input.email, now, (subscriber) => confirmed(subscriber, input, now, outbox)),

    unsubscribe: (email: string, now: Date) => changeStatus(email, now, (subscriber) => unsubscribed(subscriber, now)),

    async createLead(input: LeadInput, now: Date, { idempotencyKey, outbox, challenge }: LeadWriteOptions = {}) {
      const lead: Lead = { id: crypto.randomUUID(), ...input, createdAt: now.toISOString() };
      const held = isHeld(lead);
      const spending = challengeArgs(challenge, now);
      const keys = [
        KEYS.lead(lead.id),
        held ? KEYS.leadsHeld : KEYS.leadsByCreated,
        KEYS.daily('leads', dayOf(now)),
        idempotencyKey ? KEYS.idempotency(idempotencyKey) : '',
        spending.key,
      ];
      const [stored, encoded] = (await redis.eval(LEAD_SCRIPT, keys, [
        JSON.stringify(lead),
        String(now.getTime()),
        lead.id,
        lead.source,
        String(DAILY_TTL_SECONDS),
        KEYS.lead(''),
        String(IDEMPOTENCY_TTL_SECONDS),
        // A held lead queues nothing: its e-mails and webhook wait for the owner's "Not spam".
        held ? '' : queued(outbox?.(lead) ?? [], now),
        campaignKey(lead.attribution),
        held ? '1' : '0',
        ...spending.args,
      ])) as [number | string, string | null | undefined];
      if (Number(stored) === 0) throw new ChallengeSpentError();
      // A repeat gives back the first lead as it was stored, or, when the owner has erased it
      // since, the lead that was not stored again.
      return parseRecord<Lead>(encoded) ?? lead;
    },

    async releaseSpam(id: string, now: Date, outbox: (lead: Lead) => NewOutboxEntry[]) {
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const current = await redis.get<string>(KEYS.lead(id));
        const lead = parseRecord<Lead>(current);
        if (typeof current !== 'string' || !lead || !isHeld(lead)) return undefined;
        const next = released(lead, now);
        const entries = outbox(next);
        const [applied, written] = (await redis.eval(
          RELEASE_SCRIPT,
          [KEYS.lead(id), KEYS.leadsHeld, KEYS.leadsByCreated, KEYS.daily('leads', dayOf(new Date(lead.createdAt)))],
          [
            current,
            JSON.stringify(next),
            id,
            String(Date.parse(lead.createdAt)),
            lead.source,
            String(DAILY_TTL_SECONDS),
            queued(entries, now),
            campaignKey(lead.attribution),
          ],
        )) as [number | string, unknown];
        // Its entries are the ones just queued: their states need no second read.
        if (Number(applied) === 1) {
          const ids = new Set(Array.isArray(written) ? written.map(String) : []);
          const delivery = entries
            .filter((entry) => ids.has(entry.id))
            .map((entry) => deliveryOf(newState(entry, now)));
          return { ...next, delivery };
        }
      }
      throw new Error('the lead kept changing during its release');
    },

    async spamOverview({ offset, limit }: Page): Promise<SpamOverview> {
      const [held, leads, honeypot, challengeFailures] = (await redis.eval(
        SPAM_SCRIPT,
        [],
        [String(offset), String(offset + limit - 1)],
      )) as [number, unknown[], unknown, unknown];
      return {
        held: Number(held),
        leads: leads.flatMap((encoded) => parseRecord<Lead>(encoded) ?? []),
        honeypot: countsOf(honeypot),
        challengeFailures: countsOf(challengeFailures),
      };
    },

    async recordChallengeFailure(endpoint: string) {
      await redis.hincrby(KEYS.challengeFailures, endpoint, 1);
    },

    async claimOutbox(now: Date, limit: number, ids?: string[]) {
      const token = crypto.randomUUID();
      const reply = (await redis.eval(
        CLAIM_SCRIPT,
        [],
        [String(now.getTime()), String(limit), String(OUTBOX_LEASE_MS), token, ids ? JSON.stringify(ids) : ''],
      )) as string[];
      const claimed: ClaimedEntry[] = [];
      for (let index = 0; index + 2 < reply.length; index += 3) {
        const state = parseRecord<OutboxState>(reply[index + 1]);
        const message = parseRecord<OutboxMessage>(reply[index + 2]);
        if (state && message) claimed.push({ entry: { ...state, message }, lease: token });
      }
      return claimed;
    },

    async completeOutbox(completions: Completion[], now: Date) {
      if (completions.length === 0) return 0;
      const args = completions.flatMap(({ claimed: { entry, lease }, outcome }) => {
        const { message: _message, ...state } = entry;
        const next = afterAttempt(state, outcome, now);
        return [
          entry.id,
          lease,
          JSON.stringify(next),
          next.status === 'pending' ? 'retry' : next.status,
          String(Date.parse(next.nextAttemptAt ?? '') || now.getTime()),
          String(Date.parse(entry.createdAt)),
        ];
      });
      return Number(await redis.eval(COMPLETE_SCRIPT, [], args));
    },

    async retryOutbox(id: string, now: Date) {
      const state = parseRecord<OutboxState>(await redis.get<string>(KEYS.outboxState(id)));
      if (!state || state.status !== 'dead') return false;
      const next = revived(state, now);
      const applied = await redis.eval(RETRY_SCRIPT, [], [id, JSON.stringify(next), String(now.getTime())]);
      return Number(applied) === 1;
    },

    async listOutbox({ offset, limit }: Page) {
      const ids = await redis.zrange<string[]>(KEYS.outboxAll, offset, offset + limit - 1, { rev: true });
      if (ids.length === 0) return [];
      const values = await redis.mget<(string | null)[]>(
        ...ids.flatMap((id) => [KEYS.outboxState(id), KEYS.outboxMessage(id)]),
      );
      const entries: ListedOutboxEntry[] = [];
      for (let index = 0; index + 1 < values.length; index += 2) {
        const state = parseRecord<OutboxState>(values[index]);
        const message = parseRecord<OutboxMessage | PrunedMessage>(values[index + 1]);
        if (state && message) entries.push({ ...state, message });
      }
      return entries;
    },

    async pruneOutbox(before: Date, limit: number) {
      return Number(await redis.eval(PRUNE_SCRIPT, [], [String(before.getTime()), String(limit)]));
    },

    async countOutbox() {
      const [total, pending, dead] = (await redis
        .multi()
        .zcard(KEYS.outboxAll)
        .zcard(KEYS.outboxDue)
        .zcard(KEYS.outboxDead)
        .exec()) as [number, number, number];
      return { total: Number(total), pending: Number(pending), dead: Number(dead) };
    },

    async subscriberStatusCounts() {
      const [all, pending, unsubscribed] = (await redis
        .multi()
        .zcard(KEYS.subscribersByCreated)
        .zcard(KEYS.subscribersPending)
        .zcard(KEYS.subscribersUnsubscribed)
        .exec()) as [number, number, number];
      return statusCounts(Number(all), Number(pending), Number(unsubscribed));
    },

    async recordHoneypot(endpoint: string) {
      await redis.hincrby(KEYS.honeypot, endpoint, 1);
    },

    countSubscribers: () => redis.zcard(KEYS.subscribersByCreated),
    countLeads: () => redis.zcard(KEYS.leadsByCreated),
    listSubscribers: async (page) =>
      (await listByIndex(KEYS.subscribersByCreated, KEYS.subscriber, page)).map(toSubscriber),
    async listLeads({ offset, limit }) {
      const reply = (await redis.eval(
        LIST_LEADS_SCRIPT,
        [],
        [String(offset), String(offset + limit - 1)],
      )) as unknown[];
      return leadsFrom(reply);
    },

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

    async dashboard(days, { offset, limit }): Promise<DashboardData> {
      const [
        subscriberTotal,
        pending,
        unsubscribed,
        leadTotal,
        subscribers,
        leads,
        subscriberDaily,
        confirmationDaily,
        leadDaily,
        outboxPending,
        outboxDead,
        leadCampaigns,
        subscriberCampaigns,
        spamHeld,
      ] = (await redis.eval(DASHBOARD_SCRIPT, [], [String(offset), String(limit), ...days])) as [
        number,
        number,
        number,
        number,
        string[],
        unknown[],
        unknown[],
        unknown[],
        unknown[],
        number,
        number,
        unknown,
        unknown,
        number,
      ];
      return {
        subscriberTotal: Number(subscriberTotal),
        subscriberStatus: statusCounts(Number(subscriberTotal), Number(pending), Number(unsubscribed)),
        leadTotal: Number(leadTotal),
        subscribers: subscribers.filter(Boolean).map(toSubscriber),
        leads: leadsFrom(leads),
        subscriberDaily: dailyFrom(days, subscriberDaily),
        confirmationDaily: dailyFrom(days, confirmationDaily),
        leadDaily: dailyFrom(days, leadDaily),
        outbox: { pending: Number(outboxPending), dead: Number(outboxDead) },
        campaignCounts: { leads: countsOf(leadCampaigns), subscribers: countsOf(subscriberCampaigns) },
        spamHeld: Number(spamHeld),
      };
    },

    async deleteSubscriber(email: string) {
      return Number(await redis.eval(ERASE_SCRIPT, [], [email])) > 0;
    },

    async deleteLead(id: string) {
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const current = await redis.get<string>(KEYS.lead(id));
        const lead = parseRecord<Lead>(current);
        if (typeof current !== 'string' || !lead) return false;
        const erased = await redis.eval(
          ERASE_LEAD_SCRIPT,
          [KEYS.lead(id), KEYS.daily('leads', dayOf(new Date(lead.createdAt)))],
          [current, id, lead.source, campaignKey(lead.attribution)],
        );
        if (Number(erased) === 1) return true;
      }
      throw new Error('the lead kept changing during its erasure');
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
