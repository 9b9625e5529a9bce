import type { Config } from '@netlify/functions';
import { BOOKINGS_PATH, type BookingView } from '../src/shared/booking-api';
import type { Booking } from '../src/shared/records';
import { BookingMoveRequest, BookingTokenRequest } from '../src/shared/schemas';
import { BOOKING_MESSAGES, offeredTime, refusal } from './_lib/booking/offered-time';
import { tokenMatches } from './_lib/booking/tokens';
import { cancelledEntries, movedEntries } from './_lib/delivery/booking-entries';
import { deliverAfterAnswer } from './_lib/delivery/outbox';
import { deliverySettings, type DeliverySettings } from './_lib/delivery/settings';
import { requireClientKey } from './_lib/forms/client';
import { readBookingHours } from './_lib/booking/hours';
import {
  decodePathSegment,
  endpoint,
  errorResponse,
  json,
  parseWith,
  readJsonBody,
  requireMethod,
  tooManyRequests,
} from './_lib/platform/http';
import { UUID } from './_lib/admin/session';
import { getRateLimiter, getStore } from './_lib/store/get-store';
import type { StoreVerbs } from './_lib/store/store';

/** One answer for a wrong secret and for no such booking: a guess learns nothing. */
const NOT_VALID = 'This link is not valid: open it again from your e-mail, or write to us.';

const ACTIONS = ['view', 'cancel', 'move'] as const;

/** What the person's page shows of their booking. */
function viewOf({ id, start, end, status, timeZone, name }: Booking): BookingView {
  return { id, start, end, status, timeZone, name };
}

/** Cancels the call as the person asked: the owner's zone names the time in the owner's notice. */
async function cancel(store: StoreVerbs, booking: Booking, now: Date, settings: DeliverySettings) {
  const { timeZone } = await readBookingHours();
  return store.cancelBooking(booking.id, now, {
    by: 'person',
    outbox: (cancelled) => cancelledEntries(cancelled, { by: 'person' }, settings, timeZone),
  });
}

/** Moves the call to `start`, if that time is offered now, its own time aside. */
async function move(
  store: StoreVerbs,
  { booking, token, start }: { booking: Booking; token: string; start: string },
  now: Date,
  settings: DeliverySettings,
) {
  const { hours, times } = await offeredTime(store, start, now, booking.id);
  return store.moveBooking(booking.id, times, now, {
    dailyCap: hours.dailyCap,
    outbox: (moved) => movedEntries(moved, booking, token, settings, hours.timeZone),
  });
}

/**
 * The e-mailed link's page POSTs here with the link's secret: `view` shows the call and changes
 * nothing (mail scanners open links, and the page only POSTs on a press for the others);
 * `cancel` cancels it, sending the calendar's CANCEL with a higher SEQUENCE; `move` moves it to
 * another open time, keeping its UID. Limited per client like the forms, so secrets cannot be
 * guessed at speed (they are 256 bits in any case).
 */
export default endpoint({ name: 'bookings-manage', retryAfterSeconds: 30 }, async (req, context) => {
  requireMethod(req, ['POST']);
  const action = ACTIONS.find((name) => name === context.params.action);
  const id = decodePathSegment(context.params.id ?? '');
  if (!action || !UUID.test(id)) return errorResponse(404, NOT_VALID);
  const client = requireClientKey(context.ip);
  const limiter = await getRateLimiter();
  const body = await readJsonBody(req);
  const limit = await limiter.limit(`bookings-manage:${client}`);
  if (!limit.success) return tooManyRequests('requests', limit.reset);

  const { token } = parseWith(BookingTokenRequest.loose(), body);
  const start = action === 'move' ? parseWith(BookingMoveRequest, body).start : '';
  const store = await getStore();
  const stored = await store.getBooking(id);
  if (!stored || !tokenMatches(token, stored.tokenHash)) return errorResponse(404, NOT_VALID);
  if (action === 'view') return json(200, viewOf(stored));

  const now = new Date();
  // A call that has begun is the owner's to record now, not the link's to cancel or move.
  if (stored.status === 'booked' && Date.parse(stored.start) <= now.getTime())
    return errorResponse(409, BOOKING_MESSAGES.over);
  const settings = deliverySettings(req, context);
  const outcome =
    action === 'cancel'
      ? await cancel(store, stored, now, settings)
      : await move(store, { booking: stored, token, start }, now, settings);
  if (!outcome) return errorResponse(404, NOT_VALID);
  // A second cancellation answers the call as it stands; a cancelled call cannot be moved.
  if (outcome.kind === 'cancelled' && action === 'cancel') return json(200, viewOf(outcome.record));
  if (outcome.kind !== 'booked') return refusal(outcome);
  deliverAfterAnswer(
    context,
    store,
    outcome.queued.map((entry) => entry.id),
    'bookings-manage',
  );
  return json(200, viewOf(outcome.record));
});

export const config: Config = { path: `${BOOKINGS_PATH}/:id/:action`, method: 'POST' };
