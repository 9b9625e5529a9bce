/** Per-IP, per-endpoint limits on form submissions: Upstash's limiter on Redis, an in-process one locally. */
import { Ratelimit } from '@upstash/ratelimit';
import type { Redis } from '@upstash/redis';

export interface LimitResult {
  success: boolean;
  /** When the window frees a slot, ms since the epoch. */
  reset: number;
}

export interface RateLimiter {
  limit(identifier: string): Promise<LimitResult>;
}

const WINDOW_MS = 60_000;

/** A sliding log per identifier, kept in memory: the embedded store's equivalent of Upstash's limiter. */
export function createMemoryRateLimiter(perMinute: number, clock: () => number = Date.now): RateLimiter {
  const hits = new Map<string, number[]>();
  return {
    async limit(identifier) {
      const now = clock();
      const recent = (hits.get(identifier) ?? []).filter((time) => now - time < WINDOW_MS);
      if (recent.length >= perMinute) {
        hits.set(identifier, recent);
        return { success: false, reset: (recent[0] ?? now) + WINDOW_MS };
      }
      recent.push(now);
      hits.set(identifier, recent);
      if (hits.size > 10_000) {
        for (const [key, times] of hits) if (times.every((time) => now - time >= WINDOW_MS)) hits.delete(key);
      }
      return { success: true, reset: now + WINDOW_MS };
    },
  };
}

export function createRedisRateLimiter(redis: Redis, perMinute: number, timeoutMs: number): RateLimiter {
  const limiter = new Ratelimit({
    redis,
    limiter: Ratelimit.slidingWindow(perMinute, '60 s'),
    prefix: 'ratelimit',
    // Kept between warm invocations: blocked identifiers are refused without a round trip.
    ephemeralCache: new Map(),
    timeout: timeoutMs,
    analytics: false,
  });
  return {
    async limit(identifier) {
      const { success, reset } = await limiter.limit(identifier);
      return { success, reset };
    },
  };
}
