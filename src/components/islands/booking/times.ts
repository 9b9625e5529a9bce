/**
 * How the booking views write the open times: grouped by the day they fall on in the zone the
 * person reads them in, and written in their own locale, the hour without a leading zero ("9:30").
 */
import type { Slot } from '../../../shared/booking-api';

/** Formats are built once per zone and options: a month of times writes hundreds of them. */
const formats = new Map<string, Intl.DateTimeFormat>();

function format(timeZone: string, options: Intl.DateTimeFormatOptions, locale?: string): Intl.DateTimeFormat {
  const key = JSON.stringify([locale, timeZone, options]);
  let made = formats.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    formats.set(key, made);
  }
  return made;
}

/** The zone this browser is set to, an IANA name. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * Every zone the browser knows, for the zone picker: `first` (the owner's, the person's) at the
 * top. A browser without `Intl.supportedValuesOf` offers those alone.
 */
export function timeZoneChoices(first: string[]): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const top = [...new Set(first)];
  return [...top, ...all.filter((zone) => !top.includes(zone))];
}

/** A zone's everyday English name ("Eastern Time"), or undefined when the browser has only an offset for it. */
export function zoneName(timeZone: string): string | undefined {
  const name = format(timeZone, { timeZoneName: 'longGeneric' }, 'en')
    .formatToParts(new Date())
    .find((part) => part.type === 'timeZoneName')?.value;
  return name && !name.startsWith('GMT') ? name : undefined;
}

/** A zone as the page names it: "Eastern Time (America/New_York)", or the IANA name alone. */
export function zoneLabel(timeZone: string): string {
  const name = zoneName(timeZone);
  return name ? `${name} (${timeZone})` : timeZone;
}

/** The day a moment falls on in `timeZone`, as YYYY-MM-DD: the key the times are grouped by. */
export function dayKey(iso: string, timeZone: string): string {
  return format(timeZone, { year: 'numeric', month: '2-digit', day: '2-digit' }, 'en-CA').format(new Date(iso));
}

/** One day of open times, in the zone shown. */
export interface Day {
  key: string;
  /** The first time's start: a moment of that day, for writing its name. */
  start: string;
  slots: Slot[];
}

/** The open times by the day they fall on in `timeZone`, earliest first; days without a time are left out. */
export function groupByDay(slots: Slot[], timeZone: string): Day[] {
  const days = new Map<string, Day>();
  for (const slot of [...slots].sort((a, b) => a.start.localeCompare(b.start))) {
    const key = dayKey(slot.start, timeZone);
    const day = days.get(key);
    if (day) day.slots.push(slot);
    else days.set(key, { key, start: slot.start, slots: [slot] });
  }
  return [...days.values()];
}

/** A day's parts for its button: "Tue", "16", "Jun". */
export function dayParts(iso: string, timeZone: string) {
  const date = new Date(iso);
  return {
    weekday: format(timeZone, { weekday: 'short' }).format(date),
    day: format(timeZone, { day: 'numeric' }).format(date),
    month: format(timeZone, { month: 'short' }).format(date),
  };
}

/** A day in full: "Tuesday, June 16". */
export function longDay(iso: string, timeZone: string, withYear = false): string {
  const options: Intl.DateTimeFormatOptions = { weekday: 'long', month: 'long', day: 'numeric' };
  return format(timeZone, withYear ? { ...options, year: 'numeric' } : options).format(new Date(iso));
}

/** A day in short, for a button: "Thu, Dec 3". */
export function shortDay(iso: string, timeZone: string): string {
  return format(timeZone, { weekday: 'short', month: 'short', day: 'numeric' }).format(new Date(iso));
}

/** Drops the leading zero of an hour ("09:30" → "9:30"), which some locales write on a 24-hour clock. */
function withoutLeadingZero(parts: Intl.DateTimeFormatPart[]): string {
  return parts.map((part) => (part.type === 'hour' ? part.value.replace(/^0(?=\d)/, '') : part.value)).join('');
}

const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };

/** A time of day in the person's locale: "9:30 AM", or "9:30" on a 24-hour clock. */
export function timeOfDay(iso: string, timeZone: string): string {
  return withoutLeadingZero(format(timeZone, TIME).formatToParts(new Date(iso)));
}

/** A call's time: "9:30 – 10:00 AM". */
export function timeRange(slot: Slot, timeZone: string): string {
  const made = format(timeZone, TIME);
  const parts = made.formatRangeToParts(new Date(slot.start), new Date(slot.end));
  return withoutLeadingZero(parts);
}

/** A call in full, for a confirmation: "Tuesday, June 16, 2026, 9:30 – 10:00 AM". */
export function callTime(slot: Slot, timeZone: string): string {
  return `${longDay(slot.start, timeZone, true)}, ${timeRange(slot, timeZone)}`;
}
