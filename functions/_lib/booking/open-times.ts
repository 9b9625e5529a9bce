/**
 * The open times: when a call can be booked, as a pure function of the owner's hours, their busy
 * times, the calls already booked and the clock. The slots list (GET /api/booking/slots) and a
 * booking (which asks whether its one time is still offered) both come here, so they never disagree.
 */
import { WEEKDAYS, type BookingHours } from '../../../src/shared/booking';
import { type Slot } from '../../../src/shared/booking-api';
import { addDays, dayClock, dayOf, weekdayIndex } from './wall-clock';

/** A stretch of time, in ms since the epoch: from `start` up to, not including, `end`. */
export interface Interval {
  start: number;
  end: number;
}

/** What the open times are made of. */
export interface OpenTimesInput {
  hours: BookingHours;
  /** The owner's busy times (their calendar), in any order, overlapping or not. */
  busy: readonly Interval[];
  /** The calls already booked (not cancelled): each from its start to its end, without the buffer after it. */
  booked: readonly Interval[];
  /** The clock. */
  now: Date | number;
  /** The first day, YYYY-MM-DD in the owner's zone; today when absent. */
  from?: string;
  /** The last day, YYYY-MM-DD in the owner's zone; the last day of the booking window when absent. */
  to?: string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The calendar day, YYYY-MM-DD, of an instant in the owner's zone. */
export function ownerDay(instant: number, timeZone: string): string {
  return dayOf(instant, timeZone);
}

/** A call's interval from a booking's ISO times. */
export function callInterval({ start, end }: { start: string; end: string }): Interval {
  return { start: Date.parse(start), end: Date.parse(end) };
}

/** Intervals sorted by start, those that overlap or touch made one; empty and malformed ones left out. */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals
    .filter(({ start, end }) => Number.isFinite(start) && Number.isFinite(end) && end > start)
    .sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  for (const { start, end } of sorted) {
    const last = merged.at(-1);
    if (last && start <= last.end) last.end = Math.max(last.end, end);
    else merged.push({ start, end });
  }
  return merged;
}

/** Whether [start, end) meets any of the merged intervals: a binary search, as their ends rise with their starts. */
function overlapsAny(merged: readonly Interval[], start: number, end: number): boolean {
  let low = 0;
  let high = merged.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((merged[middle]?.end ?? 0) <= start) low = middle + 1;
    else high = middle;
  }
  const first = merged[low];
  return first !== undefined && first.start < end;
}

/** Minutes after midnight of an HH:MM time (24:00 is 1,440). */
function minutesOf(time: string): number {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return hours * 60 + minutes;
}

/** Each weekday's stretches, in minutes, earliest first; Monday is 0. */
function stretchesByWeekday(hours: BookingHours): { from: number; to: number }[][] {
  const byDay = WEEKDAYS.map(() => [] as { from: number; to: number }[]);
  for (const { day, from, to } of hours.weeklyHours)
    byDay[WEEKDAYS.indexOf(day)]?.push({ from: minutesOf(from), to: minutesOf(to) });
  for (const stretches of byDay) stretches.sort((a, b) => a.from - b.from);
  return byDay;
}

function isDayOff(day: string, daysOff: BookingHours['daysOff']): boolean {
  return daysOff.some(({ from, to }) => day >= from && day <= (to ?? from));
}

/**
 * The times a call can start, earliest first, each with its end, as ISO 8601 in UTC (`…Z`).
 *
 * Each weekly stretch offers a start every slotIntervalMinutes from its beginning, as long as the
 * call ends by the stretch's end, wall times of the owner's zone. On the days the clocks change, a
 * wall time that does not exist is not offered, one that happens twice is offered once, at its
 * first occurrence, and a call is offered only if the owner's clock reads no later than the
 * stretch's end when it ends. A start is then offered if it is at least minimumNoticeHours away,
 * less than bookingWindowDays away, on no day off, on a day with fewer than dailyCap calls
 * booked, and if the call and the buffer after it ([start, end + buffer)) meet neither a busy time
 * nor a booked call with its own buffer.
 */
export function openTimes(input: OpenTimesInput): Slot[] {
  const { hours, busy, booked } = input;
  const { timeZone } = hours;
  const now = Number(input.now);
  const earliest = now + hours.minimumNoticeHours * HOUR;
  const latest = now + hours.bookingWindowDays * DAY;
  // Days outside the window cannot offer a time: they are never walked, whatever the range asked.
  const firstInWindow = ownerDay(earliest, timeZone);
  const lastInWindow = ownerDay(latest, timeZone);
  const first = [input.from ?? ownerDay(now, timeZone), firstInWindow].sort().at(-1) ?? firstInWindow;
  const last = [input.to ?? lastInWindow, lastInWindow].sort()[0] ?? lastInWindow;
  if (first > last) return [];

  const meeting = hours.meetingMinutes * MINUTE;
  const buffer = hours.bufferMinutes * MINUTE;
  const blocked = mergeIntervals([...busy, ...booked.map(({ start, end }) => ({ start, end: end + buffer }))]);
  const callsOnDay = new Map<string, number>();
  if (hours.dailyCap !== undefined)
    for (const call of booked) {
      const day = ownerDay(call.start, timeZone);
      callsOnDay.set(day, (callsOnDay.get(day) ?? 0) + 1);
    }
  const weekly = stretchesByWeekday(hours);

  const starts: number[] = [];
  for (let day = first; day <= last; day = addDays(day, 1)) {
    if (isDayOff(day, hours.daysOff)) continue;
    if (hours.dailyCap !== undefined && (callsOnDay.get(day) ?? 0) >= hours.dailyCap) continue;
    const clock = dayClock(day, timeZone);
    for (const stretch of weekly[weekdayIndex(day)] ?? []) {
      for (
        let minute = stretch.from;
        minute + hours.meetingMinutes <= stretch.to;
        minute += hours.slotIntervalMinutes
      ) {
        const start = clock.instant(minute);
        if (start === undefined || start < earliest || start >= latest) continue;
        if (clock.minutesAt(start + meeting) > stretch.to) continue;
        if (overlapsAny(blocked, start, start + meeting + buffer)) continue;
        starts.push(start);
      }
    }
  }
  // Stretches and days come in order already; a repeated hour is the one place a sort could matter.
  return starts
    .sort((a, b) => a - b)
    .map((start) => ({ start: new Date(start).toISOString(), end: new Date(start + meeting).toISOString() }));
}

/**
 * The open time starting at `start` (an ISO time), or undefined when none does: what a booking
 * checks, with the same rules as the list, on that one day.
 */
export function isOffered(input: Omit<OpenTimesInput, 'from' | 'to'>, start: string): Slot | undefined {
  const at = Date.parse(start);
  if (Number.isNaN(at)) return undefined;
  const day = ownerDay(at, input.hours.timeZone);
  return openTimes({ ...input, from: day, to: day }).find((slot) => Date.parse(slot.start) === at);
}
