/**
 * The local server's delivery thread (started by delivery-thread.ts): what Netlify runs on
 * instances of its own, here off the thread that answers requests. It delivers the outbox entries
 * functions hand over after their answer, with the same code a function runs (deliverNow), and
 * runs the scheduled functions (the outbox sweep). It opens its own store (the embedded store's
 * SQLite file in WAL mode takes writers from several threads; Upstash is plain HTTP) and its own
 * SMTP transport, from the environment the server had when it started this thread.
 *
 * Bundled by functions-runner.ts with the functions, since their imports have no file extensions.
 */
import { constants, setPriority } from 'node:os';
import { parentPort, threadId } from 'node:worker_threads';
import type { Context } from '@netlify/functions';
import { deliverNow } from '../../functions/_lib/delivery/outbox';
import { getStore } from '../../functions/_lib/store/get-store';
import { describeFailure } from '../../functions/_lib/platform/env';
import { createContext } from '../harness/functions';
import type { FromWorker, ToWorker } from './delivery-protocol';

type Handler = (request: Request, context: Context) => Promise<Response> | Response;

const port = parentPort;
if (!port) throw new Error('delivery-worker runs as a worker thread of the local server');

// On Netlify this work has CPUs of its own; here it shares the machine's with the answers. At the
// lowest priority it takes only the time the request thread leaves (on Linux a thread's priority
// is its own, so this thread alone is lowered); where the system refuses, it runs as it is.
try {
  setPriority(constants.priority.PRIORITY_LOW);
} catch {
  // Not allowed here: delivery still runs, at the server's priority.
}

/** What has started and not finished: stopping waits for it. */
const running = new Set<Promise<unknown>>();

function track(work: Promise<unknown>) {
  running.add(work);
  void work.finally(() => running.delete(work));
}

const send = (message: FromWorker) => port.postMessage(message);

async function deliver(batch: number, ids: string[]) {
  try {
    send({ type: 'delivered', batch, report: await deliverNow(await getStore(), ids), threadId });
  } catch (error) {
    send({ type: 'failed', batch, error: describeFailure(error) });
  }
}

async function schedule(job: number, file: string, url: string, nextRun: string) {
  try {
    const module = (await import(file)) as { default: Handler };
    const request = new Request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ next_run: nextRun }),
    });
    await module.default(request, createContext({ ip: '' }));
    send({ type: 'scheduled', job });
  } catch (error) {
    send({ type: 'scheduled', job, error: describeFailure(error) });
  }
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'deliver') track(deliver(message.batch, message.ids));
  else if (message.type === 'schedule') track(schedule(message.job, message.file, message.url, message.nextRun));
  else {
    // The pooled SMTP connections and the store would keep the thread alive: once the work that
    // started is done, the thread ends.
    void Promise.allSettled(running).then(() => process.exit(0));
  }
});
