import type { Config } from '@netlify/functions';
import { BOOKINGS_PATH, type BookingCreated } from '../src/shared/booking-api';
import { BookingRequest, emailAsciiOf } from '../src/shared/schemas';
import { bookingEntries } from './_lib/delivery/booking-entries';
import { clientKey } from './_lib/forms/client';
import { formHandler, type SavedAnswer } from './_lib/forms/form-endpoint';
import { HttpError } from './_lib/platform/http';
import { offeredTime, refusal } from './_lib/booking/offered-time';
import { bookingClient, bookingToken } from './_lib/booking/tokens';
import type { Booking, Delivery } from '../src/shared/records';

/**
 * A call booked at one of the open times: it is checked against the owner's hours, their calendar
 * read again now and the calls booked, then its time is claimed with its lead and e-mails in one
 * step (a time taken meanwhile answers 409). The person gets a calendar invitation, the owner the
 * same event, and the webhook says a call was booked.
 */
export default formHandler({
  name: 'bookings-create',
  schema: BookingRequest,
  async save(store, { start, name, email, company, notes, timeZone, page, attribution }, now, saving) {
    const { options, delivery, request } = saving;
    // A retry of a booking stored already gets its first answer: its time is its own now.
    const repeated = await store.repeatedBooking(options);
    if (repeated) return answer(repeated, []);
    const { hours, times } = await offeredTime(store, start, now);
    const id = crypto.randomUUID();
    const { token, tokenHash } = bookingToken();
    const client = clientKey(request.ip);
    const input = {
      id,
      // The lead has the booking's id, so that erasing the lead erases the call too.
      leadId: id,
      ...times,
      name,
      email,
      ...emailAsciiOf(email),
      company,
      notes,
      timeZone,
      uid: `${id}@${new URL(delivery.origin).hostname}`,
      tokenHash,
      ...(client ? { client: bookingClient(client) } : {}),
      page,
      attribution,
    };
    const outcome = await store.createBooking(input, now, {
      ...options,
      dailyCap: hours.dailyCap,
      outbox: (booking, lead) => bookingEntries(booking, lead, token, delivery, hours.timeZone),
    });
    if (outcome.kind !== 'booked') throw new HttpError(refusal(outcome));
    return answer(outcome.record, outcome.queued);
  },
});

/** The 201 of a booking, with the ids of the entries it queued. */
function answer({ id, start, end }: Booking, queued: Delivery[]): SavedAnswer {
  const body: BookingCreated = { id, start, end };
  return { queued: queued.map((entry) => entry.id), body: { ...body } };
}

export const config: Config = { path: BOOKINGS_PATH, method: 'POST' };
