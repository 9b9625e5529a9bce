// functions/_lib/delivery gets what the outbox holds to people: the e-mails, their SMTP transport or local folder, the signed webhooks and links, and the sweep.
/**
 * What the e-mails of a booked call share: its time as the reader's zone writes it, its place,
 * the person's link to move or cancel it, and its calendar file.
 */
import { BOOK_MANAGE_PAGE } from '../../../src/shared/booking-api';
import type { Booking } from '../../../src/shared/records';
import { site } from '../../../src/site.config';
import { getEnv } from '../platform/env';
import { calendarFile } from './calendar-file';
import type { NewOutboxEntry, OutboxMessage } from '../store/types';
import { sendable } from './addresses';
import type { Block } from './mail-layout';

/** Who cancelled a call, and what the owner wrote to the person when it was them. */
export interface Cancellation {
  by: 'person' | 'owner';
  message?: string | undefined;
}

/** A call's times: what every wording below needs of a booking. */
type Times = Pick<Booking, 'start' | 'end'>;

/** The parts of a time as English writes them in `timeZone`, built from parts so no runtime's punctuation creeps in. */
function parts(iso: string, timeZone: string, style: 'short' | 'long'): Record<string, string> {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: style,
    day: 'numeric',
    month: style,
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'shortOffset',
  });
  return Object.fromEntries(format.formatToParts(new Date(iso)).map((part) => [part.type, part.value]));
}

/** A call's start in a subject line: `Tue 8 Dec, 14:30 (Europe/Paris)`. */
export function shortTime(iso: string, timeZone: string): string {
  const { weekday, day, month, hour, minute } = parts(iso, timeZone, 'short');
  return `${weekday} ${day} ${month}, ${hour}:${minute} (${timeZone})`;
}

/** A call's day and hours in a sentence: `Tuesday 8 December 2026, 14:30 to 15:00 (Europe/Paris, GMT+1)`. */
export function longTime(call: Times, timeZone: string): string {
  const start = parts(call.start, timeZone, 'long');
  const end = parts(call.end, timeZone, 'long');
  return `${start.weekday} ${start.day} ${start.month} ${start.year}, ${start.hour}:${start.minute} to ${end.hour}:${end.minute} (${timeZone}, ${start.timeZoneName})`;
}

/** How long a call lasts, in words: `30 minutes`. */
export function callLength(call: Times): string {
  const minutes = Math.round((Date.parse(call.end) - Date.parse(call.start)) / 60_000);
  return minutes % 60 === 0 && minutes >= 60
    ? `${minutes / 60} hour${minutes === 60 ? '' : 's'}`
    : `${minutes} minutes`;
}

/** Where calls take place (BOOKING_LOCATION: a video link or a phone number); undefined when the owner has not said. */
export const callPlace = (): string | undefined => getEnv().BOOKING_LOCATION;

/** The place as the person reads it, said even when the owner has set none. */
export const placeText = (place: string | undefined) =>
  place ?? 'We will call you, or e-mail you the link, before the call.';

/** A place that is a web address (a video call) as a link of its own, so that the HTML part lets the person open it. */
export function joinLink(place: string | undefined): Block[] {
  if (!place || !/^https?:\/\/\S+$/.test(place)) return [];
  return [{ kind: 'link', label: 'Join the call', url: place }];
}

/**
 * The person's link to move or cancel the call, and the secret it carries: the page it opens
 * changes nothing until they press a button (mail scanners open links).
 */
export function manageLink(origin: string, booking: Pick<Booking, 'id'>, token: string) {
  const secret = encodeURIComponent(token);
  return { url: `${origin}${BOOK_MANAGE_PAGE}?booking=${encodeURIComponent(booking.id)}&token=${secret}`, secret };
}

/** Who the calendar files name as organiser: the site, at its contact address, where the person's calendar sends its answer. */
export const ORGANIZER = { name: site.name, email: site.email };

/**
 * The call's calendar file as the person gets it: titled with the site's name, its text without
 * the link (a calendar keeps its events for ever and shares them; the link's secret stays in the
 * e-mail, where the outbox removes it once sent).
 */
export function personsEvent(method: 'REQUEST' | 'CANCEL', booking: Booking, stamp: Date): string {
  const place = callPlace();
  return calendarFile({
    method,
    booking,
    organizer: ORGANIZER,
    summary: `Call with ${site.name}`,
    description: [
      `Your free consultation with ${site.name} (${callLength(booking)}).`,
      placeText(place),
      method === 'REQUEST' ? 'To move or cancel it, use the link in the e-mail that brought this invitation.' : '',
    ]
      .filter(Boolean)
      .join('\n'),
    location: place,
    stamp,
  });
}

/** The same event as the owner's calendar keeps it: titled with the person, and what they wrote. */
export function ownersEvent(method: 'REQUEST' | 'CANCEL', booking: Booking, origin: string, stamp: Date): string {
  const who = booking.company ? `${booking.name} (${booking.company})` : booking.name;
  return calendarFile({
    method,
    booking,
    organizer: ORGANIZER,
    summary: `Call with ${who}`,
    description: [
      `${booking.name} <${booking.email}>`,
      booking.company ?? '',
      booking.notes ? `\n${booking.notes}` : '',
      `\n${origin}/admin/insights#bookings`,
    ]
      .filter(Boolean)
      .join('\n'),
    location: callPlace(),
    stamp,
  });
}

/** The last line of every e-mail to the person: why they got it, then `more`. */
export function whyYouGetThis(origin: string, more: string): Block {
  return {
    kind: 'small',
    text: `You get this e-mail because a call was booked with this address on ${new URL(origin).host}. ${more}`,
  };
}

/** An e-mail of a booked call to the person who booked it, listed with its lead; replies go to the site's address. */
export function toPerson(
  booking: Booking,
  kind: 'invitation' | 'reminder',
  message: Omit<Extract<OutboxMessage, { channel: 'mail' }>, 'channel' | 'to' | 'replyTo'>,
  dueAt?: string,
): NewOutboxEntry {
  return {
    id: crypto.randomUUID(),
    kind,
    ref: booking.leadId,
    to: booking.email,
    message: { channel: 'mail', to: [sendable(booking)], replyTo: site.email, ...message },
    ...(dueAt ? { dueAt } : {}),
  };
}
