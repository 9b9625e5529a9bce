/**
 * The admin page's charts of figures per day read at a glance: days are dates in order, labelled
 * "2 Nov" with no time of day; counts are drawn from zero in whole steps; and the legend says the
 * last day's figures until a point is hovered, and again once the pointer has left.
 */
import { describe, expect, test } from 'vitest';
import {
  COUNT_STEPS,
  DAY_STEPS,
  dayLabel,
  dayPoints,
  dayRange,
  legendDay,
  legendFigure,
  valueRange,
} from '../../src/components/islands/admin/chart-data';

const DAYS = ['2026-10-30', '2026-10-31', '2026-11-01', '2026-11-02'];

describe('the days', () => {
  test('are points in order, one apart, whatever the clocks did between them', () => {
    // 2026-10-25 is the night Europe's clocks go back: as timestamps its midnights are 25 hours apart.
    expect(dayPoints(['2026-10-24', '2026-10-25', '2026-10-26'])).toEqual([0, 1, 2]);
    expect(dayRange(90)).toEqual([0, 89]);
    expect(dayRange(1), 'a lone day still has a span to draw in').toEqual([-1, 1]);
  });

  test('are labelled with their date alone, "2 Nov", and nothing between days or past the ends', () => {
    expect([0, 1, 2, 3].map((point) => dayLabel(DAYS, point))).toEqual(['30 Oct', '31 Oct', '1 Nov', '2 Nov']);
    expect([0.5, -1, 4].map((point) => dayLabel(DAYS, point))).toEqual(['', '', '']);
    for (const point of [0, 1, 2, 3]) expect(dayLabel(DAYS, point)).not.toMatch(/\d:\d\d|am|pm/i);
  });

  test('are labelled every whole number of days, up to half a year apart', () => {
    expect(DAY_STEPS.every(Number.isInteger)).toBe(true);
    expect(DAY_STEPS).toContain(1);
    expect(DAY_STEPS).toContain(7);
  });
});

describe('the figures axis', () => {
  test.each([
    [3, [0, 4]],
    [2, [0, 3]],
    [100, [0, 110]],
    [1, [0, 2]],
  ])('starts at zero for a highest figure of %i, with room above it', (highest, range) => {
    expect(valueRange(highest)).toEqual(range);
  });

  test('a flat line of zeros still has an axis from 0 to 1', () => {
    expect(valueRange(0)).toEqual([0, 1]);
  });

  test('steps in whole numbers, as counts do', () => {
    expect(COUNT_STEPS.slice(0, 6)).toEqual([1, 2, 5, 10, 20, 50]);
    expect(COUNT_STEPS.every(Number.isInteger)).toBe(true);
  });
});

describe('the legend', () => {
  const visitors = [12, 7, 1480, 3];

  test('says the last day and its figures when no point is hovered (uPlot asks with null)', () => {
    expect(legendDay(DAYS, null)).toBe('2 Nov 2026');
    expect(legendFigure(visitors, null)).toBe('3');
  });

  test("says the hovered day's figures, in the site's locale", () => {
    expect(legendDay(DAYS, 2)).toBe('1 Nov 2026');
    expect(legendFigure(visitors, 2)).toBe('1,480');
  });

  test('says nothing rather than "undefined" for a chart without days', () => {
    expect(legendDay([], null)).toBe('');
    expect(legendFigure([], null)).toBe('');
  });
});
