/**
 * The admin page writes days, times and figures in the site's locale (PUBLIC_SITE_LOCALE, en-GB
 * unless set) and records' times in the site's time zone (SITE_TIME_ZONE, which the overview
 * names), whatever the zone of the browser reading it.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { formatDay, formatDayOf, formatMoment, formatNumber } from '../../src/lib/format';
import { queryClient } from '../../src/lib/query-client';
import { count, moment, OVERVIEW_KEY, plural, when } from '../../src/components/islands/admin/record-text';
import { conversionRate, percentChange } from '../../src/components/islands/admin/visits-figures';
import { DEFAULT_LOCALE, site } from '../../src/site.config';

/** 15:05 in London on a winter day: 16:05 in Paris, 10:05 in New York, the next day in Auckland. */
const AFTERNOON = new Date('2026-11-02T15:05:00Z');

test('the locale is en-GB when PUBLIC_SITE_LOCALE is unset, as it is for the tests', () => {
  expect(DEFAULT_LOCALE).toBe('en-GB');
  expect(site.locale).toBe('en-GB');
});

describe('formatDay', () => {
  test.each([
    ['2026-11-02', {}, '2 Nov 2026'],
    ['2026-11-02', { year: false }, '2 Nov'],
    ['2027-01-01', {}, '1 Jan 2027'],
    ['2026-11-02', { locale: 'en-US' }, 'Nov 2, 2026'],
    ['2026-11-02', { year: false, locale: 'en-US' }, 'Nov 2'],
  ])('writes %s with %o as "%s"', (day, options, written) => {
    expect(formatDay(day, options)).toBe(written);
  });
});

describe('formatDayOf and formatMoment', () => {
  test.each([
    ['Europe/London', '2 Nov 2026', '2 Nov, 15:05'],
    ['Europe/Paris', '2 Nov 2026', '2 Nov, 16:05'],
    ['America/New_York', '2 Nov 2026', '2 Nov, 10:05'],
    ['Pacific/Auckland', '3 Nov 2026', '3 Nov, 04:05'],
  ])('in %s, a moment falls on %s, at %s', (timeZone, day, time) => {
    expect(formatDayOf(AFTERNOON, timeZone)).toBe(day);
    expect(formatMoment(AFTERNOON, timeZone)).toBe(time);
  });

  test('en-US writes the month first and a 12-hour clock', () => {
    expect(formatMoment(AFTERNOON, 'Europe/London', 'en-US')).toBe('Nov 2, 3:05 PM');
    expect(formatDayOf(AFTERNOON, 'Europe/London', 'en-US')).toBe('Nov 2, 2026');
  });
});

describe('formatNumber', () => {
  test.each([
    [0, 'en-GB', '0'],
    [1234, 'en-GB', '1,234'],
    [1234567, 'en-GB', '1,234,567'],
    [1234, 'de-DE', '1.234'],
  ])('writes %i in %s as "%s"', (value, locale, written) => {
    expect(formatNumber(value, locale)).toBe(written);
  });
});

describe('the record text of the admin page', () => {
  afterEach(() => queryClient.clear());
  const overviewSays = (timeZone: string) => queryClient.setQueryData([OVERVIEW_KEY], { timeZone });

  test('writes records in the site time zone the overview names, not the browser one', () => {
    overviewSays('Pacific/Auckland');
    expect(when(AFTERNOON.toISOString())).toBe('3 Nov 2026');
    expect(moment(AFTERNOON.toISOString())).toBe('3 Nov, 04:05');
    overviewSays('America/New_York');
    expect(when(AFTERNOON.toISOString())).toBe('2 Nov 2026');
    expect(moment(AFTERNOON.toISOString())).toBe('2 Nov, 10:05');
  });

  test('writes a calendar day (a post published on 2026-11-02) as that day, in any site zone', () => {
    overviewSays('America/Los_Angeles');
    expect(when('2026-11-02')).toBe('2 Nov 2026');
  });

  test('writes figures in the site locale', () => {
    expect(count(12345)).toBe('12,345');
    expect(plural(1, 'lead')).toBe('1 lead');
    expect(plural(2500, 'lead')).toBe('2,500 leads');
    expect(percentChange(2600, 100)).toBe('+2,500%');
    expect(conversionRate({ measuredLeads: 1, visitors: 3 })).toBe('33%');
  });
});
