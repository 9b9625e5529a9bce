import { describe, expect, test } from 'vitest';
import { parseSchedule } from '../../scripts/serve/cron';

const at = (iso: string) => new Date(iso);

describe('schedules of scheduled functions', () => {
  test.each([
    ['* * * * *', '2026-11-23T05:17:00Z', true],
    ['0 5 * * *', '2026-11-23T05:00:00Z', true],
    ['0 5 * * *', '2026-11-23T05:01:00Z', false],
    ['*/15 * * * *', '2026-11-23T05:45:00Z', true],
    ['*/15 * * * *', '2026-11-23T05:46:00Z', false],
    ['0 9-17 * * 1-5', '2026-11-23T12:00:00Z', true],
    ['0 9-17 * * 1-5', '2026-11-22T12:00:00Z', false],
    ['0 0 * * 7', '2026-11-22T00:00:00Z', true],
    ['@hourly', '2026-11-23T06:00:00Z', true],
    ['@hourly', '2026-11-23T06:30:00Z', false],
    ['@daily', '2026-11-23T00:00:00Z', true],
    ['0 0 1,15 * *', '2026-11-15T00:00:00Z', true],
    // Both day fields restricted: either one matching is enough (the 1st, or any Monday).
    ['0 0 1 * 1', '2026-11-23T00:00:00Z', true],
  ])('%s at %s: %s', (schedule, time, expected) => {
    expect(parseSchedule(schedule)(at(time))).toBe(expected);
  });

  test.each(['* * * *', '60 * * * *', '* * 0 * *', 'every minute', '*/0 * * * *'])('"%s" is refused', (schedule) => {
    expect(() => parseSchedule(schedule)).toThrow();
  });
});
