/**
 * The owner's calendar read over HTTP as it is in production, from a real server on 127.0.0.1:
 * its recurring and all-day events are no longer offered; a calendar that cannot be read (closed
 * port, an error, too slow, too large, not a calendar) throws CalendarUnavailableError without
 * its secret address; a copy serves the slots list for a few minutes, and a booking reads again.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  busyTimes,
  CALENDAR_COPY_MS,
  CALENDAR_MAX_BYTES,
  CalendarUnavailableError,
  forgetCalendarCopy,
} from '../../functions/_lib/booking/busy-calendar';
import { openTimes } from '../../functions/_lib/booking/open-times';
import { resetEnv } from '../../functions/_lib/platform/env';
import { startCalendarServer, type CalendarServer } from '../../scripts/harness/calendar-server';
import { findFreePort } from '../../scripts/harness/redis-server';
import { BookingHours } from '../../src/shared/booking';

const HOURS = BookingHours.parse({
  timeZone: 'Europe/London',
  weeklyHours: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((day) => ({
    day,
    from: '09:00',
    to: '12:30',
  })),
});
/** Monday 16 March 2026, 10:10 in London. */
const NOW = Date.parse('2026-03-16T10:10:00Z');
const RANGE = { start: NOW, end: NOW + 31 * 86_400_000 };

/** Every Tuesday 10:00–11:00 in London from 3 March (a weekly meeting), and Thursday 26 March all day (an off-site). */
const CALENDAR = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Google Inc//Google Calendar 70.9054//EN',
  'BEGIN:VEVENT',
  'UID:weekly-review@google.com',
  'DTSTART;TZID=Europe/London:20260303T100000',
  'DTEND;TZID=Europe/London:20260303T110000',
  'RRULE:FREQ=WEEKLY;BYDAY=TU',
  'SUMMARY:Weekly review',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:offsite@google.com',
  'DTSTART;VALUE=DATE:20260326',
  'DTEND;VALUE=DATE:20260327',
  'SUMMARY:Off-site',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

let server: CalendarServer;
beforeAll(async () => {
  server = await startCalendarServer(CALENDAR);
});
afterAll(() => server.stop());

function useCalendar(url: string) {
  process.env.BOOKING_BUSY_ICS_URL = url;
  resetEnv();
}
beforeEach(() => {
  forgetCalendarCopy();
  server.serve(CALENDAR);
  useCalendar(server.url);
});
afterEach(() => {
  delete process.env.BOOKING_BUSY_ICS_URL;
  resetEnv();
});

/** The offered starts of a day, as London wall times. */
function startsOn(day: string, busy: { start: number; end: number }[]) {
  const format = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit' });
  return openTimes({ hours: HOURS, busy, booked: [], now: NOW, from: day, to: day }).map((slot) =>
    format.format(Date.parse(slot.start)),
  );
}

describe('busyTimes from a calendar served over HTTP', () => {
  test('a weekly event and an all-day event are no longer offered; other days are untouched', async () => {
    const busy = await busyTimes(RANGE, { fresh: true, timeZone: 'Europe/London' });
    // Tuesdays lose 9:30 to 10:30 (a call and its buffer must end by 10:00); Thursday 26 March is gone.
    expect(startsOn('2026-03-24', busy)).toEqual(['09:00', '11:00', '11:30', '12:00']);
    expect(startsOn('2026-03-31', busy)).toEqual(['09:00', '11:00', '11:30', '12:00']);
    expect(startsOn('2026-03-26', busy)).toEqual([]);
    expect(startsOn('2026-03-25', busy)).toEqual(startsOn('2026-03-25', []));
    expect(startsOn('2026-03-25', busy)).toHaveLength(7);
  });

  test('no calendar set: no busy times, and nothing is read', async () => {
    delete process.env.BOOKING_BUSY_ICS_URL;
    resetEnv();
    const before = server.reads();
    expect(await busyTimes(RANGE, { fresh: true, timeZone: 'Europe/London' })).toEqual([]);
    expect(server.reads()).toBe(before);
  });

  test('the slots list answers from a copy; a booking reads the calendar again', async () => {
    const before = server.reads();
    const first = await busyTimes(RANGE, { fresh: false, timeZone: 'Europe/London' });
    await busyTimes({ start: RANGE.start + 3_600_000, end: RANGE.end }, { fresh: false, timeZone: 'Europe/London' });
    expect(server.reads()).toBe(before + 1);

    server.serve(CALENDAR.replace('RRULE:FREQ=WEEKLY;BYDAY=TU', 'RRULE:FREQ=WEEKLY;BYDAY=WE'));
    const fresh = await busyTimes(RANGE, { fresh: true, timeZone: 'Europe/London' });
    expect(server.reads()).toBe(before + 2);
    expect(fresh).not.toEqual(first);
    // The fresh read is the copy now.
    expect(await busyTimes(RANGE, { fresh: false, timeZone: 'Europe/London' })).toEqual(fresh);
    expect(server.reads()).toBe(before + 2);
  });
});

describe('the copy of the calendar', () => {
  afterEach(() => vi.useRealTimers());

  test.each([
    [CALENDAR_COPY_MS, 0],
    [CALENDAR_COPY_MS + 1, 1],
  ])('%i ms after a read, the slots list reads the calendar again %i times', async (later, reads) => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    await busyTimes(RANGE, { fresh: false, timeZone: 'Europe/London' });
    const before = server.reads();
    vi.setSystemTime(NOW + later);
    await busyTimes(RANGE, { fresh: false, timeZone: 'Europe/London' });
    expect(server.reads() - before).toBe(reads);
  });
});

describe('a calendar that cannot be read', () => {
  /** The error busyTimes throws, after checking that its message keeps the address secret. */
  async function failure(options: { fresh: boolean; timeoutMs?: number } = { fresh: true }) {
    const error = await busyTimes(RANGE, { timeZone: 'Europe/London', ...options }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(CalendarUnavailableError);
    const message = error instanceof Error ? error.message : '';
    expect(message).not.toContain(server.secret);
    expect(message).not.toContain('127.0.0.1');
    return message;
  }

  test('a closed port', async () => {
    useCalendar(`http://127.0.0.1:${await findFreePort()}/calendar/ical/${server.secret}/basic.ics`);
    expect(await failure()).toContain('could not be reached');
  });

  test.each([500, 404, 401])('an answer with HTTP %i', async (status) => {
    server.answer(status);
    expect(await failure()).toContain(`answered HTTP ${status}`);
  });

  test('a calendar that does not answer in time', async () => {
    server.answer('hang');
    const started = Date.now();
    expect(await failure({ fresh: true, timeoutMs: 300 })).toContain('did not answer within 0.3 s');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  test('a calendar larger than the limit', async () => {
    server.serve(CALENDAR.replace('END:VCALENDAR', `X-PADDING:${'x'.repeat(CALENDAR_MAX_BYTES)}\r\nEND:VCALENDAR`));
    expect(await failure()).toContain('is larger than');
  });

  test('a page that is no calendar (a login page)', async () => {
    server.serve('<!doctype html><title>Sign in</title>');
    expect(await failure()).toContain('did not answer with an iCalendar file');
  });

  test('a calendar ical.js cannot read, whose error might quote it', async () => {
    server.serve(CALENDAR.replace('RRULE:FREQ=WEEKLY;BYDAY=TU', 'RRULE:FREQ=NEVER;X-NOTE=Weekly review'));
    const message = await failure();
    expect(message).toContain('could not be read as iCalendar');
    expect(message).not.toContain('Weekly review');
  });

  test('a failed read is not kept: the next request reads again and succeeds', async () => {
    server.answer(500);
    await failure({ fresh: false });
    server.answer(200);
    const before = server.reads();
    expect(await busyTimes(RANGE, { fresh: false, timeZone: 'Europe/London' })).not.toEqual([]);
    expect(server.reads()).toBe(before + 1);
  });
});
