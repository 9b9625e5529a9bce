import type { Config } from '@netlify/functions';
import type { AdminBooking, AdminBookings } from '../src/shared/api-responses';
import { AdminBookingCancelRequest } from '../src/shared/schemas';
import { readBookingHours } from './_lib/booking/hours';
import { ADMIN_HEADERS, requireActionId, requireAdmin } from './_lib/admin/session';
import { cancelledEntries } from './_lib/delivery/booking-entries';
import { deliverAfterAnswer } from './_lib/delivery/outbox';
import { deliverySettings } from './_lib/delivery/settings';
import { endpoint, errorResponse, json, parseWith, readJsonBody, requireMethod } from './_lib/platform/http';
import type { BookingWithLead } from './_lib/store/bookings';
import { getStore } from './_lib/store/get-store';

const NO_BOOKING = 'No booking has that id';

/** What the owner's list shows of a booking: everything but the hash of the person's link. */
function shown({ tokenHash: _hash, ...booking }: BookingWithLead): AdminBooking {
  return booking;
}

/**
 * The owner's Bookings: GET lists the calls to come, soonest first, then the last ones past or
 * cancelled; POST /api/admin/bookings/{id}/cancel cancels a call with an optional message to the
 * person, who gets the calendar's CANCEL (same UID, higher SEQUENCE) with it.
 */
export default endpoint({ name: 'admin-bookings', headers: ADMIN_HEADERS }, async (req, context) => {
  const cancelling = context.params.id !== undefined;
  requireMethod(req, cancelling ? ['POST'] : ['GET']);
  await requireAdmin(req);
  const store = await getStore();
  const now = new Date();
  if (cancelling) {
    const id = requireActionId(req, context.params.id, NO_BOOKING);
    const { message } = parseWith(AdminBookingCancelRequest, await readJsonBody(req));
    const settings = deliverySettings(req, context);
    const { timeZone } = await readBookingHours();
    const outcome = await store.cancelBooking(id, now, {
      by: 'owner',
      outbox: (booking) => cancelledEntries(booking, { by: 'owner', message }, settings, timeZone),
    });
    if (!outcome) return errorResponse(404, NO_BOOKING);
    // A call cancelled already (by the person, a moment before) answers as it stands.
    deliverAfterAnswer(
      context,
      store,
      outcome.queued.map((entry) => entry.id),
      'admin-bookings',
    );
    return json(200, shown(outcome.record));
  }
  const [{ upcoming, past }, { timeZone }] = await Promise.all([store.listBookings(now), readBookingHours()]);
  return json(200, { timeZone, upcoming: upcoming.map(shown), past: past.map(shown) } satisfies AdminBookings);
});

export const config: Config = { path: ['/api/admin/bookings', '/api/admin/bookings/:id/cancel'] };
