// functions/_lib/delivery gets what the outbox holds to people: the e-mails, their SMTP transport or local folder, the signed webhooks and links, and the sweep.
/**
 * A booked call as an iCalendar file (RFC 5545) for an iTIP message (RFC 5546): the invitation
 * (`REQUEST`, also sent again for a move) or its withdrawal (`CANCEL`). Written with ical.js, which
 * escapes the text and folds the lines, so a name with commas, semicolons, line breaks or accents
 * reaches the calendar as it was typed.
 */
import ICAL from 'ical.js';
import type { Booking } from '../../../src/shared/records';
import { site } from '../../../src/site.config';
import { headerName, sendable } from './addresses';

/** What a calendar file says of a call. */
export interface CalendarFileInput {
  /** REQUEST: the event as it now stands (new or moved); CANCEL: the organiser withdraws it. */
  method: 'REQUEST' | 'CANCEL';
  /** The call: its UID and SEQUENCE say which event this is and which revision of it. */
  booking: Pick<Booking, 'uid' | 'sequence' | 'start' | 'end' | 'name' | 'email' | 'emailAscii'>;
  /** Who holds the call: the site's name and address, which the person's calendar answers to. */
  organizer: { name: string; email: string };
  summary: string;
  description: string;
  /** Where the call takes place (a video link, a phone number); absent: not known yet. */
  location?: string | undefined;
  /** When this revision was written (DTSTAMP). */
  stamp: Date;
}

/**
 * ical.js folds a line after `foldLength` octets of its content, then adds the leading space of
 * the next line on top: asking for 74 keeps every line, that space included, within the 75
 * octets RFC 5545 §3.1 allows.
 */
const FOLD_OCTETS = 74;

const utc = (value: string | Date) => ICAL.Time.fromJSDate(new Date(value), true);

/** A CN parameter: a name as a header would show it (headerName), so no quote or line break needs RFC 6868's escapes, which few clients read. */
function withName(property: ICAL.Property, name: string): ICAL.Property {
  const shown = headerName(name);
  if (shown) property.setParameter('cn', shown);
  return property;
}

/**
 * The iCalendar text of one call, lines ended by CRLF. Times are in UTC (`…Z`), never with a
 * TZID: a TZID needs its VTIMEZONE in the file, and clients that miss one (Outlook) shift the
 * call by the zone's offset.
 */
export function calendarFile(input: CalendarFileInput): string {
  const { method, booking, organizer, stamp } = input;
  const calendar = new ICAL.Component(['vcalendar', [], []]);
  calendar.addPropertyWithValue('prodid', `-//${site.name}//Booking//EN`);
  calendar.addPropertyWithValue('version', '2.0');
  calendar.addPropertyWithValue('calscale', 'GREGORIAN');
  calendar.addPropertyWithValue('method', method);

  const event = new ICAL.Component('vevent');
  event.addPropertyWithValue('uid', booking.uid);
  event.addPropertyWithValue('sequence', booking.sequence);
  event.addPropertyWithValue('dtstamp', utc(stamp));
  event.addPropertyWithValue('dtstart', utc(booking.start));
  event.addPropertyWithValue('dtend', utc(booking.end));
  event.addPropertyWithValue('summary', input.summary);
  event.addPropertyWithValue('description', input.description);
  if (input.location) event.addPropertyWithValue('location', input.location);
  withName(event.addPropertyWithValue('organizer', `mailto:${organizer.email}`), organizer.name);
  const attendee = withName(event.addPropertyWithValue('attendee', `mailto:${sendable(booking)}`), booking.name);
  attendee.setParameter('role', 'REQ-PARTICIPANT');
  attendee.setParameter('partstat', 'NEEDS-ACTION');
  // An answer is asked for an invitation only: there is nothing to accept in a cancellation.
  if (method === 'REQUEST') attendee.setParameter('rsvp', 'TRUE');
  event.addPropertyWithValue('status', method === 'REQUEST' ? 'CONFIRMED' : 'CANCELLED');
  event.addPropertyWithValue('transp', 'OPAQUE');
  calendar.addSubcomponent(event);

  const foldLength = ICAL.foldLength;
  ICAL.foldLength = FOLD_OCTETS;
  try {
    // ical.js ends every line but the last with CRLF; RFC 5545 ends the last one too.
    return `${calendar.toString()}\r\n`;
  } finally {
    ICAL.foldLength = foldLength;
  }
}
