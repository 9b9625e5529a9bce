/**
 * Serves the production build (dist/) the way Netlify does: page URLs by Netlify's pretty-URL
 * rules (netlify-paths.ts: /x from x.html, /x/ a 301 to /x), static files with netlify.toml's
 * redirects and headers through Netlify's own emulation (@netlify/dev), and the functions of
 * functions/ bundled once by functions-runner.ts. Offline, no account needed.
 *
 *   node scripts/serve/serve.ts          http://localhost:4321 (PORT and HOST override)
 *   node scripts/serve/serve.ts --check  only the checks made before serving (npm start runs them before it builds)
 *
 * Functions are bundled into <projectRoot>/.netlify, so two servers that must run side by side
 * (the tests do that) each get a project root of their own: see startServer().
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { fileURLToPath } from 'node:url';
import { statSync } from 'node:fs';
import path from 'node:path';
import { constants as zlibConstants, createBrotliCompress, createGzip } from 'node:zlib';
import { NetlifyDev } from '@netlify/dev';
import { RedirectsHandler } from '@netlify/redirects';
import { PROJECT_ROOT } from '../harness/project.ts';
import { loadFunctions } from './functions-runner.ts';
import { hostOrigin, resolveStaticPath } from './netlify-paths.ts';
import {
  checkSettings,
  ensurePortFree,
  exitOnStartupError,
  listenFailure,
  loadLocalEnv,
  readScheduleEvery,
} from './startup-checks.ts';
import { BROTLI_QUALITY, encodingFor, staticCache } from './static-cache.ts';

/** A request body left unread by its handler (a 413) is read and dropped up to this size; a larger one closes the connection. */
const DRAIN_LIMIT = 1024 * 1024;

export interface ServerOptions {
  /** The folder holding netlify.toml, dist/ and functions/. */
  projectRoot?: string;
  port?: number;
  host?: string;
}

/**
 * The request body as a web stream. Unlike Readable.toWeb(req), cancelling it (a handler that
 * stops reading at its size limit) or leaving it unread does not destroy the request, and with
 * it the socket: the rest of the body is dropped instead (discardBody).
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let open = true;
  const settle = (action: () => void) => {
    if (open) {
      open = false;
      action();
    }
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on('data', (chunk: Buffer) => {
        if (!open) return;
        controller.enqueue(new Uint8Array(chunk));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.once('end', () => settle(() => controller.close()));
      req.once('error', (error) => settle(() => controller.error(error)));
      req.pause();
    },
    pull() {
      req.resume();
    },
    cancel() {
      open = false;
      discardBody(req);
    },
  });
}

/** Reads what is left of a request body and drops it. */
function discardBody(req: IncomingMessage): void {
  if (req.readableEnded) return;
  req.removeAllListeners('data');
  req.on('data', () => undefined);
  req.resume();
}

/**
 * Starts serving. Local settings (Upstash, rate limit, admin, PORT, HOST) come from .env when there
 * is one; a wrong one, or a port that is taken, throws a StartupError that says what to do, before
 * anything starts.
 */
export async function startServer({ projectRoot = PROJECT_ROOT, ...given }: ServerOptions = {}) {
  loadLocalEnv(projectRoot);
  const settings = await checkSettings(projectRoot);
  const { port = settings.port, host = settings.host } = given;
  await ensurePortFree({ port, host });

  const netlify = new NetlifyDev({
    projectRoot,
    // Nothing here may reach the network: no linked site, no remote environment, no edge runtime download.
    edgeFunctions: { enabled: false },
    environmentVariables: { enabled: false },
    geolocation: { enabled: false },
    images: { enabled: false },
    aiGateway: { enabled: false },
    database: { enabled: false },
    server: { enabled: false },
    blobs: { enabled: false },
    // Functions are bundled once and run by functions-runner.ts (see there why).
    functions: { enabled: false },
  });
  await netlify.start();
  const functions = await loadFunctions(projectRoot, {
    origin: () => `http://${host}:${port}`,
    scheduleEveryMs: readScheduleEvery(process.env).everyMs,
  });

  const publishDir = path.join(projectRoot, 'dist');
  // The build's files, answered from memory once read (static-cache.ts), while they and the
  // configuration that gives them their headers are unchanged.
  const files = staticCache([
    path.join(projectRoot, 'netlify.toml'),
    path.join(publishDir, '_headers'),
    path.join(publishDir, '_redirects'),
  ]);
  // The same parser as NetlifyDev's, to read a matched rule's status.
  const redirects = new RedirectsHandler({
    configPath: path.join(projectRoot, 'netlify.toml'),
    configRedirects: [],
    jwtRoleClaim: '',
    jwtSecret: '',
    projectDir: projectRoot,
    publicDir: publishDir,
  });

  /** Whether a path inside the build is a file (not a folder, not missing). */
  function isFile(relative: string): boolean {
    try {
      return statSync(path.join(publishDir, relative)).isFile();
    } catch {
      return false;
    }
  }

  function withStatus(response: Response, status: number): Response {
    return new Response(response.body, { status, headers: response.headers });
  }

  /** The site's 404 page with status 404, as Netlify answers a path nothing else serves. */
  async function notFoundPage(request: Request): Promise<Response> {
    const notFound = await netlify.handle(new Request(new URL('/404.html', request.url), { headers: request.headers }));
    return notFound ? withStatus(notFound, 404) : new Response('Not found', { status: 404 });
  }

  /**
   * A file the build has: NetlifyDev serves it (with netlify.toml's headers). For /x/ it would
   * look for x.html before x/index.html, so that case is pointed at the exact file.
   */
  async function staticFile(request: Request, { pathname }: URL, file: string): Promise<Response | undefined> {
    const exact = pathname.endsWith('/')
      ? new Request(new URL(`${pathname}index.html`, request.url), { method: request.method, headers: request.headers })
      : request;
    return files.serve(
      request,
      path.join(publishDir, file),
      async () => (await netlify.handleAndIntrospect(exact))?.response,
    );
  }

  async function route(request: Request, ip: string): Promise<Response> {
    const fromFunction = await functions.handle(request, ip);
    if (fromFunction) return fromFunction;
    const url = new URL(request.url);
    const resolution = resolveStaticPath(url.pathname, isFile);
    // Netlify's pretty URLs: one form of a page's URL is served, the other redirects to it.
    if (resolution.kind === 'redirect') {
      return new Response(null, {
        status: 301,
        headers: {
          location: `${resolution.location}${url.search}`,
          'cache-control': 'public, max-age=0, must-revalidate',
        },
      });
    }
    if (resolution.kind === 'file') {
      const served = await staticFile(request, url, resolution.file);
      if (served) return served;
    }
    // A path that does not decode names no file and no rule: the site's 404 page.
    if (resolution.kind === 'malformed') return notFoundPage(request);
    // No file: netlify.toml's rules, then the 404 page.
    const readRequest = new Request(request.url, { method: request.method, headers: request.headers });
    const result = await netlify.handleAndIntrospect(request);
    if (!result) return notFoundPage(request);
    // NetlifyDev serves the target of a rewrite with the target's own status; Netlify answers
    // with the rule's status (404 for the not-found rules).
    if (result.type === 'redirect' && result.response.status === 200) {
      const rule = await redirects.match(readRequest);
      if (rule && !rule.redirect && rule.statusCode >= 400) return withStatus(result.response, rule.statusCode);
    }
    return result.response;
  }

  function toRequest(req: IncomingMessage, origin: string): Request {
    const url = new URL(req.url ?? '/', origin);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      else if (value !== undefined) headers.set(name, value);
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    return new Request(url, {
      method: req.method,
      headers,
      body: hasBody ? bodyStream(req) : undefined,
      duplex: 'half',
    } as RequestInit);
  }

  async function send(res: ServerResponse, response: Response, req: IncomingMessage) {
    res.statusCode = response.status;
    // Answered before the body arrived in full (a 413): what is left of it is dropped after the
    // response (see createServer), unless there may be too much of it to be worth reading.
    if (!req.complete && !(Number(req.headers['content-length']) <= DRAIN_LIMIT)) res.setHeader('connection', 'close');
    response.headers.forEach((value, name) => {
      if (name === 'set-cookie') return;
      res.setHeader(name, value);
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) res.setHeader('set-cookie', cookies);
    if (!response.body || req.method === 'HEAD') return res.end();
    const body = Readable.fromWeb(response.body as WebReadableStream);
    // Like Netlify's CDN, text is sent compressed to clients that accept it.
    const encoding = response.headers.has('content-encoding')
      ? undefined
      : encodingFor(response.headers.get('content-type') ?? '', String(req.headers['accept-encoding'] ?? ''));
    if (encoding) {
      res.setHeader('content-encoding', encoding);
      res.setHeader('vary', 'Accept-Encoding');
      res.removeHeader('content-length');
      body
        .pipe(
          encoding === 'br'
            ? createBrotliCompress({ params: { [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } })
            : createGzip(),
        )
        .pipe(res);
      return;
    }
    body.pipe(res);
  }

  const server = createServer(async (req, res) => {
    // The part of the body no handler read would otherwise be parsed as the next request on a
    // kept-alive connection.
    res.once('finish', () => discardBody(req));
    try {
      const origin = hostOrigin(req.headers.host ?? `${host}:${port}`);
      const response = origin
        ? await route(toRequest(req, origin), req.socket.remoteAddress ?? '')
        : Response.json({ error: 'The Host header names no valid host' }, { status: 400 });
      await send(res, response, req);
    } catch (error) {
      console.error('serve: request failed', req.method, req.url, error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'Internal server error' }));
    }
  });

  // Scheduled functions (the outbox sweep) and the delivery thread run while the server does.
  server.on('close', () => void functions.stop());

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    // Taken since the check above: nothing may keep the process alive on the way out.
    await Promise.all([netlify.stop(), functions.stop()]);
    throw listenFailure(error, { port, host });
  }
  console.log(`Serving the production build at http://${host}:${port}`);

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, async () => {
      server.close();
      // Deliveries under way finish (within seconds) rather than wait for the next sweep.
      await Promise.all([netlify.stop(), functions.stop()]);
      process.exit(0);
    });
  }

  return server;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    loadLocalEnv(PROJECT_ROOT);
    await checkSettings(PROJECT_ROOT).then(ensurePortFree).catch(exitOnStartupError);
  } else {
    await startServer().catch(exitOnStartupError);
  }
}
