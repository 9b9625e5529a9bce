import { createHash } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { Ratelimit } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis';
import { UPSTASH_TOKEN as TOKEN, useUpstash } from '../support/store-setup';

describe('the Upstash REST bridge in front of a real redis-server', () => {
  // Persistent: the restart case reads back what was written before it.
  const upstash = useUpstash({ persistent: true });
  const bridge = () => upstash.bridge();
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis({ url: bridge().url, token: TOKEN, automaticDeserialization: false, enableTelemetry: false });
  });

  // Each test starts from an empty database and writes what it reads: any one of them passes alone (`-t`).
  beforeEach(async () => {
    await redis.flushdb();
  });

  test('stores and reads back unicode strings and numeric-looking strings unchanged', async () => {
    expect(await redis.set('greeting', 'Zoë 🚀')).toBe('OK');
    expect(await redis.get('greeting')).toBe('Zoë 🚀');
    await redis.set('digits', '1234');
    expect(await redis.get('digits')).toBe('1234');
    expect(await redis.get('missing-key')).toBeNull();
  });

  test('returns integer replies as numbers', async () => {
    expect(await redis.incr('counter')).toBe(1);
    expect(await redis.incr('counter')).toBe(2);
    expect(await redis.incrby('counter', 40)).toBe(42);
  });

  test('handles hashes, sorted sets and multi-key reads', async () => {
    expect(await redis.hset('person', { name: 'Zoë', city: 'Zürich' })).toBe(2);
    // Without automatic deserialization the client hands back Redis's flat field/value list.
    expect(await redis.hgetall('person')).toEqual(['name', 'Zoë', 'city', 'Zürich']);

    await redis.zadd('scores', { score: 1, member: 'one' }, { score: 3, member: 'three' }, { score: 2, member: 'two' });
    expect(await redis.zrange('scores', 0, -1, { rev: true })).toEqual(['three', 'two', 'one']);
    expect(await redis.zrange('scores', 0, -1, { withScores: true })).toEqual(['one', '1', 'two', '2', 'three', '3']);

    await redis.set('mget-a', 'Ä');
    await redis.set('digits', '1234');
    expect(await redis.mget('mget-a', 'mget-missing', 'digits')).toEqual(['Ä', null, '1234']);
  });

  test('returns nested arrays from a Lua script with numbers and strings intact', async () => {
    expect(await redis.eval("return {1, 'x', {2, 'y'}}", [], [])).toEqual([1, 'x', [2, 'y']]);
  });

  test('reports a Redis error with its message', async () => {
    await redis.set('greeting', 'Zoë 🚀');
    await expect(redis.eval('return redis.call("INCR", KEYS[1])', ['greeting'], [])).rejects.toThrow(
      /value is not an integer/,
    );
    await expect(redis.evalsha('0'.repeat(40), [], [])).rejects.toThrow(/NOSCRIPT/);
  });

  test('loads a script with a ratelimit-style shebang under the sha1 of the original text', async () => {
    const script = '#!lua flags=allow-key-locking,no-writes\nreturn ARGV[1]';
    const sha = await redis.scriptLoad(script);
    const expected = createHash('sha1').update(script, 'utf8').digest('hex');
    expect(sha).toBe(expected);
    expect(await redis.scriptExists(sha)).toEqual([1]);
    expect(await redis.evalsha(sha, [], ['é'])).toBe('é');
    expect(await redis.evalshaRo(sha, [], ['ü'])).toBe('ü');
  });

  test('sends plain strings to a client that does not ask for base64', async () => {
    await redis.set('greeting', 'Zoë 🚀');
    const plain = new Redis({ url: `${bridge().url}/`, token: TOKEN, responseEncoding: false, enableTelemetry: false });
    expect(await plain.get('greeting')).toBe('Zoë 🚀');
    const response = await fetch(bridge().url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify(['GET', 'greeting']),
    });
    expect(await response.json()).toEqual({ result: 'Zoë 🚀' });
  });

  test('runs an explicit pipeline and keeps per-command errors apart', async () => {
    const pipeline = redis.pipeline();
    pipeline.set('pipe-a', 'α');
    pipeline.get('pipe-a');
    pipeline.incr('pipe-a');
    pipeline.get('pipe-missing');
    const results = await pipeline.exec({ keepErrors: true });
    expect(results.map((entry) => entry.result)).toEqual(['OK', 'α', undefined, null]);
    expect(results[2].error).toMatch(/not an integer/);
  });

  test('runs a MULTI/EXEC transaction', async () => {
    const tx = redis.multi();
    tx.set('tx-a', 'one');
    tx.incr('tx-counter');
    tx.incr('tx-counter');
    tx.get('tx-a');
    expect(await tx.exec()).toEqual(['OK', 1, 2, 'one']);
  });

  test('rejects a client with the wrong token', async () => {
    await redis.set('greeting', 'Zoë 🚀');
    const intruder = new Redis({ url: bridge().url, token: 'wrong', enableTelemetry: false, retry: false });
    await expect(intruder.get('greeting')).rejects.toThrow(/Unauthorized/);
  });

  test('hangs every request while set to broken', async () => {
    bridge().setBroken(true);
    try {
      const request = fetch(bridge().url, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify(['PING']),
        signal: AbortSignal.timeout(300),
      });
      await expect(request).rejects.toThrow(/aborted|timeout/i);
    } finally {
      bridge().setBroken(false);
    }
    expect(await redis.ping()).toBe('PONG');
  });

  test('lets @upstash/ratelimit count a sliding window per identifier', async () => {
    const ratelimit = new Ratelimit({ redis, limiter: Ratelimit.slidingWindow(3, '60 s'), ephemeralCache: false });
    const outcomes: boolean[] = [];
    for (let i = 0; i < 4; i += 1) outcomes.push((await ratelimit.limit('visitor-a')).success);
    expect(outcomes).toEqual([true, true, true, false]);
    const other = await ratelimit.limit('visitor-b');
    expect(other.success).toBe(true);
    expect(other.remaining).toBe(2);
  });

  test('keeps data of a persistent server across a restart', async () => {
    await redis.set('survivor', 'still here ✓');
    await upstash.redis().restart();
    expect(await redis.get('survivor')).toBe('still here ✓');
  });
});
