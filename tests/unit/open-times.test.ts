/**
 * The open times on a fixed clock: the owner's hours and breaks, notice, window, buffer, days off,
 * daily cap, busy times and booked calls, the range asked for, and the four clock changes of 2026
 * in Europe and the US, checked to the exact UTC instant.
 */
import { describe, expect, test } from 'vitest';
import { isOffered, openTimes, ownerDay, type Interval } from '../../functions/_lib/booking/open-times';
import type { BookingHours } from '../../src/shared/booking';
import { hoursWith } from '../support/booking-fixtures';

/** Monday 16 March 2026, 10:10 in London (GMT, so UTC too). */
const NOW = Date.parse('2026-03-16T10:10:00Z');
/** Tuesday 24 March 2026: a working day in the window, before the clocks change. */
const TUESDAY = '2026-03-24';

/** An interval of London wall times on a day before the clocks change (GMT is UTC): `at(TUESDAY, '10:00', '10:30')`. */
const at = (day: string, from: string, to: string): Interval => ({
  start: Date.parse(`${day}T${from}:00Z`),
  end: Date.parse(`${day}T${to}:00Z`),
});

/** The start times offered on one day, as wall times of the owner's zone ("09:30"). */
function startsOn(
  day: string,
  { hours = hoursWith(), busy = [], booked = [], now = NOW }: Partial<Parameters<typeof openTimes>[0]> = {},
): string[] {
  const format = new Intl.DateTimeFormat('en-GB', { timeZone: hours.timeZone, hour: '2-digit', minute: '2-digit' });
  return openTimes({ hours, busy, booked, now, from: day, to: day }).map((slot) =>
    format.format(Date.parse(slot.start)),
  );
}

/** The offered starts between two wall times of a day, both included. */
const between = (starts: string[], first: string, last: string) =>
  starts.filter((start) => start >= first && start <= last);

describe('openTimes: the weekly hours', () => {
  test('offers a start every interval of each stretch, a call ending by its end, and nothing in the break', () => {
    expect(startsOn(TUESDAY)).toEqual([
      ...['09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '12:00'],
      ...['13:30', '14:00', '14:30', '15:00', '15:30', '16:00', '16:30'],
    ]);
  });

  test('a day without a stretch is closed', () => {
    expect(startsOn('2026-03-21')).toEqual([]);
    expect(startsOn('2026-03-22')).toEqual([]);
  });

  test('each slot is a call long, in UTC ending in Z, earliest first', () => {
    const slots = openTimes({ hours: hoursWith(), busy: [], booked: [], now: NOW, from: TUESDAY, to: TUESDAY });
    expect(slots[0]).toEqual({ start: '2026-03-24T09:00:00.000Z', end: '2026-03-24T09:30:00.000Z' });
    expect(slots.map((slot) => slot.start)).toEqual([...slots.map((slot) => slot.start)].sort());
  });

  test.each([
    [45, 30, ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30']],
    [30, 60, ['09:00', '10:00', '11:00', '12:00']],
    [60, 15, ['09:00', '09:15', '09:30', '09:45', '10:00', '10:15', '10:30', '10:45', '11:00', '11:15', '11:30']],
  ])('a %i-minute call every %i minutes starts at %j in the morning', (meetingMinutes, slotIntervalMinutes, starts) => {
    const hours = hoursWith({ meetingMinutes, slotIntervalMinutes, bufferMinutes: 0 });
    expect(between(startsOn(TUESDAY, { hours }), '09:00', '12:30')).toEqual(starts);
  });
});

describe('openTimes: notice and window', () => {
  test.each([
    [24, '2026-03-17', ['10:30', '11:00']],
    [0, '2026-03-16', ['10:30', '11:00']],
    [48, '2026-03-18', ['10:30', '11:00']],
  ])('with %i hours of notice at 10:10, %s starts at 10:30', (minimumNoticeHours, day, [first, second]) => {
    const hours = hoursWith({ minimumNoticeHours });
    expect(startsOn(day, { hours }).slice(0, 2)).toEqual([first, second]);
  });

  test('nothing is offered from now + the booking window on', () => {
    const slots = openTimes({ hours: hoursWith(), busy: [], booked: [], now: NOW });
    // 30 days after 10:10 GMT on 16 March is 11:10 BST on 15 April: the last start is 11:00 BST.
    expect(slots.at(-1)?.start).toBe('2026-04-15T10:00:00.000Z');
    expect(slots[0]?.start).toBe('2026-03-17T10:30:00.000Z');
  });
});

describe('openTimes: buffer, busy times and booked calls', () => {
  test('a call booked at 9:00 blocks 9:30 when the buffer is 15 minutes', () => {
    const booked = [at(TUESDAY, '09:00', '09:30')];
    expect(between(startsOn(TUESDAY, { booked }), '09:00', '10:00')).toEqual(['10:00']);
  });

  test.each([
    [15, 30, ['09:00', '11:00']],
    [0, 30, ['09:00', '09:30', '10:30', '11:00']],
    [15, 15, ['09:00', '09:15', '10:45', '11:00']],
    [30, 30, ['09:00', '11:00']],
    [30, 15, ['09:00', '11:00']],
  ])(
    'with a %i-minute buffer and a start every %i minutes, a call booked 10:00–10:30 leaves %j from 9:00 to 11:00',
    (bufferMinutes, slotIntervalMinutes, starts) => {
      const hours = hoursWith({ bufferMinutes, slotIntervalMinutes });
      const booked = [at(TUESDAY, '10:00', '10:30')];
      expect(between(startsOn(TUESDAY, { hours, booked }), '09:00', '11:00')).toEqual(starts);
    },
  );

  test.each([
    ['10:10', '10:20', ['09:00', '10:30', '11:00']],
    ['09:45', '10:00', ['09:00', '10:00', '10:30', '11:00']],
    ['08:00', '09:00', ['09:00', '09:30', '10:00', '10:30', '11:00']],
    ['09:50', '11:00', ['09:00', '11:00']],
  ])('a busy time %s–%s (the call and its buffer must miss it) leaves %j', (from, to, starts) => {
    const busy = [at(TUESDAY, from, to)];
    expect(between(startsOn(TUESDAY, { busy }), '09:00', '11:00')).toEqual(starts);
  });

  test('busy times in any order, overlapping, and a whole day, all count', () => {
    const busy = [
      at(TUESDAY, '14:00', '15:00'),
      at(TUESDAY, '09:00', '09:20'),
      at(TUESDAY, '14:30', '16:00'),
      { start: Date.parse('2026-03-25T00:00:00Z'), end: Date.parse('2026-03-26T00:00:00Z') },
    ];
    expect(startsOn(TUESDAY, { busy })).toEqual([
      ...['09:30', '10:00', '10:30', '11:00', '11:30', '12:00'],
      ...['16:00', '16:30'],
    ]);
    expect(startsOn('2026-03-25', { busy })).toEqual([]);
  });
});

describe('openTimes: days off and the daily cap', () => {
  const december = Date.parse('2026-12-10T12:00:00Z');

  test.each([
    ['2026-12-23', true],
    ['2026-12-24', false],
    ['2026-12-25', false],
    ['2026-12-28', true],
    ['2027-01-01', false],
    ['2027-01-04', true],
  ])('%s offers times: %s', (day, open) => {
    expect(startsOn(day, { now: december }).length > 0).toBe(open);
  });

  test.each([
    [undefined, 2, 10],
    [3, 2, 10],
    [2, 2, 0],
    [2, 1, 12],
  ])('with a cap of %s calls a day and %i booked, a day offers %i times', (dailyCap, calls, count) => {
    const booked = [at(TUESDAY, '09:00', '09:30'), at(TUESDAY, '16:30', '17:00')].slice(0, calls);
    expect(startsOn(TUESDAY, { hours: hoursWith({ dailyCap }), booked })).toHaveLength(count);
  });

  test('a cap counts the calls of each day in the owner’s zone', () => {
    // 23:30 UTC on 23 March is still the 23rd in London, and the 24th in Paris.
    const booked = [{ start: Date.parse('2026-03-23T23:30:00Z'), end: Date.parse('2026-03-24T00:00:00Z') }];
    expect(startsOn(TUESDAY, { hours: hoursWith({ dailyCap: 1 }), booked })).toHaveLength(14);
    const paris = hoursWith({ dailyCap: 1, timeZone: 'Europe/Paris' });
    expect(startsOn(TUESDAY, { hours: paris, booked })).toEqual([]);
  });
});

describe('openTimes: the range asked for', () => {
  const days = (from?: string, to?: string) => [
    ...new Set(
      openTimes({ hours: hoursWith(), busy: [], booked: [], now: NOW, from, to }).map((slot) =>
        ownerDay(Date.parse(slot.start), 'Europe/London'),
      ),
    ),
  ];

  test.each([
    ['2026-03-24', '2026-03-26', ['2026-03-24', '2026-03-25', '2026-03-26']],
    ['2026-03-27', '2026-03-30', ['2026-03-27', '2026-03-30']],
    ['2026-03-01', '2026-03-17', ['2026-03-17']],
    ['2026-04-14', '2026-06-30', ['2026-04-14', '2026-04-15']],
    ['2026-03-26', '2026-03-24', []],
    ['2027-01-01', '2027-01-31', []],
  ])('from %s to %s offers the days %j', (from, to, expected) => {
    expect(days(from, to)).toEqual(expected);
  });

  test('without a range, from today to the end of the window', () => {
    const offered = days();
    expect(offered[0]).toBe('2026-03-17');
    expect(offered.at(-1)).toBe('2026-04-15');
    expect(offered).toHaveLength(22);
  });
});

describe('isOffered', () => {
  const input = {
    hours: hoursWith(),
    busy: [at(TUESDAY, '11:00', '11:20')],
    booked: [at(TUESDAY, '15:00', '15:30')],
    now: NOW,
  };

  test.each([
    ['2026-03-24T09:30:00Z', { start: '2026-03-24T09:30:00.000Z', end: '2026-03-24T10:00:00.000Z' }],
    ['2026-03-24T09:30:00.000Z', { start: '2026-03-24T09:30:00.000Z', end: '2026-03-24T10:00:00.000Z' }],
    ['2026-03-24T09:40:00Z', undefined],
    ['2026-03-24T11:00:00Z', undefined],
    ['2026-03-24T15:30:00Z', undefined],
    ['2026-03-24T12:30:00Z', undefined],
    ['2026-03-16T15:00:00Z', undefined],
    ['2026-04-16T09:00:00Z', undefined],
    ['next tuesday', undefined],
  ])('%s → %o', (start, slot) => {
    expect(isOffered(input, start)).toEqual(slot);
  });
});

describe('openTimes across the clock changes of 2026', () => {
  /**
   * Sunday hours over the night the clocks change, 01:00–03:00 (where wall times are skipped or
   * repeated), and a morning stretch, 09:00–10:00, to check the offset after the change.
   */
  const sundays = (timeZone: string) =>
    hoursWith({
      timeZone,
      weeklyHours: [
        { day: 'sunday', from: '01:00', to: '03:00' },
        { day: 'sunday', from: '09:00', to: '10:00' },
      ],
      minimumNoticeHours: 0,
      bufferMinutes: 0,
    });
  const startsInUtc = (hours: BookingHours, day: string) =>
    openTimes({
      hours,
      busy: [],
      booked: [],
      now: Date.parse(`${day}T00:00:00Z`) - 10 * 86_400_000,
      from: day,
      to: day,
    }).map((slot) => slot.start.replace(':00.000Z', 'Z'));

  test.each([
    // The clocks go from 01:00 GMT to 02:00 BST: 01:00 and 01:30 do not exist.
    [
      'Europe/London',
      '2026-03-29',
      ['2026-03-29T01:00Z', '2026-03-29T01:30Z', '2026-03-29T08:00Z', '2026-03-29T08:30Z'],
    ],
    // From 02:00 BST back to 01:00 GMT: 01:00 and 01:30 happen twice, offered at the first (BST).
    [
      'Europe/London',
      '2026-10-25',
      [
        '2026-10-25T00:00Z',
        '2026-10-25T00:30Z',
        '2026-10-25T02:00Z',
        '2026-10-25T02:30Z',
        '2026-10-25T09:00Z',
        '2026-10-25T09:30Z',
      ],
    ],
    // From 02:00 CET to 03:00 CEST: 02:00 and 02:30 do not exist; 01:30 ends at 03:00 CEST, in time.
    [
      'Europe/Paris',
      '2026-03-29',
      ['2026-03-29T00:00Z', '2026-03-29T00:30Z', '2026-03-29T07:00Z', '2026-03-29T07:30Z'],
    ],
    // From 03:00 CEST back to 02:00 CET: 02:00 and 02:30 offered once, in CEST.
    [
      'Europe/Paris',
      '2026-10-25',
      [
        '2026-10-24T23:00Z',
        '2026-10-24T23:30Z',
        '2026-10-25T00:00Z',
        '2026-10-25T00:30Z',
        '2026-10-25T08:00Z',
        '2026-10-25T08:30Z',
      ],
    ],
    // From 02:00 EST to 03:00 EDT: 02:00 and 02:30 do not exist.
    [
      'America/New_York',
      '2026-03-08',
      ['2026-03-08T06:00Z', '2026-03-08T06:30Z', '2026-03-08T13:00Z', '2026-03-08T13:30Z'],
    ],
    // From 02:00 EDT back to 01:00 EST: 01:00 and 01:30 offered once, in EDT.
    [
      'America/New_York',
      '2026-11-01',
      [
        '2026-11-01T05:00Z',
        '2026-11-01T05:30Z',
        '2026-11-01T07:00Z',
        '2026-11-01T07:30Z',
        '2026-11-01T14:00Z',
        '2026-11-01T14:30Z',
      ],
    ],
  ])('%s on %s offers exactly %j', (timeZone, day, starts) => {
    expect(startsInUtc(sundays(timeZone), day)).toEqual(starts);
  });

  test.each([
    // 01:30 EST + 30 minutes is 03:00 EDT, past a stretch ending at 02:30: not offered.
    [
      'America/New_York',
      '2026-03-08',
      '00:00',
      '02:30',
      ['2026-03-08T05:00Z', '2026-03-08T05:30Z', '2026-03-08T06:00Z'],
    ],
    // 00:30 GMT + 30 minutes is 02:00 BST, past 01:30.
    ['Europe/London', '2026-03-29', '00:00', '01:30', ['2026-03-29T00:00Z']],
    // 01:30 BST + 30 minutes is 01:00 GMT, a wall time that happens twice: before the stretch's end, 02:00.
    ['Europe/London', '2026-10-25', '00:30', '02:00', ['2026-10-24T23:30Z', '2026-10-25T00:00Z', '2026-10-25T00:30Z']],
  ])(
    '%s on %s, a stretch %s–%s: a call is offered only if the clock reads no later than the end when it ends (%j)',
    (timeZone, day, from, to, starts) => {
      const hours = { ...sundays(timeZone), weeklyHours: [{ day: 'sunday' as const, from, to }] };
      expect(startsInUtc(hours, day)).toEqual(starts);
    },
  );

  test.each([
    ['Europe/London', '2026-03-22', '2026-03-22T09:00Z', '2026-04-05', '2026-04-05T08:00Z'],
    ['Europe/London', '2026-10-18', '2026-10-18T08:00Z', '2026-11-01', '2026-11-01T09:00Z'],
    ['America/New_York', '2026-03-01', '2026-03-01T14:00Z', '2026-03-15', '2026-03-15T13:00Z'],
    ['America/New_York', '2026-10-25', '2026-10-25T13:00Z', '2026-11-08', '2026-11-08T14:00Z'],
  ])('in %s, 09:00 on %s is %s, and on %s %s', (timeZone, before, beforeStart, after, afterStart) => {
    expect(startsInUtc(sundays(timeZone), before)).toContain(beforeStart);
    expect(startsInUtc(sundays(timeZone), after)).toContain(afterStart);
  });
});
