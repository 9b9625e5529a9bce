/**
 * Serves the production build (dist/) the way Netlify does: static files with netlify.toml's
 * redirects and headers through Netlify's own emulation (@netlify/dev), and the functions of
 * functions/ bundled once by functions-runner.ts. Offline, no account needed.
 *
 *   node scripts/serve.ts            http://localhost:4321 (PORT overrides)
 *
 * Functions are bundled into <projectRoot>/.netlify, so two servers that must run side by side
 * (the tests do that) each get a project root of their own: see startServer().
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { fileURLToPath } from 'node:url';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { constants as zlibConstants, createBrotliCompress, createGzip } from 'node:zlib';
import { NetlifyDev } from '@netlify/dev';
import { RedirectsHandler } from '@netlify/redirects';
import { loadFunctions } from './functions-runner.ts';

const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|rss\+xml|manifest\+json)|image\/svg\+xml)/;

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface ServerOptions {
  /** The folder holding netlify.toml, dist/ and functions/. */
  projectRoot?: string;
  port?: number;
  host?: string;
}

export async function startServer({ projectRoot = PROJECT_ROOT, port = Number(process.env.PORT ?? 4321), host = process.env.HOST ?? 'localhost' }: ServerOptions = {}) {
  // Local settings (Upstash, rate limit, admin) come from .env when there is one.
  try {
    process.loadEnvFile(path.join(projectRoot, '.env'));
  } catch {
    // No .env: the defaults apply (embedded store).
  }

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
  const functions = await loadFunctions(projectRoot);

  const publishDir = path.join(projectRoot, 'dist');
  // NetlifyDev serves the target of a rewrite with the target's own status; Netlify answers with
  // the rule's status (404 for the not-found rules). The same parser tells us a rule's status.
  const redirects = new RedirectsHandler({
    configPath: path.join(projectRoot, 'netlify.toml'),
    configRedirects: [],
    jwtRoleClaim: '',
    jwtSecret: '',
    projectDir: projectRoot,
    publicDir: publishDir,
  });

  /** Whether a path names a file of the build, the way Netlify resolves pretty URLs. */
  function isStaticFile(pathname: string): boolean {
    const file = path.join(publishDir, decodeURIComponent(pathname));
    if (!file.startsWith(publishDir)) return false;
    const candidates = [file, path.join(file, 'index.html'), `${file}.html`];
    return candidates.some((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  }

  function withStatus(response: Response, status: number): Response {
    return new Response(response.body, { status, headers: response.headers });
  }

  async function route(request: Request, ip: string): Promise<Response> {
    const fromFunction = await functions.handle(request, ip);
    if (fromFunction) return fromFunction;
    const readRequest = new Request(request.url, { method: request.method, headers: request.headers });
    const result = await netlify.handleAndIntrospect(request);
    if (!result) {
      // Netlify's own behaviour for a missing path: the site's 404.html, with status 404.
      const notFound = await netlify.handle(new Request(new URL('/404.html', request.url), { headers: request.headers }));
      return notFound ? withStatus(notFound, 404) : new Response('Not found', { status: 404 });
    }
    if (result.type === 'redirect' && result.response.status === 200 && !isStaticFile(new URL(request.url).pathname)) {
      const rule = await redirects.match(readRequest);
      if (rule && !rule.redirect && rule.statusCode >= 400) return withStatus(result.response, rule.statusCode);
    }
    return result.response;
  }

  function toRequest(req: IncomingMessage): Request {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? `${host}:${port}`}`);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      else if (value !== undefined) headers.set(name, value);
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    return new Request(url, {
      method: req.method,
      headers,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
      duplex: 'half',
    } as RequestInit);
  }

  async function send(res: ServerResponse, response: Response, req: IncomingMessage) {
    res.statusCode = response.status;
    response.headers.forEach((value, name) => {
      if (name === 'set-cookie') return;
      res.setHeader(name, value);
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) res.setHeader('set-cookie', cookies);
    if (!response.body || req.method === 'HEAD') return res.end();
    const body = Readable.fromWeb(response.body as WebReadableStream);
    // Like Netlify's CDN, text is sent compressed to clients that accept it.
    const type = response.headers.get('content-type') ?? '';
    const accepts = String(req.headers['accept-encoding'] ?? '');
    if (COMPRESSIBLE.test(type) && !response.headers.has('content-encoding') && /\b(br|gzip)\b/.test(accepts)) {
      const brotli = /\bbr\b/.test(accepts);
      res.setHeader('content-encoding', brotli ? 'br' : 'gzip');
      res.setHeader('vary', 'Accept-Encoding');
      res.removeHeader('content-length');
      body.pipe(brotli ? createBrotliCompress({ params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }) : createGzip()).pipe(res);
      return;
    }
    body.pipe(res);
  }

  const server = createServer(async (req, res) => {
    try {
      await send(res, await route(toRequest(req), req.socket.remoteAddress ?? ''), req);
    } catch (error) {
      console.error('serve: request failed', req.method, req.url, error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'Internal server error' }));
    }
  });

  server.listen(port, host, () => {
    console.log(`Serving the production build at http://${host}:${port}`);
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, async () => {
      server.close();
      await netlify.stop();
      process.exit(0);
    });
  }

  return server;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await startServer();
}
