/**
 * The owner's busy times read from iCalendar files as Google and Outlook publish them: recurring
 * events with a changed and an excluded occurrence, all-day events, events shown as free or
 * cancelled, times in a zone the file defines, in one it only names, floating, and across the
 * clock changes. Only intervals come out.
 */
import { describe, expect, test } from 'vitest';
import { fetchedAddress } from '../../functions/_lib/booking/busy-calendar';
import { busyFromIcs } from '../../functions/_lib/booking/busy-from-ics';
import type { Interval } from '../../functions/_lib/booking/open-times';

/** A calendar file of these lines (each event's, with CRLF line ends as RFC 5545 has them). */
const ics = (...lines: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//Busy times//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');

/** One VEVENT of these properties. */
const event = (...properties: string[]) => ['BEGIN:VEVENT', ...properties, 'END:VEVENT'];

/** The range: March and April 2026. */
const SPRING: Interval = { start: Date.parse('2026-03-01T00:00:00Z'), end: Date.parse('2026-05-01T00:00:00Z') };

/** Intervals as short UTC times: `2026-03-09T10:00Z`. */
const shown = (intervals: Interval[]) =>
  intervals.map(({ start, end }) => [start, end].map((time) => new Date(time).toISOString().replace(':00.000Z', 'Z')));

const busy = (text: string, timeZone = 'Europe/London', range = SPRING) => shown(busyFromIcs(text, range, timeZone));

/** Outlook's definition of Central European time, under a name that is no IANA name. */
const W_EUROPE = [
  'BEGIN:VTIMEZONE',
  'TZID:W. Europe Standard Time',
  'BEGIN:STANDARD',
  'DTSTART:16010101T030000',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=10',
  'END:STANDARD',
  'BEGIN:DAYLIGHT',
  'DTSTART:16010101T020000',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=3',
  'END:DAYLIGHT',
  'END:VTIMEZONE',
];

describe('busyFromIcs: recurring events', () => {
  const weekly = event(
    'UID:weekly@example.com',
    'DTSTART:20260302T100000Z',
    'DTEND:20260302T110000Z',
    'RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=6',
    'EXDATE:20260316T100000Z',
    'SUMMARY:Team meeting',
  );

  test('a weekly event counts each week, but the excluded one and the one moved, which counts where it went', () => {
    const moved = event(
      'UID:weekly@example.com',
      'RECURRENCE-ID:20260323T100000Z',
      'DTSTART:20260324T140000Z',
      'DTEND:20260324T150000Z',
      'SUMMARY:Team meeting (moved)',
    );
    expect(busy(ics(...weekly, ...moved))).toEqual([
      ['2026-03-02T10:00Z', '2026-03-02T11:00Z'],
      ['2026-03-09T10:00Z', '2026-03-09T11:00Z'],
      ['2026-03-24T14:00Z', '2026-03-24T15:00Z'],
      ['2026-03-30T10:00Z', '2026-03-30T11:00Z'],
      ['2026-04-06T10:00Z', '2026-04-06T11:00Z'],
    ]);
  });

  test('an occurrence cancelled by itself is free, and one moved in from outside the range counts', () => {
    const cancelled = event(
      'UID:weekly@example.com',
      'RECURRENCE-ID:20260330T100000Z',
      'STATUS:CANCELLED',
      'DTSTART:20260330T100000Z',
      'DTEND:20260330T110000Z',
    );
    const movedIn = event(
      'UID:weekly@example.com',
      'RECURRENCE-ID:20260406T100000Z',
      'DTSTART:20260227T090000Z',
      'DTEND:20260227T100000Z',
    );
    const range = { start: Date.parse('2026-02-20T00:00:00Z'), end: Date.parse('2026-03-31T00:00:00Z') };
    expect(busy(ics(...weekly, ...cancelled, ...movedIn), 'Europe/London', range)).toEqual([
      ['2026-02-27T09:00Z', '2026-02-27T10:00Z'],
      ['2026-03-02T10:00Z', '2026-03-02T11:00Z'],
      ['2026-03-09T10:00Z', '2026-03-09T11:00Z'],
      ['2026-03-23T10:00Z', '2026-03-23T11:00Z'],
    ]);
  });

  test('an event recurring for years is walked to the range, and one that never ends stops at its end', () => {
    const daily = event('UID:standup@example.com', 'DTSTART:20200101T080000Z', 'DURATION:PT15M', 'RRULE:FREQ=DAILY');
    const range = { start: Date.parse('2026-03-10T00:00:00Z'), end: Date.parse('2026-03-12T00:00:00Z') };
    expect(busy(ics(...daily), 'Europe/London', range)).toEqual([
      ['2026-03-10T08:00Z', '2026-03-10T08:15Z'],
      ['2026-03-11T08:00Z', '2026-03-11T08:15Z'],
    ]);
  });
});

describe('busyFromIcs: all-day, free and cancelled events', () => {
  const allDay = event(
    'UID:offsite@example.com',
    'DTSTART;VALUE=DATE:20260325',
    'DTEND;VALUE=DATE:20260327',
    'SUMMARY:Off-site',
  );

  test.each([
    ['Europe/London', ['2026-03-25T00:00Z', '2026-03-27T00:00Z']],
    ['Europe/Paris', ['2026-03-24T23:00Z', '2026-03-26T23:00Z']],
    ['America/New_York', ['2026-03-25T04:00Z', '2026-03-27T04:00Z']],
  ])('an all-day event covers its days in the owner’s zone (%s)', (timeZone, interval) => {
    expect(busy(ics(...allDay), timeZone)).toEqual([interval]);
  });

  test('an all-day event over the night the clocks change covers the shorter day', () => {
    const sunday = event('UID:sunday@example.com', 'DTSTART;VALUE=DATE:20260329');
    expect(busy(ics(...sunday))).toEqual([['2026-03-29T00:00Z', '2026-03-29T23:00Z']]);
  });

  test('a weekly all-day event counts each of its days', () => {
    const fridays = event('UID:fridays@example.com', 'DTSTART;VALUE=DATE:20260306', 'RRULE:FREQ=WEEKLY;UNTIL=20260320');
    expect(busy(ics(...fridays), 'Europe/Paris')).toEqual([
      ['2026-03-05T23:00Z', '2026-03-06T23:00Z'],
      ['2026-03-12T23:00Z', '2026-03-13T23:00Z'],
      ['2026-03-19T23:00Z', '2026-03-20T23:00Z'],
    ]);
  });

  test.each([
    ['shown as free', 'TRANSP:TRANSPARENT'],
    ['cancelled', 'STATUS:CANCELLED'],
  ])('an event %s leaves the owner free', (_name, property) => {
    const free = event('UID:free@example.com', 'DTSTART:20260310T090000Z', 'DTEND:20260310T100000Z', property);
    const recurringFree = event(
      'UID:free-weekly@example.com',
      'DTSTART:20260311T090000Z',
      'DTEND:20260311T100000Z',
      'RRULE:FREQ=WEEKLY',
      property,
    );
    expect(busy(ics(...free, ...recurringFree))).toEqual([]);
  });

  test('an event shown as busy (TRANSP:OPAQUE, STATUS:TENTATIVE) counts', () => {
    const tentative = event(
      'UID:maybe@example.com',
      'DTSTART:20260310T090000Z',
      'DTEND:20260310T100000Z',
      'TRANSP:OPAQUE',
      'STATUS:TENTATIVE',
    );
    expect(busy(ics(...tentative))).toEqual([['2026-03-10T09:00Z', '2026-03-10T10:00Z']]);
  });
});

describe('busyFromIcs: time zones and clock changes', () => {
  test('a zone the file defines (VTIMEZONE), under a name that is no IANA name, is read from its definition across the change', () => {
    const weekly = event(
      'UID:w-europe@example.com',
      'DTSTART;TZID=W. Europe Standard Time:20260323T090000',
      'DTEND;TZID=W. Europe Standard Time:20260323T093000',
      'RRULE:FREQ=WEEKLY;COUNT=2',
    );
    expect(busy(ics(...W_EUROPE, ...weekly))).toEqual([
      ['2026-03-23T08:00Z', '2026-03-23T08:30Z'],
      ['2026-03-30T07:00Z', '2026-03-30T07:30Z'],
    ]);
  });

  test.each([
    ['America/New_York', '20260306T090000', '2026-03-06T14:00Z', '2026-03-13T13:00Z'],
    ['Europe/London', '20260327T090000', '2026-03-27T09:00Z', '2026-04-03T08:00Z'],
    ['Europe/Paris', '20261023T090000', '2026-10-23T07:00Z', '2026-10-30T08:00Z'],
    ['America/New_York', '20261030T090000', '2026-10-30T13:00Z', '2026-11-06T14:00Z'],
  ])(
    'a zone only named by TZID (%s) is read as its IANA zone, the week before and after the change',
    (zone, start, first, second) => {
      const weekly = event(
        'UID:named@example.com',
        `DTSTART;TZID=${zone}:${start}`,
        'DURATION:PT1H',
        'RRULE:FREQ=WEEKLY;COUNT=2',
      );
      const year = { start: Date.parse('2026-01-01T00:00:00Z'), end: Date.parse('2027-01-01T00:00:00Z') };
      expect(busy(ics(...weekly), 'UTC', year).map(([from]) => from)).toEqual([first, second]);
    },
  );

  test('a time in a repeated hour is its first occurrence; one in the skipped hour is read with the offset before', () => {
    const repeated = event(
      'UID:repeated@example.com',
      'DTSTART;TZID=America/New_York:20261101T013000',
      'DURATION:PT30M',
    );
    const skipped = event('UID:skipped@example.com', 'DTSTART;TZID=America/New_York:20260308T023000', 'DURATION:PT30M');
    const year = { start: Date.parse('2026-01-01T00:00:00Z'), end: Date.parse('2027-01-01T00:00:00Z') };
    expect(busy(ics(...repeated, ...skipped), 'UTC', year)).toEqual([
      ['2026-03-08T07:30Z', '2026-03-08T08:00Z'],
      ['2026-11-01T05:30Z', '2026-11-01T06:00Z'],
    ]);
  });

  test.each([
    ['Europe/London', '2026-03-10T09:00Z'],
    ['Europe/Paris', '2026-03-10T08:00Z'],
  ])('a floating time, and a zone neither defined nor known, are the owner’s (%s)', (timeZone, start) => {
    const floating = event('UID:floating@example.com', 'DTSTART:20260310T090000', 'DTEND:20260310T093000');
    const unknown = event(
      'UID:unknown@example.com',
      'DTSTART;TZID=Office Time:20260310T090000',
      'DTEND;TZID=Office Time:20260310T093000',
    );
    expect(busy(ics(...floating, ...unknown), timeZone).map(([from]) => from)).toEqual([start]);
  });
});

describe('busyFromIcs: what comes out', () => {
  test('intervals only, merged and sorted, clipped to the range', () => {
    const text = ics(
      ...event(
        'UID:b@example.com',
        'DTSTART:20260310T100000Z',
        'DTEND:20260310T110000Z',
        'SUMMARY:Dentist',
        'LOCATION:High Street',
      ),
      ...event('UID:a@example.com', 'DTSTART:20260310T093000Z', 'DTEND:20260310T103000Z', 'SUMMARY:Call with a client'),
      ...event('UID:c@example.com', 'DTSTART:20260310T110000Z', 'DTEND:20260310T113000Z'),
      ...event('UID:d@example.com', 'DTSTART:20260228T220000Z', 'DTEND:20260301T020000Z'),
      ...event('UID:e@example.com', 'DTSTART:20260601T090000Z', 'DTEND:20260601T100000Z'),
    );
    const result = busyFromIcs(text, SPRING, 'Europe/London');
    expect(shown(result)).toEqual([
      ['2026-03-01T00:00Z', '2026-03-01T02:00Z'],
      ['2026-03-10T09:30Z', '2026-03-10T11:30Z'],
    ]);
    expect(result.every((interval) => Object.keys(interval).join() === 'start,end')).toBe(true);
    expect(JSON.stringify(result)).not.toMatch(/Dentist|client|High Street/);
  });

  test('a file with an event ical.js cannot read throws: read in part, it could offer a busy time', () => {
    const broken = event('UID:broken@example.com', 'DTSTART:20260310T090000Z', 'RRULE:FREQ=SOMETIMES');
    const fine = event('UID:fine@example.com', 'DTSTART:20260311T090000Z', 'DTEND:20260311T100000Z');
    expect(() => busy(ics(...broken, ...fine))).toThrow();
  });

  test('an event that repeats too often before the range to be walked to it throws rather than drop its times', () => {
    // Every minute since 2020: tens of thousands of occurrences before spring 2026.
    const often = event('UID:often@example.com', 'DTSTART:20200101T000000Z', 'DURATION:PT1M', 'RRULE:FREQ=MINUTELY');
    expect(() => busy(ics(...often))).toThrow(/repeats more than/);
  });

  test('a text that is not iCalendar throws', () => {
    expect(() => busyFromIcs('<!doctype html><title>Sign in</title>', SPRING, 'Europe/London')).toThrow();
  });
});

describe('fetchedAddress', () => {
  test.each([
    ['webcal://p01-caldav.icloud.com/published/2/secret', 'https://p01-caldav.icloud.com/published/2/secret'],
    ['WEBCAL://example.com/basic.ics', 'https://example.com/basic.ics'],
    [
      'https://calendar.google.com/calendar/ical/secret/basic.ics',
      'https://calendar.google.com/calendar/ical/secret/basic.ics',
    ],
    ['http://127.0.0.1:8080/basic.ics', 'http://127.0.0.1:8080/basic.ics'],
  ])('%s is read at %s', (address, fetched) => {
    expect(fetchedAddress(address)).toBe(fetched);
  });
});
