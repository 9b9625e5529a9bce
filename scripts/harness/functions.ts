/**
 * Running the code of functions/ outside Netlify, for the local server, the admin scripts and the
 * tests: the Context a v2 function receives, and a bundled import of a module whose imports have
 * no file extensions.
 */
import type { Context } from '@netlify/functions';
import type { AfterAnswerHook } from '../../functions/_lib/delivery/outbox';
import { build } from 'esbuild';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The parts of Netlify's Context the functions use, as the platform fills them. */
/** Work handed to a default waitUntil that has not yet settled. */
const running = new Set<Promise<unknown>>();

/** Runs `promise` on, unobserved, and keeps it in `running` until it settles. */
function runOn(promise: Promise<unknown>): void {
  const settled = promise.catch(() => undefined).finally(() => running.delete(settled));
  running.add(settled);
}

/**
 * Settles once the work handed so far to a default waitUntil has settled. A test awaits it before
 * it removes the folder that work writes to: the local outbox's files are written there after the answer.
 */
export async function afterAnswerWork(): Promise<void> {
  while (running.size > 0) await Promise.all(running);
}

export function createContext({
  ip,
  params = {},
  waitUntil = runOn,
  afterAnswerDelivery,
}: {
  ip: string;
  params?: Record<string, string>;
  /** What becomes of work a function hands to context.waitUntil: by default it runs on (see afterAnswerWork); tests may collect it to await it. */
  waitUntil?: (promise: Promise<unknown>) => void;
} & AfterAnswerHook): Context {
  const context = {
    ip,
    params,
    requestId: crypto.randomUUID(),
    deploy: { context: 'dev', id: '', published: false },
    geo: {},
    site: {},
    account: {},
    server: { region: 'local' },
    waitUntil,
    // The local server's only addition: deliveries after the answer go to its delivery thread.
    ...(afterAnswerDelivery ? { afterAnswerDelivery } : {}),
  };
  // The fields above are all a function here may read; the rest of Context (cookies, next,
  // rewrite…) belongs to edge or framework functions.
  return context as unknown as Context;
}

/** Bundles `entry` and what it imports from the project into one ES module at `outfile`; packages stay imports. */
export async function bundleForNode(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    logLevel: 'error',
  });
}

/**
 * Bundles one module of functions/ (whose imports have no file extensions, as bundlers expect)
 * so a Node script can import it; used by the seeding script and the store tests.
 */
export async function importBundled<T>(projectRoot: string, entry: string): Promise<T> {
  const outfile = path.join(projectRoot, '.netlify', 'scripts', `${path.basename(entry).replace(/\.[^.]+$/, '')}.mjs`);
  await bundleForNode(path.join(projectRoot, entry), outfile);
  return (await import(`${pathToFileURL(outfile).href}?v=${Date.now()}`)) as T;
}
