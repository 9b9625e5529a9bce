// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/**
 * Booked calls: a new one with its lead and deliveries, a move, a cancellation, and the lists.
 *
 * Two calls never overlap because every five minutes of time a call and its buffer hold is a key
 * (KEYS.bookingCell) that a booking claims only where absent, all of its cells in one commit: of
 * any number of requests at once for overlapping times, one commits and the others find a cell
 * taken. The daily cap and the limit per address are values read and written in the same commit,
 * so they hold under the same race.
 */
import type { Booking, Lead } from '../../../src/shared/records';
import { parse, parsed, transact, type Backend, type Values, type Write } from './backend-contract';
import { KEYS } from './keys';
import { listed } from './lead-lists';
import { deliveriesOf, queue, queueKeys } from './outbox';
import { cancelled as cancelledEntry, dueIndex } from './outbox-state';
import { admit, repeatOf, submissionKeys } from './submissions';
import type { NewOutboxEntry, OutboxState, Saved, WriteOptions } from './types';

/** The size of the cells of time a booking claims. Every start, length and buffer is a multiple of it. */
export const BOOKING_CELL_MS = 5 * 60_000;

/** How many calls still to come one address may have booked. */
export const UPCOMING_PER_EMAIL = 2;

/** How many calls still to come may be booked from one network (an office may book for a few people). */
export const UPCOMING_PER_CLIENT = 4;

/** How long a cell's claim is kept past the time it covers: long enough for any list or check to see it. */
const CELL_KEPT_AFTER_MS = 24 * 3600_000;

/** The cells of time from `start` to `end` (ms): every one that the span touches. */
export function cellsOf(start: number, end: number): number[] {
  const first = Math.floor(start / BOOKING_CELL_MS);
  const last = Math.ceil(end / BOOKING_CELL_MS);
  return Array.from({ length: Math.max(last - first, 0) }, (_, index) => first + index);
}

const cellKeys = (booking: Pick<Booking, 'start' | 'heldUntil'>) =>
  cellsOf(Date.parse(booking.start), Date.parse(booking.heldUntil)).map(KEYS.bookingCell);

/** What the deliveries of a change are: the entries, and which of them is the reminder still to go. */
export interface BookingOutbox {
  entries: NewOutboxEntry[];
  reminder?: string;
}

/** A new booking as the endpoint made it: everything but what the store decides. */
export type BookingInput = Omit<Booking, 'status' | 'sequence' | 'reminder' | 'createdAt' | 'updatedAt' | 'cancelled'> &
  Pick<Lead, 'page' | 'attribution'>;

/** What a booking, a move or a cancellation comes to. */
export type BookingOutcome =
  | ({ kind: 'booked'; lead?: Lead; repeated: boolean } & Saved<Booking>)
  /** A cell of its time is held by another call. */
  | { kind: 'taken' }
  /** The owner's day has its daily cap of calls already. */
  | { kind: 'day-full' }
  /** The address has UPCOMING_PER_EMAIL calls still to come, or its network UPCOMING_PER_CLIENT. */
  | { kind: 'too-many'; upcoming: number; by: 'email' | 'client' }
  /** Cancelled already: it cannot be moved, and a second cancellation changes nothing. */
  | ({ kind: 'cancelled' } & Saved<Booking>);

/** A booking with its lead, as the owner's list shows it; without one once the owner erased it. */
export type BookingWithLead = Booking & { lead?: Lead };

/** Ids kept under a day or an address, with when their calls start (ms). */
type Calls = Record<string, number>;

const callsIn = (values: Values, key: string): Calls => parsed<Calls>(values, key) ?? {};

/** The writes that keep a table of calls: its value, or nothing at all once it is empty. */
function callsWrite(key: string, calls: Calls): Write {
  return Object.keys(calls).length === 0 ? { op: 'del', key } : { op: 'put', key, value: JSON.stringify(calls) };
}

/** The calls of a table with this one added, those over before `now` left out (a day's list is never pruned). */
function withCall(calls: Calls, id: string, start: number, prunedBefore?: number): Calls {
  const kept = Object.entries(calls).filter(([, at]) => prunedBefore === undefined || at >= prunedBefore);
  return Object.fromEntries([...kept, [id, start]]);
}

function withoutCall(calls: Calls, id: string): Calls {
  return Object.fromEntries(Object.entries(calls).filter(([other]) => other !== id));
}

/** The writes that claim a booking's cells, each holding its id until a day after its time. */
function claimWrites(booking: Booking, now: Date): Write[] {
  const ttlMs = Math.max(Date.parse(booking.heldUntil) - now.getTime(), 0) + CELL_KEPT_AFTER_MS;
  return cellKeys(booking).map((key) => ({ op: 'put', key, value: booking.id, ttlMs }));
}

/** The writes that free the cells that still hold this booking. */
function releaseWrites(booking: Booking, values: Values): Write[] {
  return cellKeys(booking)
    .filter((key) => values.get(key) === booking.id)
    .map((key) => ({ op: 'del', key }));
}

/** The writes that stop a reminder still waiting: it is marked not sent and leaves the queue. */
function stopReminder(booking: Booking, values: Values, reason: string): Write[] {
  if (!booking.reminder) return [];
  const state = parsed<OutboxState>(values, KEYS.outboxState(booking.reminder));
  if (state?.status !== 'pending') return [];
  return [
    { op: 'put', key: KEYS.outboxState(state.id), value: JSON.stringify(cancelledEntry(state, reason)) },
    { op: 'unindex', key: dueIndex(state), member: state.id },
    // A sweep that claimed it a moment ago finds no lease when it reports: its outcome is ignored,
    // so a failed attempt cannot put the reminder back in line.
    { op: 'del', key: KEYS.outboxLease(state.id) },
  ];
}

/** The keys a change of a stored booking reads besides the booking: its cells, its day, its reminder. */
function heldKeys(booking: Booking): string[] {
  return [
    ...cellKeys(booking),
    KEYS.bookingsOfDay(booking.day),
    ...(booking.reminder ? [KEYS.outboxState(booking.reminder)] : []),
  ];
}

/**
 * The keys an erasure of a lead reads for the booking made with it (which has the lead's id),
 * once it has read the booking: its cells, its day and its address.
 */
export function erasureKeys(booking: Booking): string[] {
  return [...heldKeys(booking), ...tableKeys(booking)];
}

/** The tables that count a booking's calls to come: its address's and its network's. */
function tableKeys(booking: Pick<Booking, 'email' | 'client'>): string[] {
  return [KEYS.bookingsOfEmail(booking.email), ...(booking.client ? [KEYS.bookingsOfClient(booking.client)] : [])];
}

/** The writes that take a booking out of its address's and its network's tables. */
function untabled(booking: Booking, values: Values): Write[] {
  return tableKeys(booking).map((key) => callsWrite(key, withoutCall(callsIn(values, key), booking.id)));
}

/**
 * The writes that erase a booking with its lead (an erasure request): the record, its place in
 * the list, its claim on its time, and the day's and the address's tables. Its e-mails go with
 * the lead's, whose entries they are.
 */
export function erasureWrites(booking: Booking, values: Values): Write[] {
  const dayKey = KEYS.bookingsOfDay(booking.day);
  return [
    { op: 'del', key: KEYS.booking(booking.id) },
    { op: 'unindex', key: KEYS.bookingsByStart, member: booking.id },
    ...releaseWrites(booking, values),
    callsWrite(dayKey, withoutCall(callsIn(values, dayKey), booking.id)),
    ...untabled(booking, values),
  ];
}

/** The lead a booking makes: form `booking`, status Call booked, with the page and first touch it came with. */
function leadOf(input: BookingInput, now: Date): Lead {
  const lead: Lead = {
    id: input.leadId,
    name: input.name,
    email: input.email,
    source: 'booking',
    createdAt: now.toISOString(),
    status: 'booked',
  };
  for (const field of ['emailAscii', 'company', 'notes', 'page', 'attribution'] as const)
    if (input[field] !== undefined) Object.assign(lead, { [field]: input[field] });
  return lead;
}

export function bookingVerbs(backend: Backend) {
  /** The bookings of these ids that are still stored, in order. */
  async function bookingsOf(ids: readonly string[]): Promise<Booking[]> {
    const values = await backend.get(ids.map(KEYS.booking));
    return values.flatMap((value) => parse<Booking>(value) ?? []);
  }

  /** The leads of these bookings that are still stored, with their deliveries, by id. */
  async function leadsOf(bookings: readonly Booking[]): Promise<Map<string, Lead>> {
    const ids = bookings.map((booking) => booking.leadId);
    const [values, deliveries] = await Promise.all([backend.get(ids.map(KEYS.lead)), deliveriesOf(backend, ids)]);
    return new Map(
      values.flatMap((value) => {
        const lead = parse<Lead>(value);
        return lead ? [[lead.id, { ...lead, delivery: deliveries.get(lead.id) ?? [] }] as const] : [];
      }),
    );
  }

  return {
    /**
     * Books a call and makes its lead, with the entries of `outbox`, in one step: its cells are
     * claimed where absent, the day's count and the address's calls checked and kept. A
     * submission repeated with its idempotency key gives back the first booking.
     */
    createBooking(
      input: BookingInput,
      now: Date,
      {
        dailyCap,
        outbox,
        ...options
      }: WriteOptions & { dailyCap?: number; outbox: (booking: Booking, lead: Lead) => BookingOutbox },
    ): Promise<BookingOutcome> {
      const { page: _page, attribution: _attribution, ...fields } = input;
      const made: Booking = { ...fields, status: 'booked', sequence: 0, createdAt: now.toISOString() };
      const lead = leadOf(input, now);
      const { entries, reminder } = outbox(made, lead);
      const booking: Booking = reminder ? { ...made, reminder } : made;
      const key = KEYS.booking(booking.id);
      const dayKey = KEYS.bookingsOfDay(booking.day);
      const emailKey = KEYS.bookingsOfEmail(booking.email);
      const clientKey = booking.client ? KEYS.bookingsOfClient(booking.client) : undefined;
      const cells = cellKeys(booking);
      return transact<BookingOutcome>(backend, {
        keys: [key, ...submissionKeys(options), ...cells, dayKey, ...tableKeys(booking), ...queueKeys(entries)],
        assumeAbsent: true,
        plan(values) {
          const admitted = admit(values, options, booking.id, now);
          if ('repeatOf' in admitted) {
            const first = KEYS.booking(admitted.repeatOf);
            if (!values.has(first)) return { needs: [first] };
            const stored = parsed<Booking>(values, first) ?? booking;
            return { result: { kind: 'booked', record: stored, queued: [], repeated: true } };
          }
          if (cells.some((cell) => values.get(cell) != null)) return { result: { kind: 'taken' } };
          const day = callsIn(values, dayKey);
          if (dailyCap !== undefined && Object.keys(day).length >= dailyCap) return { result: { kind: 'day-full' } };
          const start = Date.parse(booking.start);
          // The calls to come of the address and of the network, this one added, those over left out.
          const ofEmail = withCall(callsIn(values, emailKey), booking.id, start, now.getTime());
          const ofClient = clientKey && withCall(callsIn(values, clientKey), booking.id, start, now.getTime());
          const byEmail = Object.keys(ofEmail).length - 1;
          if (byEmail >= UPCOMING_PER_EMAIL) return { result: { kind: 'too-many', upcoming: byEmail, by: 'email' } };
          const byClient = ofClient ? Object.keys(ofClient).length - 1 : 0;
          if (byClient >= UPCOMING_PER_CLIENT)
            return { result: { kind: 'too-many', upcoming: byClient, by: 'client' } };
          const queuing = queue(entries, values, now);
          if ('needs' in queuing) return queuing;
          return {
            writes: [
              ...admitted.writes,
              { op: 'put', key, value: JSON.stringify(booking) },
              { op: 'index', key: KEYS.bookingsByStart, member: booking.id, score: start },
              ...claimWrites(booking, now),
              callsWrite(dayKey, withCall(day, booking.id, start)),
              callsWrite(emailKey, ofEmail),
              ...(clientKey && ofClient ? [callsWrite(clientKey, ofClient)] : []),
              { op: 'put', key: KEYS.lead(lead.id), value: JSON.stringify(lead) },
              ...listed(lead),
              ...queuing.writes,
            ],
            result: { kind: 'booked', record: booking, lead, queued: queuing.queued, repeated: false },
          };
        },
      });
    },

    /**
     * The booking a submission with this idempotency key stored, when it is a retry of one that
     * was: checked before the time is, since the first booking holds that time now.
     */
    async repeatedBooking({ idempotencyKey, bodyDigest }: WriteOptions): Promise<Booking | undefined> {
      if (!idempotencyKey) return undefined;
      const [mark] = await backend.get([KEYS.idempotency(idempotencyKey)]);
      const first = repeatOf(mark, bodyDigest);
      return first === undefined ? undefined : (await bookingsOf([first]))[0];
    },

    /** A booking by id; undefined when there is none. */
    async getBooking(id: string): Promise<Booking | undefined> {
      return (await bookingsOf([id]))[0];
    },

    /**
     * Cancels a call, by the person or the owner: its cells are freed, its day and address no
     * longer count it, its reminder is not sent, its sequence rises, and the entries of `outbox`
     * (made for it as cancelled) are queued, in one step. Undefined when there is no such booking.
     */
    cancelBooking(
      id: string,
      now: Date,
      { by, outbox }: { by: 'person' | 'owner'; outbox: (booking: Booking) => BookingOutbox },
    ): Promise<Extract<BookingOutcome, { kind: 'booked' | 'cancelled' }> | undefined> {
      const key = KEYS.booking(id);
      return transact<Extract<BookingOutcome, { kind: 'booked' | 'cancelled' }> | undefined>(backend, {
        keys: [key],
        plan(values) {
          const stored = parsed<Booking>(values, key);
          if (!stored) return { result: undefined };
          if (stored.status === 'cancelled') return { result: { kind: 'cancelled', record: stored, queued: [] } };
          const needs = erasureKeys(stored).filter((other) => !values.has(other));
          if (needs.length > 0) return { needs };
          const { reminder: _reminder, ...rest } = stored;
          const at = now.toISOString();
          const booking: Booking = {
            ...rest,
            status: 'cancelled',
            sequence: stored.sequence + 1,
            updatedAt: at,
            cancelled: { at, by },
          };
          const { entries } = outbox(booking);
          const queuing = queue(entries, values, now);
          if ('needs' in queuing) return queuing;
          const dayKey = KEYS.bookingsOfDay(stored.day);
          return {
            writes: [
              { op: 'put', key, value: JSON.stringify(booking) },
              ...releaseWrites(stored, values),
              callsWrite(dayKey, withoutCall(callsIn(values, dayKey), id)),
              ...untabled(stored, values),
              ...stopReminder(stored, values, 'The call was cancelled'),
              ...queuing.writes,
            ],
            result: { kind: 'booked', record: booking, queued: queuing.queued, repeated: false },
          };
        },
      });
    },

    /**
     * Moves a call to another time (`to`: its start, end, buffer's end and owner's day): the new
     * cells are claimed where absent or already its own, the old ones freed, the day's counts
     * moved, the old reminder stopped and the entries of `outbox` queued, its sequence raised, in
     * one step. Undefined when there is no such booking.
     */
    moveBooking(
      id: string,
      to: Pick<Booking, 'start' | 'end' | 'heldUntil' | 'day'>,
      now: Date,
      { dailyCap, outbox }: { dailyCap?: number; outbox: (booking: Booking) => BookingOutbox },
    ): Promise<BookingOutcome | undefined> {
      const key = KEYS.booking(id);
      const newCells = cellKeys(to);
      const newDay = KEYS.bookingsOfDay(to.day);
      return transact<BookingOutcome | undefined>(backend, {
        keys: [key, ...newCells, newDay],
        plan(values) {
          const stored = parsed<Booking>(values, key);
          if (!stored) return { result: undefined };
          if (stored.status === 'cancelled') return { result: { kind: 'cancelled', record: stored, queued: [] } };
          const needs = erasureKeys(stored).filter((other) => !values.has(other));
          if (needs.length > 0) return { needs };
          if (newCells.some((cell) => values.get(cell) != null && values.get(cell) !== id))
            return { result: { kind: 'taken' } };
          const sameDay = to.day === stored.day;
          const day = withoutCall(callsIn(values, newDay), id);
          if (!sameDay && dailyCap !== undefined && Object.keys(day).length >= dailyCap)
            return { result: { kind: 'day-full' } };
          const { reminder: _reminder, ...rest } = stored;
          const moved: Booking = { ...rest, ...to, sequence: stored.sequence + 1, updatedAt: now.toISOString() };
          const { entries, reminder } = outbox(moved);
          const booking: Booking = reminder ? { ...moved, reminder } : moved;
          const queuing = queue(entries, values, now);
          if ('needs' in queuing) return queuing;
          const start = Date.parse(booking.start);
          const oldDay = KEYS.bookingsOfDay(stored.day);
          return {
            writes: [
              { op: 'put', key, value: JSON.stringify(booking) },
              { op: 'index', key: KEYS.bookingsByStart, member: id, score: start },
              ...releaseWrites(stored, values).filter((write) => !newCells.includes(write.key)),
              ...claimWrites(booking, now),
              ...(sameDay ? [] : [callsWrite(oldDay, withoutCall(callsIn(values, oldDay), id))]),
              callsWrite(newDay, withCall(day, id, start)),
              ...tableKeys(stored).map((table) => callsWrite(table, withCall(callsIn(values, table), id, start))),
              ...stopReminder(stored, values, 'The call was moved'),
              ...queuing.writes,
            ],
            result: { kind: 'booked', record: booking, queued: queuing.queued, repeated: false },
          };
        },
      });
    },

    /** The calls booked (not cancelled) that start from a day before `from` to `to`: what open times leave out. */
    async bookedCalls(from: Date, to: Date): Promise<Pick<Booking, 'id' | 'start' | 'end' | 'heldUntil'>[]> {
      const ids = await backend.membersByScore(KEYS.bookingsByStart, {
        min: from.getTime() - 24 * 3600_000,
        max: to.getTime(),
        limit: 5000,
      });
      return (await bookingsOf(ids))
        .filter((booking) => booking.status === 'booked')
        .map(({ id, start, end, heldUntil }) => ({ id, start, end, heldUntil }));
    },

    /**
     * The owner's list: the calls still to come (booked, not over at `now`), soonest first, and
     * the last `pastLimit` others (over or cancelled), latest first.
     */
    async listBookings(now: Date, pastLimit = 50): Promise<{ upcoming: BookingWithLead[]; past: BookingWithLead[] }> {
      const soonest = await backend.membersByScore(KEYS.bookingsByStart, {
        min: now.getTime() - 24 * 3600_000,
        max: Number.MAX_SAFE_INTEGER,
        limit: 1000,
      });
      const coming = await bookingsOf(soonest);
      const upcoming = coming.filter(
        (booking) => booking.status === 'booked' && Date.parse(booking.end) > now.getTime(),
      );
      const shown = new Set(upcoming.map((booking) => booking.id));
      const latest = await backend.members(KEYS.bookingsByStart, {
        offset: 0,
        limit: pastLimit + upcoming.length,
        highestFirst: true,
      });
      const past = (await bookingsOf(latest.filter((id) => !shown.has(id)))).slice(0, pastLimit);
      const leads = await leadsOf([...upcoming, ...past]);
      const withLead = (booking: Booking): BookingWithLead => {
        const lead = leads.get(booking.leadId);
        return lead ? { ...booking, lead } : booking;
      };
      return { upcoming: upcoming.map(withLead), past: past.map(withLead) };
    },
  };
}
