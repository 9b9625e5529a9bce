import ICAL from 'ical.js';
import { describe, expect, test } from 'vitest';
import { calendarFile, type CalendarFileInput } from '../../functions/_lib/delivery/calendar-file';
import { utcOf } from '../support/calendar-mail';

/**
 * A booked call's calendar file, read back with the project's iCalendar parser: what a calendar
 * needs to accept it (RFC 5545, 5546), and text that survives names no form would refuse.
 */

const BOOKING: CalendarFileInput['booking'] = {
  uid: 'b6f1c0de-5a4e-4c5b-9f0a-2d6c7e8f9a10@loopwork.example',
  sequence: 0,
  start: '2026-12-08T13:30:00.000Z',
  end: '2026-12-08T14:00:00.000Z',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
};

function file(overrides: Partial<CalendarFileInput> = {}): string {
  return calendarFile({
    method: 'REQUEST',
    booking: BOOKING,
    organizer: { name: 'Loopwork', email: 'hello@loopwork.example' },
    summary: 'Call with Loopwork',
    description: 'Your free 30-minute consultation.',
    location: 'https://meet.example.com/loopwork',
    stamp: new Date('2026-12-01T10:00:00.000Z'),
    ...overrides,
  });
}

/** The calendar and its one event, as ical.js reads them. */
function read(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents('vevent');
  expect(events).toHaveLength(1);
  return { calendar, event: events[0] as ICAL.Component };
}

describe('calendarFile', () => {
  test('writes an invitation a calendar can accept: METHOD, UID, SEQUENCE, the times in UTC', () => {
    const { calendar, event } = read(file());
    expect(calendar.getFirstPropertyValue('method')).toBe('REQUEST');
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('calscale')).toBe('GREGORIAN');
    expect(calendar.getFirstPropertyValue('prodid')).toMatch(/^-\/\/.+\/\/Booking\/\/EN$/);
    expect(event.getFirstPropertyValue('uid')).toBe(BOOKING.uid);
    expect(event.getFirstPropertyValue('sequence')).toBe(0);
    expect(utcOf(event, 'dtstart')).toBe(BOOKING.start);
    expect(utcOf(event, 'dtend')).toBe(BOOKING.end);
    expect(utcOf(event, 'dtstamp')).toBe('2026-12-01T10:00:00.000Z');
    expect(event.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(event.getFirstPropertyValue('location')).toBe('https://meet.example.com/loopwork');
  });

  test('writes times ending in Z, with no TZID and no time zone definition to miss', () => {
    const text = file();
    expect(text).toContain('\r\nDTSTART:20261208T133000Z\r\n');
    expect(text).toContain('\r\nDTEND:20261208T140000Z\r\n');
    expect(text).not.toMatch(/TZID|VTIMEZONE/);
  });

  test('names the site as organiser and the person as the attendee whose answer is asked, by mailto', () => {
    const { event } = read(file());
    const organizer = event.getFirstProperty('organizer');
    expect(organizer?.getFirstValue()).toBe('mailto:hello@loopwork.example');
    expect(organizer?.getParameter('cn')).toBe('Loopwork');
    const attendee = event.getFirstProperty('attendee');
    expect(attendee?.getFirstValue()).toBe('mailto:ada@example.com');
    expect(attendee?.getParameter('cn')).toBe('Ada Lovelace');
    expect(attendee?.getParameter('role')).toBe('REQ-PARTICIPANT');
    expect(attendee?.getParameter('partstat')).toBe('NEEDS-ACTION');
    expect(attendee?.getParameter('rsvp')).toBe('TRUE');
  });

  test('writes a cancellation as a CANCEL of the same UID, its raised SEQUENCE and STATUS:CANCELLED, asking no answer', () => {
    const { calendar, event } = read(file({ method: 'CANCEL', booking: { ...BOOKING, sequence: 2 } }));
    expect(calendar.getFirstPropertyValue('method')).toBe('CANCEL');
    expect(event.getFirstPropertyValue('uid')).toBe(BOOKING.uid);
    expect(event.getFirstPropertyValue('sequence')).toBe(2);
    expect(event.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(event.getFirstProperty('attendee')?.getParameter('rsvp')).toBeUndefined();
  });

  test('leaves LOCATION out when no place is set', () => {
    const { event } = read(file({ location: undefined }));
    expect(event.hasProperty('location')).toBe(false);
  });

  test('sends the person to the ASCII form of an internationalised domain', () => {
    const booking = { ...BOOKING, email: 'zoe@bücher.example', emailAscii: 'zoe@xn--bcher-kva.example' };
    const { event } = read(file({ booking }));
    expect(event.getFirstPropertyValue('attendee')).toBe('mailto:zoe@xn--bcher-kva.example');
  });

  test('keeps text with commas, semicolons, backslashes, line breaks and accents as it was written', () => {
    const summary = 'Call with Zoë Ångström-Núñez, Jr.; “CEO” \\ 東京 🚀';
    const description = 'First line, with a comma; and a semicolon.\nSecond line: Ça va?\n\nAfter a blank line.';
    const { event } = read(file({ summary, description }));
    expect(event.getFirstPropertyValue('summary')).toBe(summary);
    expect(event.getFirstPropertyValue('description')).toBe(description);
  });

  test('gives a name as a header would show it, with no quote or line break to escape', () => {
    const booking = { ...BOOKING, name: 'Zoë "The Boss" O\'Brien,\nJr.; <ceo@evil.example>' };
    const { event } = read(file({ booking }));
    const name = event.getFirstProperty('attendee')?.getParameter('cn');
    expect(name).toBe("Zoë The Boss O'Brien, Jr.; ceo evil.example");
  });

  test('folds long lines within 75 octets, counted in UTF-8, and ends every line with CRLF', () => {
    const text = file({ description: `${'Zoë, ça va; '.repeat(30)}\n${'x'.repeat(400)}`, summary: '東京'.repeat(40) });
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
    const lines = text.split('\r\n').slice(0, -1);
    expect(lines.some((line) => line.startsWith(' '))).toBe(true);
    for (const line of lines) expect(Buffer.byteLength(line, 'utf8'), line).toBeLessThanOrEqual(75);
    expect(read(text).event.getFirstPropertyValue('summary')).toBe('東京'.repeat(40));
  });

  test('leaves the parser’s folding setting as it found it', () => {
    file();
    expect(ICAL.foldLength).toBe(75);
  });
});
