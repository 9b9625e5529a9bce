/**
 * The admin page's Visits section asks for a range of days ending today and the as many days
 * before it, and writes each total against the period before and each conversion as a percent.
 */
import { describe, expect, test } from 'vitest';
import {
  conversionRate,
  percentChange,
  rangesEndingOn,
  share,
  visitsUrl,
} from '../../src/components/islands/admin/visits-figures';

describe('rangesEndingOn', () => {
  test.each([
    [7, { from: '2026-06-10', to: '2026-06-16' }, { from: '2026-06-03', to: '2026-06-09' }],
    [30, { from: '2026-05-18', to: '2026-06-16' }, { from: '2026-04-18', to: '2026-05-17' }],
    [365, { from: '2025-06-17', to: '2026-06-16' }, { from: '2024-06-17', to: '2025-06-16' }],
  ])('the last %i days end today, and the period before ends the day before them', (days, current, previous) => {
    expect(rangesEndingOn('2026-06-16', days)).toEqual({ current, previous });
  });

  test('crosses month, year and leap days', () => {
    expect(rangesEndingOn('2024-03-02', 7)).toEqual({
      current: { from: '2024-02-25', to: '2024-03-02' },
      previous: { from: '2024-02-18', to: '2024-02-24' },
    });
    expect(rangesEndingOn('2027-01-03', 7).current).toEqual({
      from: '2026-12-28',
      to: '2027-01-03',
    });
  });

  test('a range holds as many days as asked, on a day when clocks change', () => {
    const { current } = rangesEndingOn('2026-03-29', 30);
    expect((Date.parse(current.to) - Date.parse(current.from)) / 86_400_000 + 1).toBe(30);
  });
});

describe('visitsUrl', () => {
  test('asks the report of a range', () => {
    expect(visitsUrl({ from: '2026-06-10', to: '2026-06-16' })).toBe('/api/admin/visits?from=2026-06-10&to=2026-06-16');
  });
});

describe('percentChange', () => {
  test.each([
    [125, 100, '+25%'],
    [90, 100, '\u221210%'],
    [100, 100, '0%'],
    [1001, 1000, '0%'],
    [2, 3, '\u221233%'],
    [0, 5, '\u2212100%'],
    [25, 1, '+2,400%'],
    [3, 0, 'new'],
    [0, 0, '0%'],
  ])('%i against %i is %s', (current, previous, expected) => {
    expect(percentChange(current, previous)).toBe(expected);
  });
});

describe('conversionRate', () => {
  test.each([
    [1, 3, '33%'],
    [2, 3, '67%'],
    [0, 40, '0%'],
    [3, 2, '150%'],
    [0, 0, '—'],
    [2, 0, '—'],
  ])('%i leads from %i visitors is %s', (leads, visitors, expected) => {
    expect(conversionRate(leads, visitors)).toBe(expected);
  });
});

describe('share', () => {
  test.each([
    [3, 4, '75%'],
    [1, 3, '33%'],
    [0, 0, '—'],
  ])('%i of %i is %s', (part, whole, expected) => {
    expect(share(part, whole)).toBe(expected);
  });
});
