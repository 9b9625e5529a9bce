/**
 * A calendar's secret iCal address on 127.0.0.1, as Google or Outlook publish one, for the booking
 * tests and benchmark: it serves the text it is given under a secret path, counts the reads, and
 * can be told to fail with a status or to never answer.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CalendarServer {
  /** The secret address, `http://127.0.0.1:<port>/calendar/ical/<secret>/basic.ics`. */
  url: string;
  /** The part of the address that is a password. */
  secret: string;
  /** How many reads have arrived. */
  reads: () => number;
  /** The calendar the next reads get. */
  serve: (text: string) => void;
  /** What the next reads get: the calendar (200), another status, or `hang` (no answer at all). */
  answer: (status: number | 'hang') => void;
  stop: () => Promise<void>;
}

export async function startCalendarServer(text = ''): Promise<CalendarServer> {
  const secret = randomBytes(16).toString('hex');
  const path = `/calendar/ical/${secret}/basic.ics`;
  let calendar = text;
  let status: number | 'hang' = 200;
  let reads = 0;
  const server = createServer((req, res) => {
    reads += 1;
    if (status === 'hang') return;
    if (req.url !== path) {
      res.writeHead(404).end();
      return;
    }
    if (status !== 200) {
      res.writeHead(status, { 'content-type': 'text/plain' }).end('failed');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(calendar);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    secret,
    reads: () => reads,
    serve: (next) => {
      calendar = next;
      status = 200;
    },
    answer: (next) => {
      status = next;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
