// src/shared holds what the pages and the functions both import, and ships to the browser: zod and this folder only.
// Booking the free consultation: the schema of the owner's hours (content/booking/hours.yaml) and of a time zone.
import { z } from 'zod';

// As in schemas.ts: no `new Function` in the browser (CSP), set before this module builds a schema.
z.config({ jitless: true });

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Whether a name is a time zone this runtime knows (an IANA name such as Europe/London). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(name);
  } catch {
    return false;
  }
}

/** An IANA time zone name. */
export const TimeZoneName = z
  .string({ error: 'Time zone is required' })
  .trim()
  .max(64, 'Time zone must be an IANA name such as Europe/London')
  .refine(isTimeZone, 'Time zone must be an IANA name such as Europe/London');

/** A wall-clock time, 00:00 to 24:00. */
const WallTime = z
  .string()
  .trim()
  .regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, 'write the time as HH:MM on a 24-hour clock, such as 09:30 or 17:00');

/**
 * A day of the calendar, YYYY-MM-DD; with `name` (a query parameter), its messages name it,
 * otherwise they say what to write, after the field the content check names.
 */
export const calendarDay = (name?: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, name ? `${name} must be a day written YYYY-MM-DD` : 'write the day as YYYY-MM-DD')
    .refine(
      (day) => {
        // A refinement runs after a failed pattern too: a date that cannot be made is no day.
        const date = new Date(`${day}T00:00:00Z`);
        return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
      },
      name ? `${name} must be a day that exists` : 'is not a day of the calendar',
    );

export const CalendarDay = calendarDay();

/** Minutes as a whole multiple of 5, the size of the cells a booking claims. */
const minutes = (min: number, max: number) =>
  z.number().int('write a whole number of minutes').min(min).max(max).multipleOf(5, 'write a multiple of 5 minutes');

/** The owner's bookable hours and the rules of a booking: the one file content/booking/hours.yaml. */
export const BookingHours = z.object({
  /** The owner's time zone, an IANA name (Europe/London, America/New_York): the weekly hours are read in it. */
  timeZone: TimeZoneName,
  /**
   * The hours calls may be booked in, one line per stretch: a weekday with its start and end.
   * A break is the gap between two stretches of the same day; a day without a stretch is closed.
   */
  weeklyHours: z
    .array(z.object({ day: z.enum(WEEKDAYS), from: WallTime, to: WallTime }))
    .max(50)
    .refine((stretches) => stretches.every(({ from, to }) => from < to), 'each stretch must end after it starts')
    .refine((stretches) => !overlapping(stretches), 'two stretches of one day overlap'),
  /** How long a call lasts. */
  meetingMinutes: minutes(10, 240).default(30),
  /** Free time kept after each call before the next may start. */
  bufferMinutes: minutes(0, 180).default(15),
  /** How long before a call it may be booked at the latest. */
  minimumNoticeHours: z
    .number()
    .int()
    .min(0)
    .max(24 * 14)
    .default(24),
  /** How many days ahead calls may be booked. */
  bookingWindowDays: z.number().int().min(1).max(90).default(30),
  /** How far apart the times offered start: every 30 minutes, say. */
  slotIntervalMinutes: minutes(5, 240).default(30),
  /** The most calls booked on one day; none: no cap. */
  dailyCap: z.number().int().min(1).max(48).optional(),
  /** Days without calls (holidays), each a first day and an optional last day. */
  daysOff: z
    .array(z.object({ from: CalendarDay, to: CalendarDay.optional() }))
    .max(200)
    .default([])
    .refine(
      (days) => days.every(({ from, to }) => to === undefined || from <= to),
      'a last day is before its first day',
    ),
});
export type BookingHours = z.infer<typeof BookingHours>;

/** Why a build stops without the owner's hours. */
export const HOURS_MISSING =
  'content/booking/hours.yaml is missing: the booking page and /api/booking/slots need the owner’s hours. ' +
  'Restore it from the repository, or write a timeZone and weeklyHours in it.';

function overlapping(stretches: readonly { day: Weekday; from: string; to: string }[]): boolean {
  const sorted = [...stretches].sort((a, b) => a.day.localeCompare(b.day) || a.from.localeCompare(b.from));
  return sorted.some((stretch, index) => {
    const next = sorted[index + 1];
    return next !== undefined && next.day === stretch.day && next.from < stretch.to;
  });
}
