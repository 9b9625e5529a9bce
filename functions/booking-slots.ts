import type { Config } from '@netlify/functions';
import { calendarDay } from '../src/shared/booking';
import { BOOKING_SLOTS_PATH, type BookingSlots } from '../src/shared/booking-api';
import { parseQuery, queryOf } from './_lib/admin/query';
import { busyTimes, CalendarUnavailableError } from './_lib/booking/busy-calendar';
import { readBookingHours } from './_lib/booking/hours';
import { callInterval, openTimes, ownerDay } from './_lib/booking/open-times';
import { addDays } from './_lib/booking/wall-clock';
import { endpoint, errorResponse, HttpError, json, requireMethod } from './_lib/platform/http';
import { getStore } from './_lib/store/get-store';

/** The longest range one request may ask for: past it, a client walks the calendar a season at a time. */
const LONGEST_RANGE_DAYS = 90;

/** The message of a 503 when the owner's calendar cannot be read. */
export const CALENDAR_UNREADABLE = 'The calendar cannot be read just now: please try again in a minute.';

/** A day, YYYY-MM-DD, that exists; its errors name the parameter. */
const Day = (name: string) => calendarDay(name).optional();

const SlotsQuery = queryOf({ from: Day('from'), to: Day('to') });

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * GET /api/booking/slots?from=YYYY-MM-DD&to=YYYY-MM-DD: the times a call can be booked at, from
 * the first day to the last (days of the owner's zone, both included; today to the end of the
 * booking window without them), never stored by a cache: each answer is as of its request.
 */
export default endpoint({ name: 'booking-slots' }, async (req) => {
  requireMethod(req, ['GET']);
  const query = parseQuery(SlotsQuery, req);
  const hours = await readBookingHours();
  const { timeZone } = hours;
  const now = Date.now();
  const from = query.from ?? ownerDay(now, timeZone);
  const to = query.to ?? ownerDay(now + hours.bookingWindowDays * DAY, timeZone);
  if (from > to)
    throw new HttpError(errorResponse(400, `from (${from}) is after to (${to}): give the earlier day first`));
  if (addDays(from, LONGEST_RANGE_DAYS) <= to)
    throw new HttpError(errorResponse(400, `to (${to}) is more than ${LONGEST_RANGE_DAYS} days after from (${from})`));

  // The days in the owner's zone lie within 15 hours of the same days in UTC, whatever the zone;
  // only the booking window can offer a time, so only it is read (and a far range costs nothing).
  const range = {
    start: Math.max(Date.parse(from) - 15 * HOUR, now),
    end: Math.min(Date.parse(addDays(to, 1)) + 15 * HOUR, now + (hours.bookingWindowDays + 1) * DAY),
  };
  if (range.start >= range.end)
    return json(200, { timeZone, meetingMinutes: hours.meetingMinutes, slots: [] } satisfies BookingSlots);
  let busy;
  try {
    busy = await busyTimes(range, { fresh: false, timeZone });
  } catch (error) {
    if (error instanceof CalendarUnavailableError) {
      console.error(`[booking-slots] ${error.message}`);
      return errorResponse(503, CALENDAR_UNREADABLE, { headers: { 'Retry-After': '60' } });
    }
    throw error;
  }
  const store = await getStore();
  const calls = await store.bookedCalls(new Date(range.start), new Date(range.end));
  const answer: BookingSlots = {
    timeZone,
    meetingMinutes: hours.meetingMinutes,
    slots: openTimes({ hours, busy, booked: calls.map(callInterval), now, from, to }),
  };
  return json(200, answer);
});

export const config: Config = { path: BOOKING_SLOTS_PATH, method: 'GET' };
