/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests and benchmarks: it keeps every request
 * (headers and raw body) and answers with the status it is told, so a test can make it fail for a
 * while, refuse for good, or hang past the sender's timeout.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { arrivals } from './arrivals.ts';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  /** What the receiver answered (`hang`: nothing). */
  status: number | 'hang';
}

export interface WebhookReceiver {
  url: string;
  requests: ReceivedWebhook[];
  /** The status (and any headers, a redirect's Location) of the next answers; `hang` never answers. */
  answer: (status: number | 'hang', headers?: Record<string, string>) => void;
  /** Resolves once `count` requests have arrived. */
  waitFor: (count: number, timeoutMs?: number) => Promise<ReceivedWebhook[]>;
  stop: () => Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const requests: ReceivedWebhook[] = [];
  let status: number | 'hang' = 204;
  let headers: Record<string, string> = {};
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status });
      if (status === 'hang') return;
      res.writeHead(status, headers);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/leads`,
    requests,
    answer: (next, nextHeaders = {}) => {
      status = next;
      headers = nextHeaders;
    },
    waitFor: (count, timeoutMs) => arrivals(requests, count, 'webhooks', timeoutMs),
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
