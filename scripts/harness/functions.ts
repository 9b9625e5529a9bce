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
export function createContext({
  ip,
  params = {},
  waitUntil = (promise) => void promise.catch(() => undefined),
  afterAnswerDelivery,
}: {
  ip: string;
  params?: Record<string, string>;
  /** What becomes of work a function hands to context.waitUntil: by default it runs on, unobserved; tests collect it to await it. */
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
