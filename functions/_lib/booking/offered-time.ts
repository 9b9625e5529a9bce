// functions/_lib/booking holds the rules of booking a call: the owner's hours, their calendar, the open times.
/**
 * Whether a time asked for is still offered, decided at the moment of booking (or moving) from
 * the owner's hours, their calendar read again then, and the calls booked: the same function that
 * lists the open times. The store's claim of the time's cells then settles any race.
 */
import type { Booking } from '../../../src/shared/records';
import { errorResponse, HttpError } from '../platform/http';
import type { BookingOutcome } from '../store/bookings';
import type { StoreVerbs } from '../store/store';
import { busyTimes, CalendarUnavailableError } from './busy-calendar';
import { readBookingHours } from './hours';
import { isOffered, ownerDay } from './open-times';
import type { BookingHours } from '../../../src/shared/booking';

/** What a person is told when a time cannot be booked, by why. */
export const BOOKING_MESSAGES = {
  notOffered: 'That time is no longer available: please pick another.',
  taken: 'That time has just been taken: please pick another.',
  dayFull: 'That day is now fully booked: please pick another day.',
  calendar: 'We cannot check the calendar just now: please try again in a minute. Nothing you typed is lost.',
  cancelled: 'This call was cancelled: book a new time instead.',
  over: 'This call has taken place already: book a new time instead.',
  tooMany: (upcoming: number) =>
    `You already have ${upcoming} calls booked with us: cancel or move one of them from its e-mail first.`,
  tooManyFromNetwork: 'Several calls are already booked from your network: write to us and we will find a time.',
} as const;

/** A time a call can be booked at, with what the store keeps of it. */
export interface OfferedTime {
  hours: BookingHours;
  times: Pick<Booking, 'start' | 'end' | 'heldUntil' | 'day'>;
}

/**
 * The times of a call starting at `start` if it is offered now; otherwise throws HttpError: 409
 * when it is not (or no longer) offered, 503 when the owner's calendar cannot be read. `moving`
 * is the booking being moved, whose own time does not stand in its way.
 */
export async function offeredTime(store: StoreVerbs, start: string, now: Date, moving?: string): Promise<OfferedTime> {
  const hours = await readBookingHours();
  const at = Date.parse(start);
  const range = { start: at - 24 * 3600_000, end: at + 24 * 3600_000 };
  let busy;
  try {
    busy = await busyTimes(range, { fresh: true });
  } catch (error) {
    if (!(error instanceof CalendarUnavailableError)) throw error;
    // Its message names the setting and the failure, never the address.
    console.error(`[booking] ${error.message}`);
    throw new HttpError(errorResponse(503, BOOKING_MESSAGES.calendar, { headers: { 'Retry-After': '60' } }));
  }
  const calls = await store.bookedCalls(new Date(range.start), new Date(range.end));
  const booked = calls
    .filter((call) => call.id !== moving)
    .map((call) => ({ start: Date.parse(call.start), end: Date.parse(call.end) }));
  const slot = isOffered({ hours, busy, booked, now }, start);
  if (!slot) throw new HttpError(errorResponse(409, BOOKING_MESSAGES.notOffered));
  const end = Date.parse(slot.end);
  return {
    hours,
    times: {
      start: slot.start,
      end: slot.end,
      heldUntil: new Date(end + hours.bufferMinutes * 60_000).toISOString(),
      day: ownerDay(at, hours.timeZone),
    },
  };
}

/** The answer to a booking or a move the store refused: 409, saying why. */
export function refusal(outcome: Exclude<BookingOutcome, { kind: 'booked' }>): Response {
  if (outcome.kind === 'taken') return errorResponse(409, BOOKING_MESSAGES.taken);
  if (outcome.kind === 'day-full') return errorResponse(409, BOOKING_MESSAGES.dayFull);
  if (outcome.kind === 'too-many')
    return errorResponse(
      409,
      outcome.by === 'email' ? BOOKING_MESSAGES.tooMany(outcome.upcoming) : BOOKING_MESSAGES.tooManyFromNetwork,
    );
  return errorResponse(409, BOOKING_MESSAGES.cancelled);
}
