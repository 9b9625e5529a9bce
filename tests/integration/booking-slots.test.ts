/**
 * GET /api/booking/slots, called with real Requests on a fixed clock, with the build's copy of
 * the owner's hours, a real store and a calendar served over HTTP: the open times of the window
 * or of the days asked, never cached; the calls booked in the store and the calendar's events left
 * out; a malformed range refused naming the parameter; a calendar that cannot be read, a 503.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import bookingSlots from '../../functions/booking-slots';
import { forgetCalendarCopy } from '../../functions/_lib/booking/busy-calendar';
import type { BookingInput } from '../../functions/_lib/store/bookings';
import { createContext } from '../../scripts/harness/functions';
import { startCalendarServer, type CalendarServer } from '../../scripts/harness/calendar-server';
import { findFreePort } from '../../scripts/harness/redis-server';
import { BOOKING_HOURS_FILE, BOOKING_SLOTS_PATH, type BookingSlots } from '../../src/shared/booking-api';
import { hoursWith } from '../support/booking-fixtures';
import { useBuildFiles } from '../support/build-files';
import { addEnv, useStores } from '../support/store-setup';

/** The owner's hours as content/booking/hours.yaml has them. */
const HOURS = hoursWith();

/** Monday 14 December 2026, 10:10 in London (GMT, so UTC too). */
const NOW = new Date('2026-12-14T10:10:00Z');

useBuildFiles({ [BOOKING_HOURS_FILE]: HOURS });
const stores = useStores();

let calendar: CalendarServer;
beforeAll(async () => {
  calendar = await startCalendarServer();
});
afterAll(() => calendar.stop());

beforeEach(() => {
  // Only the clock is fixed: the store's and the calendar's timers run as ever.
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  forgetCalendarCopy();
  addEnv({ SITE_LOCAL_RUN: 'true', LOCAL_STORE_DIR: stores.folder() });
});
afterEach(() => {
  vi.useRealTimers();
  delete process.env.BOOKING_BUSY_ICS_URL;
});

async function slots(query = '', method = 'GET') {
  const response = await bookingSlots(
    new Request(`http://localhost${BOOKING_SLOTS_PATH}${query}`, { method }),
    createContext({ ip: '203.0.113.9' }),
  );
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as BookingSlots & { error?: string },
  };
}

const startsOn = (body: BookingSlots, day: string) =>
  body.slots.filter((slot) => slot.start.startsWith(day)).map((slot) => slot.start.slice(11, 16));

describe('GET /api/booking/slots', () => {
  test('answers the open times from tomorrow (24 hours’ notice) to the end of the 30-day window, never to be cached', async () => {
    const { status, headers, body } = await slots();
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('no-store');
    expect(body.timeZone).toBe('Europe/London');
    expect(body.meetingMinutes).toBe(30);
    expect(body.slots[0]).toEqual({ start: '2026-12-15T10:30:00.000Z', end: '2026-12-15T11:00:00.000Z' });
    expect(body.slots.at(-1)).toEqual({ start: '2027-01-13T10:00:00.000Z', end: '2027-01-13T10:30:00.000Z' });
    // 17 whole days of 14 times, the rest of tomorrow and the window's last morning; no day off.
    expect(body.slots).toHaveLength(17 * 14 + 11 + 3);
    for (const day of ['2026-12-24', '2026-12-25', '2026-12-26', '2027-01-01']) expect(startsOn(body, day)).toEqual([]);
  });

  test('answers the days asked for, both included', async () => {
    const { status, body } = await slots('?from=2026-12-21&to=2026-12-22');
    expect(status).toBe(200);
    expect(body.slots).toHaveLength(28);
    expect(startsOn(body, '2026-12-21').slice(0, 3)).toEqual(['09:00', '09:30', '10:00']);
  });

  test.each([
    ['?from=2026-12-1', 'from must be a day written YYYY-MM-DD'],
    ['?to=2026-02-30', 'to must be a day that exists'],
    ['?from=2026-12-22&to=2026-12-21', 'from (2026-12-22) is after to (2026-12-21): give the earlier day first'],
    ['?from=2026-12-15&to=2027-03-15', 'to (2027-03-15) is more than 90 days after from (2026-12-15)'],
    ['?day=2026-12-15', 'Unknown query parameter day; use from and to'],
    ['?from=2026-12-15&from=2026-12-16', 'Give from only once'],
  ])('%s answers 400: %s', async (query, error) => {
    const { status, body } = await slots(query);
    expect(status).toBe(400);
    expect(body.error).toBe(error);
  });

  test('days outside the booking window have no times, and nothing is read for them', async () => {
    addEnv({ BOOKING_BUSY_ICS_URL: calendar.url });
    const before = calendar.reads();
    const { status, body } = await slots('?from=2027-06-01&to=2027-06-30');
    expect(status).toBe(200);
    expect(body.slots).toEqual([]);
    expect(calendar.reads()).toBe(before);
  });

  test('90 days at most is accepted', async () => {
    expect((await slots('?from=2026-12-15&to=2027-03-14')).status).toBe(200);
  });

  test('answers 405 to anything but GET', async () => {
    const { status, headers } = await slots('', 'POST');
    expect(status).toBe(405);
    expect(headers.get('allow')).toBe('GET');
  });
});

describe.each(stores.backends)('calls booked on %s', (_name, backend) => {
  /** A 30-minute call booked at `start`, with its 15-minute buffer. */
  function callAt(start: string): BookingInput {
    const at = Date.parse(start);
    const id = crypto.randomUUID();
    return {
      id,
      leadId: id,
      start: new Date(at).toISOString(),
      end: new Date(at + 30 * 60_000).toISOString(),
      heldUntil: new Date(at + 45 * 60_000).toISOString(),
      day: start.slice(0, 10),
      name: 'Ada Lovelace',
      email: `${id}@example.com`,
      timeZone: 'America/New_York',
      uid: `${id}@example.com`,
      tokenHash: 'hash',
    };
  }

  test('are not offered, nor the times their buffer holds', async () => {
    const store = await stores.fresh(backend, { LOCAL_STORE_DIR: stores.folder() });
    for (const start of ['2026-12-16T10:00:00Z', '2026-12-16T14:00:00Z'])
      expect((await store.createBooking(callAt(start), NOW, { outbox: () => ({ entries: [] }) })).kind).toBe('booked');
    const { body } = await slots('?from=2026-12-16&to=2026-12-16');
    expect(startsOn(body, '2026-12-16')).toEqual([
      ...['09:00', '11:00', '11:30', '12:00'],
      ...['15:00', '15:30', '16:00', '16:30'],
    ]);
  });
});

describe('the owner’s calendar', () => {
  const event = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'BEGIN:VEVENT',
    'UID:dentist@example.com',
    'DTSTART;TZID=Europe/London:20261217T133000',
    'DTEND;TZID=Europe/London:20261217T150000',
    'SUMMARY:Dentist',
    'END:VEVENT',
    'END:VCALENDAR',
  ].join('\r\n');

  beforeEach(() => calendar.serve(event));

  test('its busy times are not offered', async () => {
    addEnv({ BOOKING_BUSY_ICS_URL: calendar.url });
    const { status, body } = await slots('?from=2026-12-17&to=2026-12-17');
    expect(status).toBe(200);
    expect(startsOn(body, '2026-12-17').filter((time) => time >= '13:00')).toEqual([
      '15:00',
      '15:30',
      '16:00',
      '16:30',
    ]);
  });

  test.each([
    [
      'answers HTTP 500',
      async () => {
        calendar.answer(500);
        return calendar.url;
      },
    ],
    [
      'cannot be reached',
      async () => `http://127.0.0.1:${await findFreePort()}/calendar/ical/${calendar.secret}/basic.ics`,
    ],
  ])('a calendar that %s: 503, asking to try again in a minute', async (_case, address) => {
    addEnv({ BOOKING_BUSY_ICS_URL: await address() });
    const { status, headers, body } = await slots();
    expect(status).toBe(503);
    expect(body).toEqual({ error: 'The calendar cannot be read just now: please try again in a minute.' });
    expect(headers.get('retry-after')).toBe('60');
    expect(headers.get('cache-control')).toBe('no-store');
  });
});
