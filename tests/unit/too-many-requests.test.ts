/** The 429 every limit answers with: the wait in words a person reads, and in Retry-After. */
import { describe, expect, test } from 'vitest';
import { tooManyRequests } from '../../functions/_lib/platform/http';

const NOW = Date.parse('2026-11-29T10:00:00Z');

describe('tooManyRequests', () => {
  test.each([
    [400, '1 second', '1'],
    [1_000, '1 second', '1'],
    [-5_000, '1 second', '1'],
    [2_000, '2 seconds', '2'],
    [40_000, '40 seconds', '40'],
    [60_000, '1 minute', '60'],
    [61_000, '2 minutes', '61'],
    [900_000, '15 minutes', '900'],
  ])('a limit that resets in %i ms asks for %s', async (inMs, words, retryAfter) => {
    const response = tooManyRequests('submissions', NOW + inMs, NOW);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe(retryAfter);
    expect(await response.json()).toEqual({ error: `Too many submissions. Please try again in ${words}.` });
  });
});
