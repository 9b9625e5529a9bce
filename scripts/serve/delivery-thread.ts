/**
 * Runs the work Netlify does after an answer or on a schedule off the local server's request
 * thread, on one worker thread (delivery-worker.ts). On Netlify each invocation has an instance
 * of its own, so composing e-mails, talking SMTP and calling webhooks never delays another
 * request; on one Node thread it would, and the server's tail latency would be the delivery's.
 *
 * Nothing handed over is lost: the entries are in the outbox before their ids come here (the
 * sweep would deliver them anyway), a batch the thread has not reported on goes to the next
 * thread when it dies, and a thread that dies is replaced.
 */
import { bundleForNode } from '../harness/functions.ts';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DeliveryReport } from '../../functions/_lib/delivery/outbox';
import type { FromWorker, ToWorker } from './delivery-protocol';

/** How long stop() lets the thread finish what it started before ending it. */
const STOP_GRACE_MS = 5_000;
/** A thread that dies sooner than this after starting is replaced after RESTART_DELAY_MS, so one that cannot start does not spin. */
const SHORT_LIFE_MS = 10_000;
const RESTART_DELAY_MS = 1_000;

/**
 * The report of the batch the entries went out in (the thread gathers what arrives within
 * DELIVERY_DELAY_MS into one), with the thread that delivered it.
 */
export type ThreadReport = DeliveryReport & { threadId: number };

export interface DeliveryThread {
  /** Delivers outbox entries after their answer; resolves with their batch's report once the thread has delivered it. */
  deliver: (ids: string[]) => Promise<ThreadReport>;
  /** Runs a bundled scheduled function once on the thread; rejects when it throws or the thread dies meanwhile. */
  runScheduled: (file: string, url: string, nextRun: string) => Promise<void>;
  /** The id of the thread delivering now (it changes when a thread is replaced). */
  readonly threadId: number;
  /** Entries handed over whose batch the thread (or a predecessor) has had its attempt at, so far. */
  readonly attempted: number;
  /** Ends the current thread at once, as a crash would: for tests of the replacement. */
  crash: () => Promise<void>;
  /** Lets the thread finish what it started (at most STOP_GRACE_MS, or stopGraceMs), then ends it for good. */
  stop: () => Promise<void>;
}

/**
 * Work the thread did not finish: its name is what the logs show (deliverAfterAnswer logs only an
 * error's name). The entries stay in the outbox for the sweep.
 */
export class DeliveryThreadError extends Error {
  constructor(message: string, name = 'DeliveryThreadError') {
    super(message);
    this.name = name;
  }
}

interface Pending<T> {
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}

/**
 * Bundles delivery-worker.ts into `outfile` (the functions' imports have no file extensions, so
 * Node cannot run their sources as they are); packages stay imports from node_modules.
 */
export async function bundleDeliveryWorker(outfile: string): Promise<string> {
  await bundleForNode(path.join(import.meta.dirname, 'delivery-worker.ts'), outfile);
  return outfile;
}

/** Starts the delivery thread from the bundled delivery-worker.ts (`file`, see bundleDeliveryWorker). */
export function startDeliveryThread(file: string, { stopGraceMs = STOP_GRACE_MS } = {}): DeliveryThread {
  const batches = new Map<number, Pending<ThreadReport> & { ids: string[] }>();
  const jobs = new Map<number, Pending<void>>();
  let next = 0;
  let attempted = 0;
  let stopping = false;
  let worker: Worker;
  let restart: NodeJS.Timeout | undefined;

  const post = (message: ToWorker) => worker.postMessage(message);

  function onMessage(message: FromWorker) {
    if (message.type === 'scheduled') {
      const job = jobs.get(message.job);
      jobs.delete(message.job);
      if (message.error) job?.reject(new DeliveryThreadError('the scheduled function failed', message.error));
      else job?.resolve();
      return;
    }
    const batch = batches.get(message.batch);
    batches.delete(message.batch);
    if (message.type === 'delivered') {
      attempted += batch?.ids.length ?? 0;
      batch?.resolve({ ...message.report, threadId: message.threadId });
    } else batch?.reject(new DeliveryThreadError('the delivery failed', message.error));
  }

  function spawn() {
    const started = Date.now();
    // The server's process.env as it is now: SITE_LOCAL_RUN and .env's settings, set after Node started.
    worker = new Worker(file, { env: process.env });
    const current = worker;
    current.on('message', onMessage);
    // An uncaught error ends the thread (then 'exit' replaces it); this says why.
    current.on('error', (error: unknown) =>
      console.error(
        `[delivery] the delivery thread failed: ${error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error'}`,
      ),
    );
    current.once('exit', (code) => {
      if (stopping || current !== worker) return;
      console.error(`[delivery] the delivery thread ended (exit code ${code}); starting another`);
      // A scheduled run is not repeated (its next run comes within a minute); deliveries are.
      for (const job of jobs.values())
        job.reject(new DeliveryThreadError('the delivery thread ended', 'DeliveryThreadEnded'));
      jobs.clear();
      restart = setTimeout(
        () => {
          restart = undefined;
          if (stopping) return;
          spawn();
          // Entries already claimed by the thread that died are the sweep's once their lease ends;
          // the others are claimed and delivered by this one.
          for (const [batch, { ids }] of batches) post({ type: 'deliver', batch, ids });
        },
        Date.now() - started < SHORT_LIFE_MS ? RESTART_DELAY_MS : 0,
      );
    });
  }
  spawn();

  return {
    get threadId() {
      return worker.threadId;
    },
    get attempted() {
      return attempted;
    },
    deliver(ids) {
      const batch = (next += 1);
      return new Promise<ThreadReport>((resolve, reject) => {
        if (stopping)
          return reject(new DeliveryThreadError('the delivery thread has stopped', 'DeliveryThreadStopped'));
        batches.set(batch, { ids, resolve, reject });
        // While a replacement is being started, the batch waits and goes to it.
        if (!restart) post({ type: 'deliver', batch, ids });
      });
    },
    runScheduled(scheduled, url, nextRun) {
      const job = (next += 1);
      return new Promise<void>((resolve, reject) => {
        if (restart || stopping) return reject(new DeliveryThreadError('the delivery thread is not running'));
        jobs.set(job, { resolve, reject });
        post({ type: 'schedule', job, file: scheduled, url, nextRun });
      });
    },
    async crash() {
      await worker.terminate();
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      clearTimeout(restart);
      const current = worker;
      const exited = new Promise<void>((resolve) => {
        if (current.threadId === -1) resolve();
        else current.once('exit', () => resolve());
      });
      current.postMessage({ type: 'stop' } satisfies ToWorker);
      const grace = setTimeout(() => void current.terminate(), stopGraceMs);
      await exited;
      clearTimeout(grace);
      // What the thread did not report on stays in the outbox for the next sweep.
      for (const pending of [...batches.values(), ...jobs.values()])
        pending.reject(new DeliveryThreadError('the delivery thread has stopped', 'DeliveryThreadStopped'));
      batches.clear();
      jobs.clear();
    },
  };
}
