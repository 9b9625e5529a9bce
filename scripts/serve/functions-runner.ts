/**
 * Runs the Netlify Functions of functions/ for the local production server: each file is
 * bundled once with esbuild and routed by its `config.path`, with the Request/Context interface
 * of Netlify Functions v2. (Netlify bundles v2 functions with nft, its file tracer, whatever
 * netlify.toml's `node_bundler` says; esbuild here is only a fast way to run the same sources.)
 *
 * Netlify's own emulation re-bundles a function on every request (about 2 s each here), which
 * suits editing in `astro dev` but not a server that should behave and perform like production.
 */
import type { Config, Context } from '@netlify/functions';
import { build } from 'esbuild';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createContext } from '../harness/functions.ts';

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
}

export async function loadFunctions(projectRoot: string): Promise<FunctionsRunner> {
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
  const version = Date.now();
  for (const entry of entryPoints) {
    const built = path.join(outdir, `${path.basename(entry).replace(/\.[^.]+$/, '')}.mjs`);
    const module = (await import(`${pathToFileURL(built).href}?v=${version}`)) as {
      default?: Handler;
      config?: Config;
    };
    if (!module.default || !module.config?.path) continue;
    const paths = Array.isArray(module.config.path) ? module.config.path : [module.config.path];
    for (const route of paths) routes.push({ pattern: compilePath(route), handler: module.default });
  }

  return {
    async handle(request, ip) {
      const { pathname } = new URL(request.url);
      for (const { pattern, handler } of routes) {
        const match = pattern.exec(pathname);
        if (match) return handler(request, createContext({ ip, params: { ...match.groups } }));
      }
      return undefined;
    },
  };
}
