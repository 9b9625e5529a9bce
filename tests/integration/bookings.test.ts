/**
 * Booking a call through the functions, with real Requests on the embedded store and on Upstash
 * Redis: the open times, a booking and its answers to bad input, twenty requests for one time at
 * once, the owner's calendar unreachable at the moment of booking, the person's link (a look
 * changes nothing; a press cancels or moves), and the owner's list and cancellation.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { UPCOMING_PER_CLIENT } from '../../functions/_lib/store/bookings';
import { forgetCalendarCopy } from '../../functions/_lib/booking/busy-calendar';
import adminBookings from '../../functions/admin-bookings';
import bookingSlots from '../../functions/booking-slots';
import bookingsCreate from '../../functions/bookings-create';
import bookingsManage from '../../functions/bookings-manage';
import { type BookingHours } from '../../src/shared/booking';
import { BOOKING_HOURS_FILE, type BookingSlots, type BookingView } from '../../src/shared/booking-api';
import type { AdminBookings } from '../../src/shared/api-responses';
import { PROOF_OF_WORK_FIELD } from '../../src/shared/proof-of-work-names';
import { call, logIn } from '../support/admin-calls';
import { useBuildFiles } from '../support/build-files';
import { DESK_ENV, PASSWORD } from '../support/lead-desk';
import { proofFromHandler } from '../support/solved-proofs';
import { useStores } from '../support/store-setup';
import type { Store } from '../support/stores';

/** Open every day, all day, with no notice: the first open time is the next half hour. */
const HOURS: BookingHours = {
  timeZone: 'Europe/London',
  weeklyHours: (['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const).map((day) => ({
    day,
    from: '00:00',
    to: '24:00',
  })),
  meetingMinutes: 30,
  bufferMinutes: 15,
  minimumNoticeHours: 0,
  bookingWindowDays: 30,
  slotIntervalMinutes: 30,
  daysOff: [],
};

useBuildFiles({ [BOOKING_HOURS_FILE]: HOURS });
const stores = useStores();

/** A calendar server whose answer a case sets: `null` answers 500. */
let calendar: string | null = '';
let calendarServer: Server;
let calendarUrl = '';
beforeAll(async () => {
  calendarServer = createServer((_request, response) => {
    if (calendar === null) response.writeHead(500).end();
    else response.writeHead(200, { 'content-type': 'text/calendar' }).end(calendar);
  });
  await new Promise<void>((resolve) => calendarServer.listen(0, '127.0.0.1', resolve));
  calendarUrl = `http://127.0.0.1:${(calendarServer.address() as AddressInfo).port}/owner.ics`;
});
afterAll(() => new Promise<void>((resolve) => calendarServer.close(() => resolve())));

const EMPTY_CALENDAR = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nEND:VCALENDAR\r\n';

/** An address of its own for each request, so that the rate limit of one does not meet another's. */
let client = 0;
const nextIp = () => `203.0.113.${(client++ % 250) + 1}`;

async function answer(response: Response) {
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
}

const slots = async (query = '') => answer(await call(bookingSlots, `/api/booking/slots${query}`, { ip: nextIp() }));

const openTimes = async () => ((await slots()).body as unknown as BookingSlots).slots;

/**
 * An open time two hours ahead: the first ones (open all day, no notice) would start while a case
 * runs, and stop being offered, if its clock crossed the half hour.
 */
async function aheadTime() {
  const time = (await openTimes())[4];
  if (!time) throw new Error('no open time two hours ahead');
  return time;
}

/** POST /api/bookings as the booking page sends it, with a freshly solved proof of work unless it brings one. */
async function book(
  fields: Record<string, unknown>,
  proof?: string,
  { ip = nextIp(), headers = {} }: { ip?: string; headers?: Record<string, string> } = {},
) {
  const body = {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    timeZone: 'America/New_York',
    page: '/book',
    ...fields,
    [PROOF_OF_WORK_FIELD]: proof ?? (await proofFromHandler()),
  };
  return answer(
    await call(bookingsCreate, '/api/bookings', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      ip,
    }),
  );
}

/** The secret of a booking's link, as its invitation carries it. */
async function tokenOf(store: Store, id: string): Promise<string> {
  const entries = await store.listOutbox({ offset: 0, limit: 100 });
  for (const entry of entries) {
    if (entry.ref !== id || entry.kind !== 'invitation' || !('text' in entry.message)) continue;
    const token = /[?&]token=([A-Za-z0-9_-]+)/.exec(entry.message.text)?.[1];
    if (token) return token;
  }
  throw new Error(`no invitation of ${id} carries a link`);
}

const manage = async (id: string, action: string, body: Record<string, unknown>) =>
  answer(
    await call(bookingsManage, `/api/bookings/${id}/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      params: { id, action },
      ip: nextIp(),
    }),
  );

describe.each(stores.backends)('booking a call on %s', (_name, backend) => {
  let store: Store;
  beforeEach(async () => {
    calendar = EMPTY_CALENDAR;
    forgetCalendarCopy();
    store = await stores.fresh(backend, {
      ...DESK_ENV,
      SITE_LOCAL_RUN: 'true',
      LOCAL_STORE_DIR: stores.folder(),
      RATE_LIMIT_PER_MINUTE: '1000',
      BOOKING_BUSY_ICS_URL: calendarUrl,
      LEADS_NOTIFY_TO: 'owner@example.com',
    });
  });

  test('twenty requests for one time at once give one booking and nineteen 409s', async () => {
    const first = await aheadTime();
    const proofs = await Promise.all(Array.from({ length: 20 }, () => proofFromHandler()));
    const answers = await Promise.all(
      proofs.map((proof, index) => book({ start: first.start, email: `person${index}@example.com` }, proof)),
    );
    const statuses = answers.map((one) => one.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    expect(answers.find((one) => one.status === 409)?.body.error).toMatch(/taken|no longer available/);
    expect((await store.listBookings(new Date())).upcoming).toHaveLength(1);
    expect((await openTimes()).map((slot) => slot.start)).not.toContain(first.start);
  });

  test('a booking answers 201 with its times, and makes a lead of form booking, status Call booked', async () => {
    const first = await aheadTime();
    const { status, body } = await book({ start: first?.start, company: 'Analytical Engines', notes: 'Invoices' });
    expect(status).toBe(201);
    expect(body).toEqual({ id: expect.any(String), start: first?.start, end: first?.end });
    const [lead] = await store.listLeads({ offset: 0, limit: 5 });
    expect(lead).toMatchObject({ id: body.id, source: 'booking', status: 'booked', company: 'Analytical Engines' });
  });

  test.each([
    ['a time that is not offered', { start: 'off the grid' }, 409],
    ['no time at all', { start: undefined }, 422],
    ['a time that is not UTC', { start: '2030-01-01T10:00:00+01:00' }, 422],
    ['no name', { name: '' }, 422],
    ['a wrong e-mail', { email: 'ada@' }, 422],
    ['a time zone that is none', { timeZone: 'Mars/Olympus' }, 422],
  ])('%s answers %i, saying what is wrong', async (_case, fields, status) => {
    const first = await aheadTime();
    // Seven minutes past an open time: a time no one is offered.
    const offGrid = new Date(Date.parse(first.start) + 7 * 60_000).toISOString();
    const answered = await book({
      start: first.start,
      ...fields,
      ...('start' in fields && fields.start === 'off the grid' ? { start: offGrid } : {}),
    });
    expect(answered.status).toBe(status);
    expect(answered.body.error).toEqual(expect.any(String));
    if (status === 422 && 'fields' in answered.body) expect(Object.keys(answered.body.fields ?? {})).not.toEqual([]);
    expect((await store.listBookings(new Date())).upcoming).toEqual([]);
  });

  test('a body too large answers 413', async () => {
    const first = await aheadTime();
    expect((await book({ start: first?.start, notes: 'x'.repeat(40_000) })).status).toBe(413);
  });

  test('with the owner’s calendar unreachable at the moment of booking, it answers 503 and keeps nothing', async () => {
    const first = await aheadTime();
    calendar = null;
    forgetCalendarCopy();
    const { status, body } = await book({ start: first?.start });
    expect(status).toBe(503);
    expect(body.error).toMatch(/calendar/);
    expect(await store.listLeads({ offset: 0, limit: 5 })).toEqual([]);
  });

  test('the person’s link: a look changes nothing, a press cancels, and the time is offered again', async () => {
    const first = await aheadTime();
    const { body } = await book({ start: first?.start });
    const id = String(body.id);
    const token = await tokenOf(store, id);
    expect((await manage(id, 'view', { token: `${token.slice(0, -2)}xx` })).status).toBe(404);
    const looked = await manage(id, 'view', { token });
    expect(looked).toMatchObject({ status: 200, body: { id, status: 'booked', start: first?.start } });
    expect((await store.getBooking(id))?.sequence).toBe(0);
    expect((await openTimes()).map((slot) => slot.start)).not.toContain(first?.start);

    const cancelled = await manage(id, 'cancel', { token });
    expect(cancelled.body).toMatchObject({ status: 'cancelled' } satisfies Partial<BookingView>);
    expect((await store.getBooking(id))?.sequence).toBe(1);
    expect((await openTimes()).map((slot) => slot.start)).toContain(first?.start);
    expect((await manage(id, 'move', { token, start: first?.start })).status).toBe(409);
  });

  test('the person’s link moves the call to another open time, keeping its UID', async () => {
    const [first, , third] = (await openTimes()).slice(4);
    const { body } = await book({ start: first?.start });
    const id = String(body.id);
    const token = await tokenOf(store, id);
    const uid = (await store.getBooking(id))?.uid;
    const moved = await manage(id, 'move', { token, start: third?.start });
    expect(moved).toMatchObject({ status: 200, body: { start: third?.start, status: 'booked' } });
    expect(await store.getBooking(id)).toMatchObject({ uid, sequence: 1, start: third?.start });
    const open = (await openTimes()).map((slot) => slot.start);
    expect(open).toContain(first?.start);
    expect(open).not.toContain(third?.start);
  });

  test('a call more than a day ahead gets its reminder; cancelled from the link, the reminder is never sent', async () => {
    // Open all day every half hour: the 61st time is 30 hours ahead.
    const later = (await openTimes())[60];
    const { body } = await book({ start: later?.start });
    const id = String(body.id);
    const reminderOf = async () =>
      (await store.listOutbox({ offset: 0, limit: 100 })).find(
        (entry) => entry.ref === id && entry.kind === 'reminder',
      );
    const waiting = await reminderOf();
    expect(waiting).toMatchObject({ status: 'pending' });
    expect(Date.parse(waiting?.nextAttemptAt ?? '')).toBe(Date.parse(later?.start ?? '') - 24 * 3600_000);
    await manage(id, 'cancel', { token: await tokenOf(store, id) });
    expect(await reminderOf()).toMatchObject({ status: 'cancelled' });
  });

  test('a retry of a stored booking (the same Idempotency-Key) answers the first booking, not 409', async () => {
    const first = await aheadTime();
    const headers = { 'Idempotency-Key': crypto.randomUUID() };
    const once = await book({ start: first.start }, undefined, { headers });
    const again = await book({ start: first.start }, undefined, { headers });
    expect(once.status).toBe(201);
    expect(again).toEqual(once);
    expect((await store.listBookings(new Date())).upcoming).toHaveLength(1);
  });

  test(`one network books at most ${UPCOMING_PER_CLIENT} calls to come, whatever addresses it gives`, async () => {
    // An hour apart: each call and its buffer clear of the next.
    const times = (await openTimes()).slice(4).filter((_, index) => index % 2 === 0);
    const statuses: number[] = [];
    for (const [index, time] of times.slice(0, UPCOMING_PER_CLIENT + 1).entries())
      statuses.push(
        (await book({ start: time.start, email: `p${index}@example.com` }, undefined, { ip: '198.51.100.7' })).status,
      );
    expect(statuses).toEqual([...Array.from({ length: UPCOMING_PER_CLIENT }, () => 201), 409]);
  });

  test('a call that has begun can no longer be cancelled or moved from its link', async () => {
    const { body } = await book({ start: (await aheadTime()).start });
    const id = String(body.id);
    const token = await tokenOf(store, id);
    const begun = new Date(Date.now() + 3 * 3600_000);
    vi.useFakeTimers({ now: begun, toFake: ['Date'] });
    try {
      expect((await manage(id, 'cancel', { token })).status).toBe(409);
    } finally {
      vi.useRealTimers();
    }
    expect((await store.getBooking(id))?.status).toBe('booked');
  });

  test('the owner lists calls (401 without a session) and cancels one with a message', async () => {
    const first = await aheadTime();
    const { body } = await book({ start: first?.start });
    const id = String(body.id);
    expect((await call(adminBookings, '/api/admin/bookings')).status).toBe(401);
    const cookie = await logIn(PASSWORD);
    const listed = (await (
      await call(adminBookings, '/api/admin/bookings', { headers: { cookie } })
    ).json()) as AdminBookings;
    expect(listed.upcoming.map((booking) => booking.id)).toEqual([id]);
    expect(listed.upcoming[0]).not.toHaveProperty('tokenHash');
    expect(listed.upcoming[0]?.lead).toMatchObject({ source: 'booking' });
    const cancelled = await call(adminBookings, `/api/admin/bookings/${id}/cancel`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: 'http://localhost:4321' },
      body: JSON.stringify({ message: 'Something came up: could we find another time?' }),
      params: { id },
    });
    expect(cancelled.status).toBe(200);
    expect(await store.getBooking(id)).toMatchObject({ status: 'cancelled', cancelled: { by: 'owner' } });
  });
});

describe('GET /api/booking/slots', () => {
  beforeEach(async () => {
    calendar = EMPTY_CALENDAR;
    forgetCalendarCopy();
    await stores.fresh(stores.backends[0][1], {
      SITE_LOCAL_RUN: 'true',
      LOCAL_STORE_DIR: stores.folder(),
      BOOKING_BUSY_ICS_URL: calendarUrl,
    });
  });

  test('answers the owner’s zone and the open times of the booking window, in UTC', async () => {
    const { status, body } = await slots();
    expect(status).toBe(200);
    const answer = body as unknown as BookingSlots;
    expect(answer.timeZone).toBe('Europe/London');
    expect(answer.slots.length).toBeGreaterThan(1000);
    expect(answer.slots.every((slot) => slot.start.endsWith('Z') && slot.end.endsWith('Z'))).toBe(true);
  });

  test('answers 503 with a message when the owner’s calendar cannot be read', async () => {
    calendar = null;
    const { status, body } = await slots();
    expect(status).toBe(503);
    expect(body.error).toMatch(/calendar/);
  });
});
