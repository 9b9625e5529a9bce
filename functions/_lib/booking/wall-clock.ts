// functions/_lib/booking holds the rules of booking a call: the owner's hours, their calendar, the open times.
/**
 * Wall-clock times in an IANA time zone and the instants they stand for, with Intl alone (no date
 * library). On the day the clocks go forward some wall times do not exist; on the day they go
 * back some exist twice: each function says what it makes of them.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** How far a zone's clocks are ahead of UTC at an instant, in ms (negative west of Greenwich). */
export function offsetAt(instant: number, timeZone: string): number {
  const fields: Partial<Record<Intl.DateTimeFormatPartTypes, number>> = {};
  for (const part of formatOf(timeZone).formatToParts(instant)) fields[part.type] = Number(part.value);
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = fields;
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  return wall - Math.floor(instant / 1000) * 1000;
}

/** Midnight at the start of a YYYY-MM-DD day, as if the day were in UTC. */
function utcMidnight(day: string): number {
  return Date.parse(`${day}T00:00:00.000Z`);
}

/**
 * Every instant whose wall-clock time in the zone is `minutes` after the start of `day` (24:00
 * is the next day's midnight), earliest first: none in a gap, two in a repeated hour. A zone's
 * offset changes at most once in the two days around a wall time, so the offsets a day before and
 * a day after are the only ones it can have.
 */
function instantsOf(day: string, minutes: number, timeZone: string): number[] {
  const asUtc = utcMidnight(day) + minutes * MINUTE;
  const offsets = new Set([offsetAt(asUtc - DAY, timeZone), offsetAt(asUtc + DAY, timeZone)]);
  return [...offsets]
    .map((offset) => asUtc - offset)
    .filter((instant) => instant + offsetAt(instant, timeZone) === asUtc)
    .sort((a, b) => a - b);
}

/** The instant of a wall-clock time: undefined when the clocks skip it, its first occurrence when they repeat it. */
export function instantOf(day: string, minutes: number, timeZone: string): number | undefined {
  return instantsOf(day, minutes, timeZone)[0];
}

/**
 * The instant of a wall-clock time, a skipped one included: read with the offset before the
 * clocks moved, as RFC 5545 (3.3.5) reads a time of a calendar's event that falls in the gap, so
 * 02:30 on the morning New York's clocks go from 02:00 to 03:00 is 03:30.
 */
export function instantOrAfterGap(day: string, minutes: number, timeZone: string): number {
  const asUtc = utcMidnight(day) + minutes * MINUTE;
  return instantOf(day, minutes, timeZone) ?? asUtc - offsetAt(asUtc - DAY, timeZone);
}

/** One day's wall clock in a zone: from wall time to instant and back. */
export interface DayClock {
  /** The instant of a wall time of the day (minutes after its midnight): as instantOf. */
  instant(minutes: number): number | undefined;
  /** The instant of a wall time of the day, a skipped one included: as instantOrAfterGap. */
  instantOrAfterGap(minutes: number): number;
  /** The wall time of an instant, in minutes after the day's midnight (past 1,440 on the next day). */
  minutesAt(instant: number): number;
}

/**
 * The wall clock of one day. On most days the offset is the same from a day before to two days
 * after, and every conversion is a sum; only around a change of the clocks is each one looked up.
 */
export function dayClock(day: string, timeZone: string): DayClock {
  const midnight = utcMidnight(day);
  const offset = offsetAt(midnight - DAY, timeZone);
  if (offset === offsetAt(midnight + 2 * DAY, timeZone))
    return {
      instant: (minutes) => midnight + minutes * MINUTE - offset,
      instantOrAfterGap: (minutes) => midnight + minutes * MINUTE - offset,
      minutesAt: (instant) => (instant + offset - midnight) / MINUTE,
    };
  return {
    instant: (minutes) => instantOf(day, minutes, timeZone),
    instantOrAfterGap: (minutes) => instantOrAfterGap(day, minutes, timeZone),
    minutesAt: (instant) => (instant + offsetAt(instant, timeZone) - midnight) / MINUTE,
  };
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day, YYYY-MM-DD, of an instant in a zone. */
export function dayOf(instant: number, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(instant);
}

/** The day `count` days after (before, when negative) a YYYY-MM-DD day. */
export function addDays(day: string, count: number): string {
  return new Date(utcMidnight(day) + count * DAY).toISOString().slice(0, 10);
}

/** The day of the week of a YYYY-MM-DD day, from 0 for Monday to 6 for Sunday. */
export function weekdayIndex(day: string): number {
  return (new Date(utcMidnight(day)).getUTCDay() + 6) % 7;
}
