// functions/_lib/delivery gets what the outbox holds to people: the e-mails, their SMTP transport or local folder, the signed webhooks and links, and the sweep.
/** The person's notice that a call is cancelled, with the `CANCEL` that takes it out of their calendar. */
import { BOOK_PAGE } from '../../../../src/shared/booking-api';
import type { Booking } from '../../../../src/shared/records';
import { site } from '../../../../src/site.config';
import type { NewOutboxEntry } from '../../store/types';
import { greeting } from '../addresses';
import { longTime, personsEvent, shortTime, toPerson, whyYouGetThis, type Cancellation } from '../booking-mail';
import { renderMail, type Block } from '../mail-layout';
import type { DeliverySettings } from '../settings';

/**
 * The cancellation: who cancelled, the owner's message when it was them, and a link to book
 * another time. Its file is a `CANCEL` (RFC 5546 §3.2.5) of the same UID with the booking's
 * raised SEQUENCE: a client removes the event, where a REQUEST with STATUS:CANCELLED would only
 * mark it.
 */
export function bookingCancellation(
  booking: Booking,
  cancellation: Cancellation,
  settings: DeliverySettings,
  stamp: Date,
): NewOutboxEntry {
  const byOwner = cancellation.by === 'owner';
  const body = renderMail(
    settings.origin,
    'Your call is cancelled',
    [
      { kind: 'paragraph', text: greeting(booking.name) },
      {
        kind: 'paragraph',
        text: byOwner
          ? `We are sorry: ${site.name} had to cancel your call of ${longTime(booking, booking.timeZone)}.`
          : `As you asked, your call with ${site.name} of ${longTime(booking, booking.timeZone)} is cancelled.`,
      },
      ...(byOwner && cancellation.message ? [{ kind: 'quote', text: cancellation.message } satisfies Block] : []),
      {
        kind: 'paragraph',
        text: 'This e-mail takes the call out of your calendar. You are welcome to book another time.',
      },
      { kind: 'button', label: 'Book another time', url: `${settings.origin}${BOOK_PAGE}` },
      { kind: 'paragraph', text: `Questions? Reply to this e-mail. ${site.replyPromise}` },
    ],
    [whyYouGetThis(settings.origin, 'It does not add you to any mailing list.')],
  );
  return toPerson(booking, 'invitation', {
    subject: `Cancelled: your call with ${site.name} on ${shortTime(booking.start, booking.timeZone)}`,
    ...body,
    calendar: { method: 'CANCEL', content: personsEvent('CANCEL', booking, stamp) },
  });
}
