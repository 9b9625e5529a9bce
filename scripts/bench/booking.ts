/**
 * The open times for 30 days with a busy calendar of 500 events: GET /api/booking/slots called
 * through its handler (the build's hours, the embedded store holding 20 booked calls), served
 * from the copy of the calendar a first request read, median and p95 over BENCH_REQUESTS
 * requests (200); then, apart, what one read of the calendar costs (fetched over local HTTP and
 * parsed, and each half alone), and the pure openTimes() on its own.
 *
 * The calendar is made to look like a consultant's feed (busyCalendar below): single meetings (a
 * fifth in UTC, the rest in Europe/London, defined by a VTIMEZONE as Google writes it), weekly
 * series (some fortnightly, some ending, some with an excluded or a moved occurrence), and
 * all-day events of one to three days, most shown as free.
 *
 *   npm run bench:booking          (builds first: the functions read dist/booking-hours.json)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type * as BusyCalendar from '../../functions/_lib/booking/busy-calendar.ts';
import type * as BusyFromIcs from '../../functions/_lib/booking/busy-from-ics.ts';
import type * as OpenTimes from '../../functions/_lib/booking/open-times.ts';
import type * as Slots from '../../functions/booking-slots.ts';
import type * as StoreModule from '../../functions/_lib/store/get-store.ts';
import { startCalendarServer } from '../harness/calendar-server.ts';
import { createContext, importBundled } from '../harness/functions.ts';
import { PROJECT_ROOT } from '../harness/project.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const EVENTS = 500;
const ZONE = 'Europe/London';
const DAY = 86_400_000;

/** A seeded generator (mulberry32): the same calendar on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const next = random(60);
const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)] as T;

const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(Date.now());
const dayAfter = (count: number) => new Date(Date.parse(`${today}T00:00:00Z`) + count * DAY).toISOString().slice(0, 10);
const compact = (day: string) => day.replaceAll('-', '');
const wall = (day: string, minutes: number) =>
  `${compact(day)}T${String(Math.floor(minutes / 60)).padStart(2, '0')}${String(minutes % 60).padStart(2, '0')}00`;
const utc = (day: string, minutes: number) => `${wall(day, minutes)}Z`;
const TITLES = ['Client call', 'Workshop', 'Dentist', 'Review', 'Lunch with Sam', 'Project sync', 'Invoice run'];

const VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:Europe/London',
  'X-LIC-LOCATION:Europe/London',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0000',
  'TZOFFSETTO:+0100',
  'TZNAME:BST',
  'DTSTART:19700329T010000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0000',
  'TZNAME:GMT',
  'DTSTART:19701025T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

/**
 * A calendar of EVENTS events, as a consultant's feed holds them: 420 single meetings on weekdays,
 * a sixth in the next 30 days and the rest over the past year; 40 weekly series started up to a
 * year ago, with 10 moved occurrences; 30 all-day events over the same year, four in five shown as
 * free (Google's default for an all-day event).
 */
function busyCalendar(): string {
  const events: string[][] = [];
  const event = (uid: string, ...properties: string[]) =>
    events.push(['BEGIN:VEVENT', `UID:${uid}@bench.example`, `SUMMARY:${pick(TITLES)}`, ...properties, 'END:VEVENT']);
  /** A weekday within the next 30 days, or (`past`) within the past year. */
  const weekday = (past: boolean) => {
    for (;;) {
      const day = dayAfter(past ? -Math.floor(next() * 365) - 1 : Math.floor(next() * 31));
      if (new Date(`${day}T00:00:00Z`).getUTCDay() % 6 !== 0) return day;
    }
  };
  for (let index = 0; index < 420; index += 1) {
    const day = weekday(index % 6 !== 0);
    const start = 8 * 60 + 30 * Math.floor(next() * 18);
    const length = pick([30, 45, 60, 90]);
    if (index % 5 === 0) event(`single-${index}`, `DTSTART:${utc(day, start)}`, `DTEND:${utc(day, start + length)}`);
    else
      event(
        `single-${index}`,
        `DTSTART;TZID=Europe/London:${wall(day, start)}`,
        `DTEND;TZID=Europe/London:${wall(day, start + length)}`,
      );
  }
  for (let index = 0; index < 40; index += 1) {
    const first = weekday(true);
    const start = 7 * 60 + 30 * Math.floor(next() * 24);
    const rule = pick(['FREQ=WEEKLY', 'FREQ=WEEKLY;INTERVAL=2', `FREQ=WEEKLY;UNTIL=${compact(dayAfter(20))}T235959Z`]);
    const stamp = (day: string) => `TZID=Europe/London:${wall(day, start)}`;
    // An occurrence one to three weeks on: the series' weekday.
    const ahead = (new Date(`${first}T00:00:00Z`).getUTCDay() - new Date(`${today}T00:00:00Z`).getUTCDay() + 7) % 7;
    const upcoming = dayAfter(ahead + 7 * (1 + Math.floor(next() * 3)));
    const properties = [`DTSTART;${stamp(first)}`, `DURATION:PT${pick([30, 60])}M`, `RRULE:${rule}`];
    if (index % 5 === 0) properties.push(`EXDATE;${stamp(upcoming)}`);
    event(`weekly-${index}`, ...properties);
    if (index % 4 === 1)
      event(
        `weekly-${index}`,
        `RECURRENCE-ID;${stamp(upcoming)}`,
        `DTSTART;TZID=Europe/London:${wall(upcoming, start + 60)}`,
        'DURATION:PT1H',
      );
  }
  while (events.length < EVENTS) {
    const day = dayAfter(Math.floor(next() * 396) - 365);
    const days = 1 + Math.floor(next() * 3);
    const last = new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
    event(
      `all-day-${events.length}`,
      `DTSTART;VALUE=DATE:${compact(day)}`,
      `DTEND;VALUE=DATE:${compact(last)}`,
      ...(events.length % 5 === 0 ? [] : ['TRANSP:TRANSPARENT']),
    );
  }
  const lines = [...VTIMEZONE, ...events.flat()];
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Bench//Busy calendar//EN', ...lines, 'END:VCALENDAR', ''].join(
    '\r\n',
  );
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const ms = (value: number) => Number(value.toFixed(2));
const summary = (values: number[]) => ({
  'median ms': ms(percentile(values, 50)),
  'p95 ms': ms(percentile(values, 95)),
  'max ms': ms(Math.max(...values)),
  runs: values.length,
});
async function timed<T>(run: () => Promise<T> | T): Promise<[number, T]> {
  const started = performance.now();
  const value = await run();
  return [performance.now() - started, value];
}

const text = busyCalendar();
const calendar = await startCalendarServer(text);
const folder = mkdtempSync(path.join(tmpdir(), 'bench-booking-'));
Object.assign(process.env, { SITE_LOCAL_RUN: 'true', LOCAL_STORE_DIR: folder, BOOKING_BUSY_ICS_URL: calendar.url });

const [{ default: handler }, { busyTimes }, { busyFromIcs }, { openTimes }, { getStore }] = await Promise.all([
  importBundled<typeof Slots>(PROJECT_ROOT, 'functions/booking-slots.ts'),
  importBundled<typeof BusyCalendar>(PROJECT_ROOT, 'functions/_lib/booking/busy-calendar.ts'),
  importBundled<typeof BusyFromIcs>(PROJECT_ROOT, 'functions/_lib/booking/busy-from-ics.ts'),
  importBundled<typeof OpenTimes>(PROJECT_ROOT, 'functions/_lib/booking/open-times.ts'),
  importBundled<typeof StoreModule>(PROJECT_ROOT, 'functions/_lib/store/get-store.ts'),
]);

try {
  // Twenty calls booked over the month, at 11:00 UTC on the days after today.
  const store = await getStore();
  for (let index = 1; index <= 20; index += 1) {
    const start = Date.parse(`${dayAfter(index)}T11:00:00Z`);
    const id = crypto.randomUUID();
    await store.createBooking(
      {
        id,
        leadId: id,
        start: new Date(start).toISOString(),
        end: new Date(start + 30 * 60_000).toISOString(),
        heldUntil: new Date(start + 45 * 60_000).toISOString(),
        day: dayAfter(index),
        name: 'Bench',
        email: `bench-${index}@example.com`,
        timeZone: ZONE,
        uid: `${id}@bench.example`,
        tokenHash: 'bench',
      },
      new Date(),
      { outbox: () => ({ entries: [] }) },
    );
  }

  const call = async () => {
    const response = await handler(
      new Request('http://localhost/api/booking/slots'),
      createContext({ ip: '198.18.0.1' }),
    );
    const body = (await response.json()) as { slots?: unknown[]; error?: string };
    if (response.status !== 200) throw new Error(`GET /api/booking/slots answered ${response.status}: ${body.error}`);
    return body.slots?.length ?? 0;
  };
  // The first request reads the calendar; the next ones answer from its copy, as the slots list does.
  const [firstMs, slotCount] = await timed(call);
  for (let run = 0; run < 5; run += 1) await call();
  const handlerTimes: number[] = [];
  for (let run = 0; run < REQUESTS; run += 1) handlerTimes.push((await timed(call))[0]);

  const range = { start: Date.now(), end: Date.now() + 31 * DAY };
  const reads: number[] = [];
  const fetches: number[] = [];
  const parses: number[] = [];
  let busy: { start: number; end: number }[] = [];
  for (let run = 0; run < 7; run += 1) {
    reads.push((await timed(() => busyTimes(range, { fresh: true, timeZone: ZONE })))[0]);
    fetches.push((await timed(async () => (await fetch(calendar.url)).text()))[0]);
    const [parseMs, parsed] = await timed(() => busyFromIcs(text, range, ZONE));
    parses.push(parseMs);
    busy = parsed;
  }

  const hours = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'dist', 'booking-hours.json'), 'utf8')) as Parameters<
    typeof openTimes
  >[0]['hours'];
  const booked = Array.from({ length: 20 }, (_, index) => {
    const start = Date.parse(`${dayAfter(index + 1)}T11:00:00Z`);
    return { start, end: start + 30 * 60_000 };
  });
  const pure: number[] = [];
  for (let run = 0; run < REQUESTS; run += 1)
    pure.push((await timed(() => openTimes({ hours, busy, booked, now: Date.now() })))[0]);

  console.log(
    `\nOpen times for ${hours.bookingWindowDays} days: a calendar of ${EVENTS} events (${(text.length / 1024).toFixed(0)} KB), ` +
      `${busy.length} busy intervals in the next 31 days after merging, 20 calls booked; ${slotCount} times offered.\n`,
  );
  console.table([
    { measure: 'GET /api/booking/slots, calendar already read (the goal: median ≤ 50 ms)', ...summary(handlerTimes) },
    { measure: 'openTimes() alone', ...summary(pure) },
    { measure: 'one read of the calendar: fetch and parse (a booking, or a copy older than 3 min)', ...summary(reads) },
    { measure: '  of which the fetch over local HTTP', ...summary(fetches) },
    { measure: '  of which the parse and expansion (busyFromIcs)', ...summary(parses) },
  ]);
  console.log(`The first request, which read the calendar: ${ms(firstMs)} ms.`);
} finally {
  await calendar.stop();
  rmSync(folder, { recursive: true, force: true });
}
