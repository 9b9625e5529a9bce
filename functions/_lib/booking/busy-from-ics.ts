/**
 * What an iCalendar file (RFC 5545) says of when the owner is busy: only the times each event
 * holds, never what it is. The calendar's reader (./busy-calendar.ts) fetches the file.
 */
import ICAL from 'ical.js';
import { isTimeZone } from '../../../src/shared/booking';
import { mergeIntervals, type Interval } from './open-times';
import { dayClock, type DayClock } from './wall-clock';

type Component = InstanceType<typeof ICAL.Component>;
type Time = InstanceType<typeof ICAL.Time>;

/** The most occurrences one recurring event is walked through, from its first: a daily event of a century. */
const MAX_OCCURRENCES = 40_000;

const DAY = 86_400_000;

function pad(value: number, length: number): string {
  return String(value).padStart(length, '0');
}

/** Whether a TZID is a zone Intl knows by that name, asked once per name: Intl is slow to say. */
const knownZones = new Map<string, boolean>();
function isKnownZone(tzid: string): boolean {
  let known = knownZones.get(tzid);
  if (known === undefined) {
    known = isTimeZone(tzid);
    if (knownZones.size < 1000) knownZones.set(tzid, known);
  }
  return known;
}

/** How one read of a calendar turns wall times into instants: in the owner's zone, each day's clock made once. */
interface Clocks {
  ownerTimeZone: string;
  clock: (day: string, timeZone: string) => DayClock;
}

function clocksFor(ownerTimeZone: string): Clocks {
  const made = new Map<string, DayClock>();
  return {
    ownerTimeZone,
    clock(day, timeZone) {
      const key = `${timeZone} ${day}`;
      let clock = made.get(key);
      if (!clock) {
        clock = dayClock(day, timeZone);
        made.set(key, clock);
      }
      return clock;
    },
  };
}

/**
 * The instant of a calendar time: UTC, or in a zone only the file defines (VTIMEZONE), as ical.js
 * reads it; in a zone named by an IANA name, with Intl (see withoutKnownZones); a floating time, or
 * an unknown zone, in the owner's. A day (an all-day event) starts at midnight in the owner's zone.
 * A wall time the clocks skip is read with the offset before the change, as RFC 5545 (3.3.5) has
 * it: 02:30 on the morning New York's clocks go from 02:00 to 03:00 is 03:30.
 */
function instantOfTime(time: Time, tzid: string | undefined, clocks: Clocks): number {
  const day = `${pad(time.year, 4)}-${pad(time.month, 2)}-${pad(time.day, 2)}`;
  if (time.isDate) return clocks.clock(day, clocks.ownerTimeZone).instantOrAfterGap(0);
  if (time.zone !== ICAL.Timezone.localTimezone) return time.toUnixTime() * 1000;
  const zone = tzid && isKnownZone(tzid) ? tzid : clocks.ownerTimeZone;
  return clocks.clock(day, zone).instantOrAfterGap(time.hour * 60 + time.minute) + time.second * 1000;
}

function tzidOf(event: Component, name: 'dtstart' | 'dtend' | 'recurrence-id'): string | undefined {
  const parameter = event.getFirstProperty(name)?.getParameter('tzid');
  return typeof parameter === 'string' ? parameter : undefined;
}

/** Whether an event leaves the owner free: shown as free (TRANSP:TRANSPARENT), or cancelled. */
function isFree(event: Component): boolean {
  const value = (name: string) => String(event.getFirstPropertyValue(name) ?? '').toUpperCase();
  return value('transp') === 'TRANSPARENT' || value('status') === 'CANCELLED';
}

/**
 * How long an event lasts: whole days added to its wall-clock start (a DURATION's days and weeks,
 * or an all-day event's), then exact time. RFC 5545 (3.3.6, 3.8.5.3) makes hours of a DURATION, and
 * the span from DTSTART to DTEND, exact: a 30-minute call at 01:30 on the night the clocks go back
 * ends 30 minutes later, whatever the clock then reads.
 */
interface Length {
  days: number;
  ms: number;
}

function lengthOf(event: Component, clocks: Clocks): Length {
  const start = event.getFirstPropertyValue('dtstart');
  const duration = event.getFirstPropertyValue('duration');
  const end = event.getFirstPropertyValue('dtend');
  if (!(start instanceof ICAL.Time)) return { days: 0, ms: 0 };
  if (duration instanceof ICAL.Duration) {
    const sign = duration.isNegative ? -1 : 1;
    const seconds = (duration.hours * 60 + duration.minutes) * 60 + duration.seconds;
    return { days: sign * (duration.weeks * 7 + duration.days), ms: sign * seconds * 1000 };
  }
  if (end instanceof ICAL.Time && start.isDate) {
    const days = Date.UTC(end.year, end.month - 1, end.day) - Date.UTC(start.year, start.month - 1, start.day);
    return { days: days / DAY, ms: 0 };
  }
  if (end instanceof ICAL.Time) {
    const startZone = tzidOf(event, 'dtstart');
    const exact =
      instantOfTime(end, tzidOf(event, 'dtend') ?? startZone, clocks) - instantOfTime(start, startZone, clocks);
    return { days: 0, ms: exact };
  }
  // Without an end, an all-day event lasts its day and a timed one takes no time.
  return { days: start.isDate ? 1 : 0, ms: 0 };
}

/** The interval of an occurrence starting at `start`, in the zone its event's DTSTART names. */
function intervalFrom(start: Time, zone: string | undefined, length: Length, clocks: Clocks): Interval {
  const from = instantOfTime(start, zone, clocks);
  if (length.days === 0) return { start: from, end: from + length.ms };
  const end = start.clone();
  end.adjust(length.days, 0, 0, 0);
  return { start: from, end: instantOfTime(end, zone, clocks) + length.ms };
}

/** A single event's (or one changed occurrence's) own times. */
function timesOf(event: Component, clocks: Clocks): Interval | undefined {
  const start = event.getFirstPropertyValue('dtstart');
  if (!(start instanceof ICAL.Time)) return undefined;
  return intervalFrom(start, tzidOf(event, 'dtstart'), lengthOf(event, clocks), clocks);
}

/**
 * Each occurrence of a recurring event that meets the range (RRULE and RDATE less EXDATE, walked
 * by ical.js), but those in `changed`, the instants of occurrences another VEVENT of the same UID
 * replaces (RECURRENCE-ID): they count as that event says.
 */
function occurrencesOf(event: Component, changed: ReadonlySet<number>, range: Interval, clocks: Clocks): Interval[] {
  const zone = tzidOf(event, 'dtstart');
  const length = lengthOf(event, clocks);
  const expansion = new ICAL.Event(event).iterator();
  const found: Interval[] = [];
  for (let count = 0; count < MAX_OCCURRENCES; count += 1) {
    const next = expansion.next();
    if (!next) return found;
    const occurrence = intervalFrom(next, zone, length, clocks);
    if (occurrence.start >= range.end) return found;
    if (!changed.has(occurrence.start) && occurrence.end > range.start) found.push(occurrence);
  }
  // Its later occurrences were never reached: rather no calendar than one read in part.
  throw new RangeError(`a recurring event repeats more than ${MAX_OCCURRENCES} times before the range ends`);
}

/**
 * A calendar (as jCal) without the definitions of the zones Intl knows by their name, which
 * Google writes for every zone it uses: their times are then read with Intl (instantOfTime), by
 * the same rules and far faster than ical.js walks a VTIMEZONE's, for each occurrence of a series
 * and each of its comparisons. A zone only the file knows (Outlook's "W. Europe Standard Time")
 * keeps its definition.
 */
function withoutKnownZones(jcal: unknown): unknown[] {
  if (!Array.isArray(jcal)) return [];
  const [name, properties, components] = jcal as [unknown, unknown, unknown];
  if (!Array.isArray(components)) return jcal;
  const known = (component: unknown) => {
    if (!Array.isArray(component) || component[0] !== 'vtimezone' || !Array.isArray(component[1])) return false;
    const tzid: unknown = component[1].find((property: unknown) => Array.isArray(property) && property[0] === 'tzid');
    return Array.isArray(tzid) && typeof tzid[3] === 'string' && isKnownZone(tzid[3]);
  };
  return [name, properties, components.filter((component) => !known(component))];
}

/**
 * The busy times an iCalendar file (RFC 5545) gives within a range, merged and sorted: every
 * event but those shown as free or cancelled, recurring ones expanded (RRULE, RDATE, EXDATE, and
 * occurrences changed or cancelled by a RECURRENCE-ID), all-day ones covering their days in the
 * owner's zone. Throws when ical.js cannot read the file or one of its events: a calendar read in
 * part could offer a time the owner is busy.
 */
export function busyFromIcs(text: string, range: Interval, ownerTimeZone: string): Interval[] {
  const parsed: unknown[] = ICAL.parse(text);
  const calendars = typeof parsed[0] === 'string' ? [parsed] : parsed;
  const busy: Interval[] = [];
  const clocks = clocksFor(ownerTimeZone);
  for (const jcal of calendars) {
    const events = new ICAL.Component(withoutKnownZones(jcal)).getAllSubcomponents('vevent');
    const uidOf = (event: Component) => String(event.getFirstPropertyValue('uid') ?? '');
    // The occurrences changed by another VEVENT, by series (UID) and original start.
    const changedBySeries = new Map<string, Set<number>>();
    for (const event of events) {
      const recurrenceId = event.getFirstPropertyValue('recurrence-id');
      if (!(recurrenceId instanceof ICAL.Time)) continue;
      const changed = changedBySeries.get(uidOf(event)) ?? new Set<number>();
      changed.add(instantOfTime(recurrenceId, tzidOf(event, 'recurrence-id'), clocks));
      changedBySeries.set(uidOf(event), changed);
    }
    for (const event of events) {
      if (isFree(event)) continue;
      // A changed occurrence counts as it now is, wherever it moved: into the range or out of it.
      const recurring =
        !event.hasProperty('recurrence-id') && (event.hasProperty('rrule') || event.hasProperty('rdate'));
      if (recurring) busy.push(...occurrencesOf(event, changedBySeries.get(uidOf(event)) ?? new Set(), range, clocks));
      else {
        const times = timesOf(event, clocks);
        if (times) busy.push(times);
      }
    }
  }
  const within = busy
    .filter(({ start, end }) => start < range.end && end > range.start)
    .map(({ start, end }) => ({ start: Math.max(start, range.start), end: Math.min(end, range.end) }));
  return mergeIntervals(within);
}
