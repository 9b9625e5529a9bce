// functions/_lib/delivery gets what the outbox holds to people: the e-mails, their SMTP transport or local folder, the signed webhooks and links, and the sweep.
/** The person's invitation to a booked call (iMIP, RFC 6047), sent again with a higher SEQUENCE when they move it. */
import type { Booking } from '../../../../src/shared/records';
import { site } from '../../../../src/site.config';
import type { NewOutboxEntry } from '../../store/types';
import { greeting } from '../addresses';
import {
  callLength,
  callPlace,
  joinLink,
  longTime,
  manageLink,
  personsEvent,
  placeText,
  shortTime,
  toPerson,
  whyYouGetThis,
} from '../booking-mail';
import { renderMail } from '../mail-layout';
import type { DeliverySettings } from '../settings';

/**
 * The invitation: the call in the person's own zone, its place and the link to move or cancel it,
 * with the calendar file as a `REQUEST` their calendar can accept. `previous` is the time it
 * had before a move: the e-mail then says it moved, and the file, with the booking's raised
 * SEQUENCE, replaces the event in their calendar.
 */
export function bookingInvitation(
  booking: Booking,
  token: string,
  settings: DeliverySettings,
  stamp: Date,
  previous?: Pick<Booking, 'start' | 'end'>,
): NewOutboxEntry {
  const link = manageLink(settings.origin, booking, token);
  const place = callPlace();
  const when = shortTime(booking.start, booking.timeZone);
  const heading = previous ? 'Your call has moved' : 'Your call is booked';
  const body = renderMail(
    settings.origin,
    heading,
    [
      { kind: 'paragraph', text: greeting(booking.name) },
      {
        kind: 'paragraph',
        text: previous
          ? `Your free consultation with ${site.name} has moved to a new time. The invitation in this e-mail replaces the one you had.`
          : `Thank you for booking a free consultation with ${site.name}. Accept the invitation in this e-mail to add the call to your calendar.`,
      },
      {
        kind: 'fields',
        rows: [
          ['When', longTime(booking, booking.timeZone)],
          ['Was', previous ? longTime(previous, booking.timeZone) : undefined],
          ['Length', callLength(booking)],
          ['Where', placeText(place)],
        ],
      },
      ...joinLink(place),
      { kind: 'button', label: 'Move or cancel', url: link.url },
      {
        kind: 'small',
        text: 'The link is yours alone: anyone who has it can move or cancel the call, so please do not forward this e-mail.',
      },
      { kind: 'paragraph', text: `Anything to tell us before the call? Reply to this e-mail. ${site.replyPromise}` },
    ],
    [whyYouGetThis(settings.origin, 'It does not add you to any mailing list.')],
  );
  return toPerson(booking, 'invitation', {
    subject: previous ? `Your call with ${site.name} has moved: ${when}` : `Your call with ${site.name}: ${when}`,
    ...body,
    secrets: [link.secret],
    calendar: { method: 'REQUEST', content: personsEvent('REQUEST', booking, stamp) },
  });
}
