/**
 * The calendar part of an e-mail (iMIP, RFC 6047), read as a calendar client reads it: the
 * `text/calendar` alternative's Content-Type parameters, and its file parsed by ical.js.
 */
import ICAL from 'ical.js';
import type { ParsedMail } from 'mailparser';

/** The one text/calendar part of a message: its Content-Type parameters (`method`, `charset`), its text, its calendar and event. */
export function calendarPart(mail: ParsedMail) {
  const parts = mail.attachments.filter((part) => part.contentType === 'text/calendar');
  const [part] = parts;
  if (!part || parts.length > 1) throw new Error(`${parts.length} text/calendar parts in "${mail.subject ?? ''}"`);
  const type = part.headers.get('content-type') as { value: string; params: Record<string, string | undefined> };
  const text = part.content.toString('utf8');
  const calendar = new ICAL.Component(ICAL.parse(text));
  const event = calendar.getFirstSubcomponent('vevent');
  if (!event) throw new Error(`no VEVENT in "${mail.subject ?? ''}"`);
  return { params: type.params, text, calendar, event };
}

/** A date-time property of an event as an ISO time in UTC; throws when it is not written in UTC (`…Z`). */
export function utcOf(event: ICAL.Component, name: string): string {
  const time = event.getFirstPropertyValue(name);
  if (!(time instanceof ICAL.Time) || time.zone?.tzid !== 'UTC') throw new Error(`${name} is not a UTC time`);
  return time.toJSDate().toISOString();
}
