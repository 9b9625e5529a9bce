/**
 * The admin page's Visits section asks for a range of days ending today and the as many days
 * before it, and writes each total against the period before and each conversion as a percent.
 */
import { describe, expect, test } from 'vitest';
import {
  conversionRate,
  noRateNote,
  percentChange,
  rangesEndingOn,
  share,
  unmeasuredLeadsNote,
  visitsUrl,
} from '../../src/components/islands/admin/visits-figures';
import { conversionOf, MORE_LEADS_WHY } from '../../src/shared/visits-conversion';

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

describe('conversionOf', () => {
  test.each([
    [1, 4, { rate: 0.25 }],
    [3, 3, { rate: 1 }],
    [0, 0, { none: 'no-visitors' }],
    [3, 2, { none: 'more-leads-than-visitors' }],
    [2, 0, { none: 'more-leads-than-visitors' }],
  ])('%i measured leads from %i visitors: %o', (measuredLeads, visitors, expected) => {
    expect(conversionOf({ measuredLeads, visitors })).toEqual(expected);
  });
});

describe('conversionRate', () => {
  test.each([
    [1, 3, '33%'],
    [2, 3, '67%'],
    [0, 40, '0%'],
    [3, 3, '100%'],
    // No rate over 100 %: noRateNote says why instead.
    [3, 2, '—'],
    [0, 0, '—'],
    [2, 0, '—'],
  ])('%i measured leads from %i visitors is %s', (measuredLeads, visitors, expected) => {
    expect(conversionRate({ measuredLeads, visitors })).toBe(expected);
  });

  test('divides only the leads measured against visits, however many leads came before', () => {
    // 300 leads, 20 of them since visits were first counted, by 84 visitors: 24 %, not 357 %.
    const allTime = { leads: 300, measuredLeads: 20, visitors: 84 };
    expect(conversionRate(allTime)).toBe('24%');
  });
});

describe('noRateNote', () => {
  const row = (name: string, measuredLeads: number, visitors: number) => ({ name, measuredLeads, visitors });
  test('names the rows with more leads than visitors, and says why', () => {
    expect(noRateNote([row('Direct', 3, 2), row('Google', 1, 10), row('E-mail', 2, 0)], (r) => r.name)).toBe(
      `No rate for Direct and E-mail: more leads came than visitors were counted. ${MORE_LEADS_WHY}`,
    );
  });
  test('names at most three', () => {
    const rows = ['A', 'B', 'C', 'D', 'E'].map((name) => row(name, 2, 1));
    expect(noRateNote(rows, (r) => r.name)).toMatch(/^No rate for A, B, C and 2 more: /);
  });
  test('says nothing when every row has a rate or no one came', () => {
    expect(noRateNote([row('Google', 1, 10), row('Bing', 0, 0)], (r) => r.name)).toBeUndefined();
  });
});

describe('unmeasuredLeadsNote', () => {
  const totals = (leads: number, measuredLeads: number) => ({
    visitors: 84,
    pageviews: 200,
    leads,
    measuredLeads,
    won: 0,
    subscribers: 0,
  });
  test('says how many leads came before the first day with a counted visit, and leaves them out of the rates', () => {
    expect(unmeasuredLeadsNote({ countedFrom: '2026-11-23', totals: totals(300, 20) })).toBe(
      'No visit was counted in this range before 23 Nov 2026: the 280 leads from before then are counted, but left out of the conversion rates.',
    );
    expect(unmeasuredLeadsNote({ countedFrom: '2026-11-23', totals: totals(21, 20) })).toBe(
      'No visit was counted in this range before 23 Nov 2026: the 1 lead from before then is counted, but left out of the conversion rates.',
    );
  });
  test('says when no visit was counted in the range at all', () => {
    expect(unmeasuredLeadsNote({ totals: totals(3, 0) })).toBe(
      'No visit was counted in this range: its 3 leads are counted, with no conversion rate.',
    );
  });
  test('says nothing when every lead came while visits were counted', () => {
    expect(unmeasuredLeadsNote({ countedFrom: '2026-11-23', totals: totals(20, 20) })).toBeUndefined();
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
