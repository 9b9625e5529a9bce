/**
 * The owner's busy times, from their calendar's secret iCal address (BOOKING_BUSY_ICS_URL:
 * Google's "secret address in iCal format", Outlook's published calendar), read as
 * ./busy-from-ics.ts says: only when each event keeps the owner busy, never what it is. The
 * address is a password: no message, log line or error carries it.
 */
import { getEnv } from '../platform/env';
import { busyFromIcs } from './busy-from-ics';
import { readBookingHours } from './hours';
import type { Interval } from './open-times';

/** The calendar could not be read (unreachable, slow, refused, too large, not iCalendar); the message says why, never where. */
export class CalendarUnavailableError extends Error {
  override name = 'CalendarUnavailableError';
  constructor(reason: string) {
    super(`The owner's calendar (BOOKING_BUSY_ICS_URL) ${reason}`);
  }
}

/** How long a read of the calendar may take, body included. */
export const CALENDAR_TIMEOUT_MS = 5000;
/** The largest calendar read: a busy calendar of ten years is a few MB. */
export const CALENDAR_MAX_BYTES = 10 * 1024 * 1024;
/** How old a copy the slots list may answer from; a booking always reads the calendar again. */
export const CALENDAR_COPY_MS = 3 * 60_000;

const DAY = 86_400_000;

/** The address fetched: a webcal:// address (as calendars hand out to subscribe) is read over HTTPS. */
export function fetchedAddress(address: string): string {
  return address.replace(/^webcal:/i, 'https:');
}

/** The calendar's text, within the time and size limits. */
async function readCalendar(address: string, timeoutMs: number): Promise<string> {
  const url = fetchedAddress(address);
  const signal = AbortSignal.timeout(timeoutMs);
  const failed = (error: unknown) =>
    new CalendarUnavailableError(
      error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
        ? `did not answer within ${timeoutMs / 1000} s`
        : 'could not be reached',
    );
  let response: Response;
  try {
    response = await fetch(url, { signal, headers: { accept: 'text/calendar, */*;q=0.1' } });
  } catch (error) {
    throw failed(error);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new CalendarUnavailableError(`answered HTTP ${response.status}`);
  }
  const tooLarge = () => new CalendarUnavailableError(`is larger than ${CALENDAR_MAX_BYTES / 1024 / 1024} MB`);
  if (Number(response.headers.get('content-length') ?? 0) > CALENDAR_MAX_BYTES) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    const reader = response.body?.getReader();
    for (;;) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      size += chunk.value.byteLength;
      if (size > CALENDAR_MAX_BYTES) {
        await reader?.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(chunk.value);
    }
  } catch (error) {
    throw error instanceof CalendarUnavailableError ? error : failed(error);
  }
  const text = new TextDecoder().decode(Buffer.concat(chunks));
  if (!/^\s*BEGIN:VCALENDAR/i.test(text)) throw new CalendarUnavailableError('did not answer with an iCalendar file');
  return text;
}

/** The last read of the calendar: its busy times over `covers`, shared by the requests that come while it is fresh. */
let copy: { url: string; timeZone: string; readAt: number; covers: Interval; busy: Promise<Interval[]> } | undefined;

/** How far ahead a read expands recurring events, whatever range asked: the longest booking window and a day. */
const EXPANDED_DAYS = 92;

/** Options of busyTimes. */
export interface BusyTimesOptions {
  /** true: read the calendar again (a booking); false: a copy of at most CALENDAR_COPY_MS will do (the slots list). */
  fresh: boolean;
  /** The owner's zone, for all-day and floating events; the build's hours say it when absent. */
  timeZone?: string;
  /** How long the read may take. */
  timeoutMs?: number;
}

/**
 * The owner's busy times within a range, merged and sorted; none when no calendar is set. Throws
 * CalendarUnavailableError when it cannot be read.
 */
export async function busyTimes(range: Interval, options: BusyTimesOptions): Promise<Interval[]> {
  const url = getEnv().BOOKING_BUSY_ICS_URL;
  if (!url) return [];
  const timeZone = options.timeZone ?? (await readBookingHours()).timeZone;
  const now = Date.now();
  const within = (busy: Interval[]) => busy.filter(({ start, end }) => start < range.end && end > range.start);
  const usable =
    copy &&
    !options.fresh &&
    copy.url === url &&
    copy.timeZone === timeZone &&
    now - copy.readAt <= CALENDAR_COPY_MS &&
    copy.covers.start <= range.start &&
    copy.covers.end >= range.end;
  if (usable && copy) return within(await copy.busy);
  const covers = { start: Math.min(range.start, now - DAY), end: Math.max(range.end, now + EXPANDED_DAYS * DAY) };
  const busy = readCalendar(url, options.timeoutMs ?? CALENDAR_TIMEOUT_MS).then((text) => {
    try {
      return busyFromIcs(text, covers, timeZone);
    } catch {
      // ical.js's message may quote the file: an event's title is the owner's business.
      throw new CalendarUnavailableError('could not be read as iCalendar');
    }
  });
  const entry = { url, timeZone, readAt: now, covers, busy };
  copy = entry;
  // A failed read is never answered from: the next request tries again.
  busy.catch(() => {
    if (copy === entry) copy = undefined;
  });
  return within(await busy);
}

/** Forgets the copy of the calendar, so the next read fetches it (tests). */
export function forgetCalendarCopy(): void {
  copy = undefined;
}
