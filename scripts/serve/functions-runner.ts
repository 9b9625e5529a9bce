/**
 * Runs the Netlify Functions of functions/ for the local production server: each file is
 * bundled once with esbuild and routed by its `config.path`, with the Request/Context interface
 * of Netlify Functions v2. (Netlify bundles v2 functions with nft, its file tracer, whatever
 * netlify.toml's `node_bundler` says; esbuild here is only a fast way to run the same sources.)
 *
 * Netlify's own emulation re-bundles a function on every request (about 2 s each here), which
 * suits editing in `astro dev` but not a server that should behave and perform like production.
 *
 * What Netlify runs apart from the answering instance (deliveries after an answer, scheduled
 * functions) runs on one delivery thread (delivery-thread.ts), so it never delays an answer.
 */
import type { Config, Context } from '@netlify/functions';
import { build } from 'esbuild';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_PORT } from '../../src/site.config.ts';
import { createContext } from '../harness/functions.ts';
import { parseSchedule } from './cron.ts';
import { bundleDeliveryWorker, startDeliveryThread, type DeliveryThread } from './delivery-thread.ts';

type Handler = (request: Request, context: Context) => Promise<Response> | Response;

interface Route {
  pattern: RegExp;
  handler: Handler;
}

/** `/api/blog/:slug` → a regular expression with a named group per parameter. */
export function compilePath(route: string): RegExp {
  const source = route
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) return `(?<${segment.slice(1)}>[^/]+)`;
      if (segment === '*') return '.*';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}/?$`);
}

export interface FunctionsRunner {
  /** The function's answer, or undefined when no function owns the path. */
  handle: (request: Request, ip: string) => Promise<Response | undefined>;
  /** Stops running the scheduled functions and ends the delivery thread once it has finished what it started. */
  stop: () => Promise<void>;
  /** The thread that delivers after answers and runs the scheduled functions. */
  deliveryThread: DeliveryThread;
}

export interface Scheduled {
  name: string;
  matches: (date: Date) => boolean;
  /** Its schedule is every minute (`* * * * *`): the one LOCAL_SCHEDULE_SECONDS runs more often. */
  everyMinute: boolean;
  /** The bundled module, as an import() specifier for the delivery thread. */
  module: string;
  running: boolean;
  /** The minute (since the epoch) of its last start: a schedule matches once a minute. */
  lastMinute?: number;
}

/** A scheduled function as the scheduler runs it, from its name, its `config.schedule` and its bundled module. */
export function scheduledJob(name: string, schedule: string, module: string): Scheduled {
  return {
    name,
    matches: parseSchedule(schedule),
    everyMinute: schedule.trim().split(/\s+/).join(' ') === '* * * * *',
    module,
    running: false,
  };
}

/**
 * Runs scheduled functions at the start of each minute their schedule matches, as Netlify does
 * on a published deploy: a POST with `{ next_run }`, no client. A run still going when the next
 * is due is not started twice. With `everyMs` (LOCAL_SCHEDULE_SECONDS), the jobs that run every
 * minute run that often instead; the others keep their schedule.
 */
export function startScheduler(
  jobs: Scheduled[],
  origin: () => string,
  thread: Pick<DeliveryThread, 'runScheduled'>,
  everyMs: number | undefined,
): () => void {
  if (jobs.length === 0) return () => undefined;
  const period = everyMs ?? 60_000;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = new Date();
    const minute = Math.floor(now.getTime() / 60_000);
    const next = new Date(Math.floor(now.getTime() / period) * period + period);
    for (const job of jobs) {
      const due = everyMs !== undefined && job.everyMinute ? true : job.matches(now) && job.lastMinute !== minute;
      if (job.running || !due) continue;
      job.running = true;
      job.lastMinute = minute;
      const url = new URL('/.netlify/functions/' + job.name, origin()).href;
      void thread
        .runScheduled(job.module, url, next.toISOString())
        .catch((error: unknown) =>
          console.error(`[schedule] ${job.name} failed: ${error instanceof Error ? error.name : 'unknown error'}`),
        )
        .finally(() => {
          job.running = false;
        });
    }
    timer = setTimeout(tick, next.getTime() - Date.now());
  };
  // The first run comes at once, so what waited while the server was down goes out on start.
  tick();
  return () => clearTimeout(timer);
}

export async function loadFunctions(
  projectRoot: string,
  {
    origin = () => `http://localhost:${DEFAULT_PORT}`,
    scheduleEveryMs,
  }: { origin?: () => string; scheduleEveryMs?: number } = {},
): Promise<FunctionsRunner> {
  // This runner is the local server's: the functions it loads may use the embedded store and a
  // plain ADMIN_PASSWORD. On Netlify nothing sets this, so a deployed function fails closed.
  process.env.SITE_LOCAL_RUN = 'true';
  const directory = path.join(projectRoot, 'functions');
  const entryPoints = existsSync(directory)
    ? readdirSync(directory)
        .filter((file) => /\.(ts|mts|js|mjs)$/.test(file))
        .map((file) => path.join(directory, file))
    : [];
  const outdir = path.join(projectRoot, '.netlify', 'functions-local');
  const deliveryWorker = await bundleDeliveryWorker(
    path.join(projectRoot, '.netlify', 'delivery-thread', 'delivery-worker.mjs'),
  );
  if (entryPoints.length > 0) {
    await build({
      entryPoints,
      outdir,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      outExtension: { '.js': '.mjs' },
      packages: 'external',
      logLevel: 'error',
    });
  }

  const routes: Route[] = [];
  const scheduled: Scheduled[] = [];
  const version = Date.now();
  for (const entry of entryPoints) {
    const built = path.join(outdir, `${path.basename(entry).replace(/\.[^.]+$/, '')}.mjs`);
    const specifier = `${pathToFileURL(built).href}?v=${version}`;
    const module = (await import(specifier)) as {
      default?: Handler;
      config?: Config;
    };
    if (module.default && module.config?.schedule) {
      const name = path.basename(entry).replace(/\.[^.]+$/, '');
      scheduled.push(scheduledJob(name, module.config.schedule, specifier));
    }
    if (!module.default || !module.config?.path) continue;
    const paths = Array.isArray(module.config.path) ? module.config.path : [module.config.path];
    for (const route of paths) routes.push({ pattern: compilePath(route), handler: module.default });
  }

  // Started after SITE_LOCAL_RUN is set: the thread takes a copy of the environment as it is now.
  const deliveryThread = startDeliveryThread(deliveryWorker);
  const stopScheduler = startScheduler(scheduled, origin, deliveryThread, scheduleEveryMs);
  const afterAnswerDelivery = (ids: string[]) => deliveryThread.deliver(ids);
  return {
    deliveryThread,
    async stop() {
      stopScheduler();
      await deliveryThread.stop();
    },
    async handle(request, ip) {
      const { pathname } = new URL(request.url);
      for (const { pattern, handler } of routes) {
        const match = pattern.exec(pathname);
        if (match) return handler(request, createContext({ ip, params: { ...match.groups }, afterAnswerDelivery }));
      }
      return undefined;
    },
  };
}
