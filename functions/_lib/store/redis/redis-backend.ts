// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/**
 * The backend on Upstash Redis: values are strings (automatic deserialisation is off, so a name
 * like "1234" or "null" stays a string), indexes sorted sets, lists lists, counters hashes. A
 * commit is one generic script, so it is one atomic round trip; it knows no rule of the site.
 */
import { Redis } from '@upstash/redis';
import { countTable } from '../counting';
import { errorsKey, type Backend, type Check, type CommitOutcome, type Write } from '../backend-contract';

/**
 * The commit. Its argument, one JSON array: the checks ([key, value or false when absent] or
 * [key, false, a list's length]) and the writes ([op, key, …] as encoded below). Every check is
 * read first; if one no longer holds it answers { 0, the checked values as they are now },
 * having written nothing; otherwise it applies every write and answers { 1 }.
 */
const COMMIT_LUA = `
local input = cjson.decode(ARGV[1])
local current, holds = {}, true
for _, check in ipairs(input[1]) do
  if check[3] then
    if redis.call('LLEN', check[1]) ~= tonumber(check[3]) then holds = false end
  else
    local value = redis.call('GET', check[1])
    current[#current + 1] = value
    if value ~= check[2] then holds = false end
  end
end
if not holds then return { 0, current } end
-- The 'bounded' write (backend-contract.ts): Space-Saving, the new field taking the place of the
-- one of lowest rank once the table is full. The full table is read only then: a field already
-- there costs what it did before the table kept its most frequent fields.
local function bounded(w)
  local key, field, cap, other, ttl, errorsKey, member = w[2], w[3], tonumber(w[4]), w[5], w[6], w[7], w[8]
  if field ~= other and redis.call('HEXISTS', key, field) == 0
    and redis.call('HLEN', key) - redis.call('HEXISTS', key, other) >= cap then
    local errors, counts = {}, redis.call('HGETALL', key)
    local stored = redis.call('HGETALL', errorsKey)
    for i = 1, #stored, 2 do errors[stored[i]] = tonumber(stored[i + 1]) end
    local victim, rank, inherited
    for i = 1, #counts, 2 do
      if counts[i] ~= other then
        local e = errors[counts[i]] or 0
        local r = tonumber(counts[i + 1]) + e
        if not victim or r < rank or (r == rank and e > inherited) then victim, rank, inherited = counts[i], r, e end
      end
    end
    if not victim then
      field = other
    else
      redis.call('HDEL', key, victim)
      redis.call('HDEL', errorsKey, victim)
      redis.call('HINCRBY', key, other, rank - inherited)
      if member then
        local from, into = key .. '|' .. victim, key .. '|' .. other
        redis.call('PFMERGE', into, from)
        redis.call('EXPIRE', into, ttl, 'NX')
        redis.call('DEL', from)
      end
      redis.call('HSET', errorsKey, field, rank)
      redis.call('EXPIRE', errorsKey, ttl, 'NX')
    end
  end
  if redis.call('HINCRBY', key, field, 1) == 1 then redis.call('EXPIRE', key, ttl) end
  if member then
    local set = key .. '|' .. field
    if redis.call('PFADD', set, member) == 1 then redis.call('EXPIRE', set, ttl) end
  end
end

local apply
apply = function(w)
  local op, key = w[1], w[2]
  if op == 'put' then
    if w[4] then redis.call('SET', key, w[3], 'PX', w[4]) else redis.call('SET', key, w[3]) end
  elseif op == 'del' then redis.call('DEL', key)
  elseif op == 'index' then redis.call('ZADD', key, w[4], w[3])
  elseif op == 'unindex' then redis.call('ZREM', key, w[3])
  elseif op == 'append' then redis.call('RPUSH', key, w[3])
  elseif op == 'count' then
    if redis.call('HINCRBY', key, w[3], w[4]) <= 0 then redis.call('HDEL', key, w[3]) end
  elseif op == 'distinct' then
    -- A set's time to live is set when it is made (PFADD answers 1 for a new key): an EXPIRE at
    -- every view would double what a view costs, and Upstash bills each command.
    if redis.call('PFADD', key, w[3]) == 1 then redis.call('EXPIRE', key, w[4]) end
  elseif op == 'bounded' then bounded(w)
  elseif op == 'limited' then
    local count = redis.call('INCR', key)
    if count == 1 then redis.call('PEXPIRE', key, w[4]) end
    for _, inner in ipairs(count <= tonumber(w[3]) and w[5] or w[6]) do apply(inner) end
  elseif op == 'mark' then
    local live = redis.call('SET', key, '1', 'PX', w[3], 'GET')
    -- The other mark is read only when this one is absent: a visit that goes on costs nothing more.
    if not live and w[6] then live = redis.call('GET', w[6]) end
    for _, inner in ipairs(live and w[5] or w[4]) do apply(inner) end
  end
end
for _, w in ipairs(input[2]) do apply(w) end
return { 1 }
`;

/** One more in a window that starts at the first (PEXPIRE NX never extends it). Argument: [key, window ms]. */
const TALLY_LUA = `
local input = cjson.decode(ARGV[1])
local count = redis.call('INCR', input[1])
redis.call('PEXPIRE', input[1], input[2], 'NX')
return { count, redis.call('PTTL', input[1]) }
`;

/** A write as the commit script reads it; numbers go as strings, which Redis parses exactly. */
type Encoded = (string | Encoded[])[];
function encoded(write: Write): Encoded {
  switch (write.op) {
    case 'put':
      return ['put', write.key, write.value, ...(write.ttlMs ? [String(Math.max(1, Math.ceil(write.ttlMs)))] : [])];
    case 'del':
      return ['del', write.key];
    case 'index':
      return ['index', write.key, write.member, String(write.score)];
    case 'unindex':
      return ['unindex', write.key, write.member];
    case 'append':
      return ['append', write.key, write.member];
    case 'count':
      return ['count', write.key, write.field, String(write.by)];
    case 'distinct':
      return ['distinct', write.key, write.member, String(write.ttlSeconds)];
    case 'bounded':
      return [
        'bounded',
        write.key,
        write.field,
        String(write.cap),
        write.other,
        String(write.ttlSeconds),
        errorsKey(write.key),
        ...(write.member === undefined ? [] : [write.member]),
      ];
    case 'mark':
      return [
        'mark',
        write.key,
        String(Math.max(1, Math.ceil(write.ttlMs))),
        write.then.map(encoded),
        (write.otherwise ?? []).map(encoded),
        ...(write.from === undefined ? [] : [write.from]),
      ];
    case 'limited':
      return [
        'limited',
        write.key,
        String(write.max),
        String(write.windowMs),
        write.then.map(encoded),
        (write.otherwise ?? []).map(encoded),
      ];
  }
}

function encodedCheck(check: Check): (string | false)[] {
  return 'length' in check ? [check.key, false, String(check.length)] : [check.key, check.value ?? false];
}

/** A hash read without automatic deserialisation: an object, or a flat [field, value, …] list. */
function countsOf(reply: unknown): Record<string, number> {
  const counts = countTable();
  if (Array.isArray(reply)) {
    for (let index = 0; index + 1 < reply.length; index += 2) counts[String(reply[index])] = Number(reply[index + 1]);
  } else if (reply && typeof reply === 'object') {
    for (const [field, value] of Object.entries(reply)) counts[field] = Number(value);
  }
  return counts;
}

export function redisBackend(redis: Redis): Backend {
  const commitScript = redis.createScript<[number | string, unknown?]>(COMMIT_LUA);
  const tallyScript = redis.createScript<[number | string, number | string]>(TALLY_LUA);
  return {
    kind: 'upstash',

    async get(keys) {
      if (keys.length === 0) return [];
      return (await redis.mget<(string | null)[]>(...keys)).map((value) => (typeof value === 'string' ? value : null));
    },

    async commit(checks, writes): Promise<CommitOutcome> {
      const [applied, current] = await commitScript.exec(
        [],
        [JSON.stringify([checks.map(encodedCheck), writes.map(encoded)])],
      );
      if (Number(applied) === 1) return { ok: true };
      const values = Array.isArray(current) ? current : [];
      return { ok: false, values: values.map((value) => (typeof value === 'string' ? value : null)) };
    },

    async members(key, { offset, limit, highestFirst = false }) {
      if (limit <= 0) return [];
      return redis.zrange<string[]>(key, offset, offset + limit - 1, { rev: highestFirst });
    },

    async membersByScore(key, { min, max, limit }) {
      if (limit <= 0 || max < min) return [];
      return redis.zrange<string[]>(key, min, max, { byScore: true, offset: 0, count: limit });
    },

    size: (key) => redis.zcard(key),

    list: (key) => redis.lrange<string>(key, 0, -1),

    async counters(key) {
      return countsOf(await redis.hgetall(key));
    },

    async tally(key, windowMs, now) {
      const [count, ttl] = await tallyScript.exec([], [JSON.stringify([key, String(windowMs)])]);
      return { count: Number(count), resetAt: now.getTime() + Math.max(0, Number(ttl)) };
    },

    async clearTally(key) {
      await redis.del(key);
    },

    // One PFCOUNT a key: given several keys, PFCOUNT would count their union.
    distinctCounts: (keys) => Promise.all(keys.map((key) => redis.pfcount(key))),
  };
}

export interface UpstashOptions {
  url: string;
  token: string;
  /** Abort any request after this many milliseconds. */
  timeoutMs: number;
}

export function createUpstashClient({ url, token, timeoutMs }: UpstashOptions): Redis {
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
