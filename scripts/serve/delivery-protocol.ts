/**
 * The messages between the local server's request thread and its delivery thread
 * (delivery-thread.ts and delivery-worker.ts). Plain data: they cross threads by structured clone.
 */
import type { DeliveryReport } from '../../functions/_lib/delivery/outbox';

/** From the request thread. */
export type ToWorker =
  /** Deliver these outbox entries after their answer: a function's new entries. */
  | { type: 'deliver'; batch: number; ids: string[] }
  /** Run a scheduled function once: the bundled module's file and the `next_run` Netlify sends. */
  | { type: 'schedule'; job: number; file: string; url: string; nextRun: string }
  /** Finish what has started, then end. */
  | { type: 'stop' };

/** From the delivery thread. */
export type FromWorker =
  | { type: 'delivered'; batch: number; report: DeliveryReport; threadId: number }
  /** A batch whose delivery threw (a store that failed): only the error's name, never its payload. */
  | { type: 'failed'; batch: number; error: string }
  | { type: 'scheduled'; job: number; error?: string };
