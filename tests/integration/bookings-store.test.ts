/**
 * The store's rules of booked calls, on the embedded store and on Upstash Redis: a time claimed
 * once however many ask at once, overlapping times never both booked, the daily cap and the
 * limit per address under the same race, and a cancellation or a move that frees, claims and
 * stops what it must in one step.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import {
  cellsOf,
  UPCOMING_PER_EMAIL,
  type BookingInput,
  type BookingOutbox,
} from '../../functions/_lib/store/bookings';
import type { NewOutboxEntry } from '../../functions/_lib/store/types';
import type { Booking } from '../../src/shared/records';
import { useStores } from '../support/store-setup';
import type { Store } from '../support/stores';

const stores = useStores();
const NOW = new Date('2026-12-01T09:00:00Z');
const MINUTE = 60_000;

/** A call of 30 minutes with a 15-minute buffer, starting `start`, by `email`. */
function callAt(start: string, email = 'ada@example.com', day = start.slice(0, 10)): BookingInput {
  const at = Date.parse(start);
  const id = crypto.randomUUID();
  return {
    id,
    leadId: crypto.randomUUID(),
    start: new Date(at).toISOString(),
    end: new Date(at + 30 * MINUTE).toISOString(),
    heldUntil: new Date(at + 45 * MINUTE).toISOString(),
    day,
    name: 'Ada Lovelace',
    email,
    timeZone: 'America/New_York',
    uid: `${id}@example.com`,
    tokenHash: 'hash',
    page: '/book',
    attribution: { utm_campaign: 'winter' },
  };
}

/** The person's e-mail and a reminder due a day before the call, as the endpoint queues them. */
function outbox(booking: Booking): BookingOutbox {
  const mail = (kind: NewOutboxEntry['kind'], dueAt?: string): NewOutboxEntry => ({
    id: crypto.randomUUID(),
    kind,
    ref: booking.leadId,
    to: booking.email,
    message: { channel: 'mail', to: [booking.email], subject: kind, text: kind, html: `<p>${kind}</p>` },
    ...(dueAt ? { dueAt } : {}),
  });
  if (booking.status === 'cancelled') return { entries: [mail('invitation')] };
  const reminder = mail('reminder', new Date(Date.parse(booking.start) - 24 * 3600_000).toISOString());
  return { entries: [mail('invitation'), reminder], reminder: reminder.id };
}

describe.each(stores.backends)('booked calls on %s', (_name, backend) => {
  let store: Store;
  beforeEach(async () => {
    store = await stores.fresh(backend);
  });

  test('twenty requests for one time at once give one booking; the nineteen others find it taken', async () => {
    // Each request through a store of its own, as function instances each have their client.
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        backend.open().createBooking(callAt('2026-12-08T10:00:00Z', `person${index}@example.com`), NOW, { outbox }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.kind === 'booked')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.kind === 'taken')).toHaveLength(19);
    expect(await store.bookedCalls(new Date('2026-12-08T00:00:00Z'), new Date('2026-12-09T00:00:00Z'))).toHaveLength(1);
  });

  test('of overlapping times asked for at once, never both are booked: the buffer after a call holds too', async () => {
    // 10:00 holds until 10:45; 10:30 overlaps its buffer, 10:15 its call; 10:45 is free of both.
    const times = ['10:00', '10:30', '10:15', '09:30'];
    // Five rounds, each on a day of its own.
    for (const day of ['2026-12-08', '2026-12-09', '2026-12-10', '2026-12-11', '2026-12-14']) {
      const outcomes = await Promise.all(
        times.map((time, index) =>
          backend.open().createBooking(callAt(`${day}T${time}:00Z`, `p${index}${day}@example.com`), NOW, { outbox }),
        ),
      );
      const booked = outcomes.flatMap((outcome) => (outcome.kind === 'booked' ? [outcome.record] : []));
      const apart = (a: Booking, b: Booking) =>
        Date.parse(a.start) >= Date.parse(b.heldUntil) || Date.parse(b.start) >= Date.parse(a.heldUntil);
      for (const a of booked) for (const b of booked) if (a !== b) expect(apart(a, b)).toBe(true);
      expect(booked.length).toBeGreaterThanOrEqual(1);
      const calls = await store.bookedCalls(new Date(`${day}T00:00:00Z`), new Date(`${day}T23:59:59Z`));
      expect(calls.filter((call) => call.start.startsWith(day))).toHaveLength(booked.length);
    }
  });

  test('a call just after another one’s buffer is booked beside it', async () => {
    expect((await store.createBooking(callAt('2026-12-08T10:00:00Z'), NOW, { outbox })).kind).toBe('booked');
    expect((await store.createBooking(callAt('2026-12-08T10:45:00Z', 'bo@example.com'), NOW, { outbox })).kind).toBe(
      'booked',
    );
    expect((await store.createBooking(callAt('2026-12-08T09:15:00Z', 'cy@example.com'), NOW, { outbox })).kind).toBe(
      'booked',
    );
  });

  test('the daily cap holds when more than it ask at once for different times of one day', async () => {
    const outcomes = await Promise.all(
      ['09:00', '10:00', '11:00', '12:00', '14:00'].map((time, index) =>
        backend
          .open()
          .createBooking(callAt(`2026-12-08T${time}:00Z`, `p${index}@example.com`), NOW, { outbox, dailyCap: 2 }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.kind === 'booked')).toHaveLength(2);
    expect(outcomes.filter((outcome) => outcome.kind === 'day-full')).toHaveLength(3);
  });

  test(`one address has at most ${UPCOMING_PER_EMAIL} calls to come, even when it asks for more at once`, async () => {
    const outcomes = await Promise.all(
      ['2026-12-08T09:00:00Z', '2026-12-09T09:00:00Z', '2026-12-10T09:00:00Z', '2026-12-11T09:00:00Z'].map((start) =>
        backend.open().createBooking(callAt(start), NOW, { outbox }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.kind === 'booked')).toHaveLength(UPCOMING_PER_EMAIL);
    expect(outcomes.filter((outcome) => outcome.kind === 'too-many')).toHaveLength(4 - UPCOMING_PER_EMAIL);
  });

  test('a booking makes its lead: form booking, status Call booked, with its first touch, listed and counted', async () => {
    const input = callAt('2026-12-08T10:00:00Z');
    const outcome = await store.createBooking(input, NOW, { outbox });
    expect(outcome.kind).toBe('booked');
    const [lead] = await store.listLeads({ offset: 0, limit: 10 });
    expect(lead).toMatchObject({
      id: input.leadId,
      source: 'booking',
      status: 'booked',
      page: '/book',
      attribution: { utm_campaign: 'winter' },
    });
    expect((await store.leadStatusCounts()).booked).toBe(1);
    // What the Visits figures and the weekly letter count leads from, by their first touch.
    const { leads } = await store.createdBetween(NOW.getTime() - 1000, NOW.getTime() + 1000, 10);
    expect(leads.map((listed) => listed.attribution?.utm_campaign)).toEqual(['winter']);
  });

  test('the same submission sent twice books once and answers the first booking', async () => {
    const options = { outbox, idempotencyKey: 'bookings-create:key-1', bodyDigest: 'digest' };
    const first = await store.createBooking(callAt('2026-12-08T10:00:00Z'), NOW, options);
    const again = await store.createBooking(callAt('2026-12-08T10:00:00Z'), NOW, options);
    expect(again).toMatchObject({ kind: 'booked', repeated: true });
    expect(again.kind === 'booked' && first.kind === 'booked' && again.record.id === first.record.id).toBe(true);
  });

  test('a cancellation frees the time, raises the sequence, stops the reminder and lets a second one change nothing', async () => {
    const booked = await store.createBooking(callAt('2026-12-08T10:00:00Z'), NOW, { outbox });
    if (booked.kind !== 'booked') throw new Error('not booked');
    const reminder = booked.record.reminder ?? '';
    const cancelled = await store.cancelBooking(booked.record.id, NOW, { by: 'person', outbox });
    expect(cancelled).toMatchObject({
      kind: 'booked',
      record: { status: 'cancelled', sequence: 1, cancelled: { by: 'person' } },
    });
    expect(cancelled?.record.reminder).toBeUndefined();
    const [entry] = (await store.listOutbox({ offset: 0, limit: 50 })).filter((listed) => listed.id === reminder);
    expect(entry?.status).toBe('cancelled');
    expect(await store.bookedCalls(new Date('2026-12-08T00:00:00Z'), new Date('2026-12-09T00:00:00Z'))).toEqual([]);
    // The time is free again, for anyone.
    expect((await store.createBooking(callAt('2026-12-08T10:15:00Z', 'bo@example.com'), NOW, { outbox })).kind).toBe(
      'booked',
    );
    const twice = await store.cancelBooking(booked.record.id, NOW, { by: 'owner', outbox });
    expect(twice).toMatchObject({
      kind: 'cancelled',
      record: { sequence: 1, cancelled: { by: 'person' } },
      queued: [],
    });
  });

  test('a move claims the new time, frees the old one, keeps the UID and raises the sequence', async () => {
    const booked = await store.createBooking(callAt('2026-12-08T10:00:00Z'), NOW, { outbox });
    if (booked.kind !== 'booked') throw new Error('not booked');
    const { start, end, heldUntil, day } = callAt('2026-12-08T10:30:00Z');
    // Half an hour later overlaps its own old time: that is no obstacle.
    const moved = await store.moveBooking(booked.record.id, { start, end, heldUntil, day }, NOW, { outbox });
    expect(moved).toMatchObject({ kind: 'booked', record: { start, uid: booked.record.uid, sequence: 1 } });
    expect(moved?.kind === 'booked' && moved.record.reminder !== booked.record.reminder).toBe(true);
    const calls = await store.bookedCalls(new Date('2026-12-08T00:00:00Z'), new Date('2026-12-09T00:00:00Z'));
    expect(calls.map((call) => call.start)).toEqual([start]);
    // 9:30 to 10:15 is free again; 10:30 is not.
    expect((await store.createBooking(callAt('2026-12-08T09:30:00Z', 'bo@example.com'), NOW, { outbox })).kind).toBe(
      'booked',
    );
    expect((await store.createBooking(callAt('2026-12-08T10:30:00Z', 'cy@example.com'), NOW, { outbox })).kind).toBe(
      'taken',
    );
  });

  test('a move to a time another call holds changes nothing', async () => {
    const mine = await store.createBooking(callAt('2026-12-08T10:00:00Z'), NOW, { outbox });
    await store.createBooking(callAt('2026-12-08T14:00:00Z', 'bo@example.com'), NOW, { outbox });
    if (mine.kind !== 'booked') throw new Error('not booked');
    const { start, end, heldUntil, day } = callAt('2026-12-08T14:15:00Z');
    expect(await store.moveBooking(mine.record.id, { start, end, heldUntil, day }, NOW, { outbox })).toEqual({
      kind: 'taken',
    });
    expect((await store.getBooking(mine.record.id))?.sequence).toBe(0);
  });

  test('the owner’s list has the calls to come soonest first with their leads, then the others latest first', async () => {
    const later = await store.createBooking(callAt('2026-12-09T10:00:00Z'), NOW, { outbox });
    const sooner = await store.createBooking(callAt('2026-12-08T10:00:00Z', 'bo@example.com'), NOW, { outbox });
    const gone = await store.createBooking(callAt('2026-12-10T10:00:00Z', 'cy@example.com'), NOW, { outbox });
    if (later.kind !== 'booked' || sooner.kind !== 'booked' || gone.kind !== 'booked') throw new Error('not booked');
    await store.cancelBooking(gone.record.id, NOW, { by: 'owner', outbox });
    const { upcoming, past } = await store.listBookings(NOW);
    expect(upcoming.map((booking) => booking.id)).toEqual([sooner.record.id, later.record.id]);
    expect(upcoming[0]?.lead).toMatchObject({ id: sooner.record.leadId, source: 'booking' });
    expect(past.map((booking) => booking.id)).toEqual([gone.record.id]);
  });
});

describe('cellsOf', () => {
  test.each([
    ['a call and its buffer on the five minutes', 0, 45 * MINUTE, 9],
    ['a span that starts inside a cell touches it', 2 * MINUTE, 5 * MINUTE, 1],
    ['a span that ends inside a cell touches it', 0, 6 * MINUTE, 2],
    ['nothing', 0, 0, 0],
  ])('%s', (_name, start, end, count) => {
    expect(cellsOf(start, end)).toHaveLength(count);
  });
});
