// functions/_lib/delivery gets what the outbox holds to people: the e-mails, their SMTP transport or local folder, the signed webhooks and links, and the sweep.
/** The person's reminder of their call, a day before it. */
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
  placeText,
  shortTime,
  toPerson,
  whyYouGetThis,
} from '../booking-mail';
import { renderMail } from '../mail-layout';
import type { DeliverySettings } from '../settings';

/** How long before the call its reminder is due. */
export const REMINDER_BEFORE_MS = 24 * 3600_000;

/**
 * The reminder, due REMINDER_BEFORE_MS before the call (`dueAt`: it waits in the outbox until
 * then, and its retries end when the call starts); undefined when that moment has passed at `now`,
 * since the invitation just sent says all a reminder would. It has no calendar file: the event is
 * in their calendar already, and a second REQUEST would only ask them to accept it again.
 */
export function bookingReminder(
  booking: Booking,
  token: string,
  settings: DeliverySettings,
  now: Date,
): NewOutboxEntry | undefined {
  const dueAt = Date.parse(booking.start) - REMINDER_BEFORE_MS;
  if (dueAt <= now.getTime()) return undefined;
  const link = manageLink(settings.origin, booking, token);
  const place = callPlace();
  const body = renderMail(
    settings.origin,
    'Your call is tomorrow',
    [
      { kind: 'paragraph', text: greeting(booking.name) },
      { kind: 'paragraph', text: `A reminder of your free consultation with ${site.name}.` },
      {
        kind: 'fields',
        rows: [
          ['When', longTime(booking, booking.timeZone)],
          ['Length', callLength(booking)],
          ['Where', placeText(place)],
        ],
      },
      ...joinLink(place),
      { kind: 'paragraph', text: 'Cannot make it after all? Move the call to another time, or cancel it.' },
      { kind: 'button', label: 'Move or cancel', url: link.url },
    ],
    [whyYouGetThis(settings.origin, 'It is the only reminder we send.')],
  );
  return toPerson(
    booking,
    'reminder',
    {
      subject: `Reminder: your call with ${site.name}, ${shortTime(booking.start, booking.timeZone)}`,
      ...body,
      secrets: [link.secret],
    },
    new Date(dueAt).toISOString(),
  );
}
