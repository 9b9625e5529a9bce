import type { Config } from '@netlify/functions';
import { BOOKINGS_PATH, type BookingCreated } from '../src/shared/booking-api';
import { BookingRequest, emailAsciiOf } from '../src/shared/schemas';
import { bookingEntries } from './_lib/delivery/booking-entries';
import { formHandler } from './_lib/forms/form-endpoint';
import { HttpError } from './_lib/platform/http';
import { offeredTime, refusal } from './_lib/booking/offered-time';
import { bookingToken } from './_lib/booking/tokens';

/**
 * A call booked at one of the open times: it is checked against the owner's hours, their calendar
 * read again now and the calls booked, then its time is claimed with its lead and e-mails in one
 * step (a time taken meanwhile answers 409). The person gets a calendar invitation, the owner the
 * same event, and the webhook says a call was booked.
 */
export default formHandler({
  name: 'bookings-create',
  schema: BookingRequest,
  async save(store, { start, name, email, company, notes, timeZone, page, attribution }, now, { options, delivery }) {
    const { hours, times } = await offeredTime(store, start, now);
    const id = crypto.randomUUID();
    const { token, tokenHash } = bookingToken();
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
      page,
      attribution,
    };
    const outcome = await store.createBooking(input, now, {
      ...options,
      dailyCap: hours.dailyCap,
      outbox: (booking, lead) => bookingEntries(booking, lead, token, delivery, hours.timeZone),
    });
    if (outcome.kind !== 'booked') throw new HttpError(refusal(outcome));
    const { record } = outcome;
    const body: BookingCreated = { id: record.id, start: record.start, end: record.end };
    return { queued: outcome.queued.map((entry) => entry.id), body: { ...body } };
  },
});

export const config: Config = { path: BOOKINGS_PATH, method: 'POST' };
