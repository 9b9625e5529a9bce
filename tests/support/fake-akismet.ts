/**
 * A stand-in for Akismet's REST API on 127.0.0.1, for the content-check tests: it answers
 * `comment-check` as told (spam, not spam, an error, or never) and keeps what it was sent.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type AkismetBehaviour = 'spam' | 'ham' | 'error' | 'stall';

export interface FakeAkismet {
  /** The API base to set as AKISMET_ENDPOINT: `http://127.0.0.1:port/1.1`. */
  endpoint: string;
  /** The forms it received on comment-check, in order. */
  checks: URLSearchParams[];
  behave: (behaviour: AkismetBehaviour) => void;
  stop: () => Promise<void>;
}

export async function startFakeAkismet(): Promise<FakeAkismet> {
  let behaviour: AkismetBehaviour = 'ham';
  const checks: URLSearchParams[] = [];
  const stalled = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/1.1/comment-check') {
        res.writeHead(404).end();
        return;
      }
      checks.push(new URLSearchParams(body));
      if (behaviour === 'stall') {
        // Answered only when the server stops: longer than any check waits.
        stalled.add(() => res.writeHead(200).end('false'));
        return;
      }
      if (behaviour === 'error') {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end(behaviour === 'spam' ? 'true' : 'false');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/1.1`,
    checks,
    behave: (next) => {
      behaviour = next;
    },
    stop: async () => {
      for (const answer of stalled) answer();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
