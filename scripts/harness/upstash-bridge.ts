/**
 * A small HTTP server that speaks the Upstash Redis REST protocol, backed by a real redis-server.
 *
 * It implements what the real `@upstash/redis` client and `@upstash/ratelimit` send:
 * - `POST <base>` with `["CMD", ...args]`         → `{ result }`, or HTTP 400 `{ error }`
 * - `POST <base>/pipeline` with `[[...], ...]`    → `[{ result } | { error }, ...]`
 * - `POST <base>/multi-exec` with `[[...], ...]`  → the same, run in one MULTI/EXEC
 * - `Authorization: Bearer <token>`, otherwise HTTP 401 `{ "error": "Unauthorized" }`
 * - `Upstash-Encoding: base64`: every string in a result (nested ones too) is base64-encoded
 * - Lua shebangs: Redis 7.0 rejects flags it does not know (`#!lua flags=allow-key-locking`, sent by
 *   @upstash/ratelimit ≥ 2.1), so scripts are rewritten with only the known flags, and the
 *   client's sha1 (of the original script) is translated to the sha1 of the rewritten one.
 *
 * `setBroken(true)` makes every request hang for 30 s and then answer 500, to simulate a broken store.
 * `onCommand(listener)` shows each command to a test just before it goes to Redis (to pause the
 * real server at the moment a given write arrives, for example).
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import IORedis from 'ioredis';

export interface UpstashBridgeOptions {
  /** redis://host:port of the backing redis-server. */
  redisUrl: string;
  /** The token the client must send as `Authorization: Bearer <token>`. */
  token: string;
}

export interface UpstashBridge {
  /** http://127.0.0.1:PORT */
  url: string;
  stop(): Promise<void>;
  /** While true, every request hangs for 30 s and then answers 500. */
  setBroken(broken: boolean): void;
  /** HTTP requests answered so far: each one is a round trip of the client to the store. */
  requestCount(): number;
  /** Calls the listener with each command (name first, scripts as sent), just before it is sent to Redis; undefined removes it. */
  onCommand(listener: ((command: string[]) => void) | undefined): void;
}

const BROKEN_DELAY_MS = 30_000;

/** The shebang flags Redis 7.0 understands; anything else is dropped. */
const KNOWN_SCRIPT_FLAGS = new Set(['no-writes', 'allow-oom', 'allow-stale', 'no-cluster', 'allow-cross-slot-keys']);

/** Commands that would change the state of the shared connection. */
const UNSUPPORTED = new Set([
  'SELECT',
  'QUIT',
  'RESET',
  'MULTI',
  'EXEC',
  'DISCARD',
  'WATCH',
  'UNWATCH',
  'MONITOR',
  'SUBSCRIBE',
  'PSUBSCRIBE',
  'SSUBSCRIBE',
  'UNSUBSCRIBE',
  'PUNSUBSCRIBE',
  'SUNSUBSCRIBE',
  'HELLO',
  'CLIENT',
]);

type Arg = string;
type Reply = number | string | null | Buffer | Error | Reply[];
type Json = number | string | null | Json[];
type Item = { result: Json } | { error: string };

class BridgeError extends Error {}

const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex');

/** Replaces a first line `#!lua ...` by `#!lua` plus only the flags Redis 7.0 knows. */
export function rewriteScript(script: string): string {
  const match = /^#!lua(?=[ \t\r\n]|$)([^\n]*)/.exec(script);
  if (!match) return script;
  const rest = script.slice(match[0].length);
  const trailingCr = match[1].endsWith('\r') ? '\r' : '';
  const flags: string[] = [];
  for (const token of match[1].trim().split(/[ \t]+/)) {
    if (!token.startsWith('flags=')) continue; // other options are unknown to Redis 7.0 too
    for (const flag of token.slice('flags='.length).split(',')) {
      if (KNOWN_SCRIPT_FLAGS.has(flag) && !flags.includes(flag)) flags.push(flag);
    }
  }
  return `#!lua${flags.length > 0 ? ` flags=${flags.join(',')}` : ''}${trailingCr}${rest}`;
}

function toArg(value: unknown): Arg {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}

function encodeReply(reply: Reply, base64: boolean): Json {
  if (reply === null || reply === undefined) return null;
  if (typeof reply === 'number') return reply;
  if (Buffer.isBuffer(reply)) return base64 ? reply.toString('base64') : reply.toString('utf8');
  if (typeof reply === 'string') return base64 ? Buffer.from(reply, 'utf8').toString('base64') : reply;
  if (Array.isArray(reply)) return reply.map((item) => encodeReply(item, base64));
  if (reply instanceof Error) return encodeReply(reply.message, base64); // an error nested in an array
  return encodeReply(String(reply), base64);
}

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function startUpstashBridge(options: UpstashBridgeOptions): Promise<UpstashBridge> {
  const { redisUrl, token } = options;
  const redis = new IORedis(redisUrl, { lazyConnect: false });
  redis.on('error', () => {
    // ioredis reconnects on its own (e.g. while the redis-server restarts); keep the output quiet.
  });

  /** sha1(original script) → sha1(script as loaded into Redis). */
  const shaMap = new Map<string, string>();
  let broken = false;
  let commandListener: ((command: string[]) => void) | undefined;
  const brokenTimers = new Set<NodeJS.Timeout>();

  const rememberScript = (script: string): string => {
    const rewritten = rewriteScript(script);
    shaMap.set(sha1(script), sha1(rewritten));
    return rewritten;
  };
  const translateSha = (sha: string) => shaMap.get(sha.toLowerCase()) ?? sha;

  /** Validates and rewrites one command; `post` adjusts its reply. */
  function prepare(raw: unknown): { name: string; args: Arg[]; post?: (reply: Reply) => Reply } {
    if (!Array.isArray(raw) || raw.length === 0) throw new BridgeError('ERR a command must be a non-empty JSON array');
    const parts = raw.map(toArg);
    commandListener?.(parts);
    const name = parts[0].toUpperCase();
    const args = parts.slice(1);
    if (UNSUPPORTED.has(name)) throw new BridgeError(`ERR '${parts[0]}' is not supported by the test bridge`);
    if ((name === 'EVAL' || name === 'EVAL_RO') && args.length > 0) {
      args[0] = rememberScript(args[0]);
    } else if ((name === 'EVALSHA' || name === 'EVALSHA_RO') && args.length > 0) {
      args[0] = translateSha(args[0]);
    } else if (name === 'SCRIPT' && args.length > 0) {
      const sub = args[0].toUpperCase();
      if (sub === 'LOAD' && args.length === 2) {
        const original = args[1];
        args[1] = rememberScript(original);
        return { name, args, post: () => sha1(original) };
      }
      if (sub === 'EXISTS') {
        for (let i = 1; i < args.length; i += 1) args[i] = translateSha(args[i]);
      }
    }
    return { name, args };
  }

  async function single(body: unknown, base64: boolean): Promise<{ status: number; payload: unknown }> {
    let command;
    try {
      command = prepare(body);
    } catch (error) {
      return { status: 400, payload: { error: errorMessage(error) } };
    }
    try {
      let reply = (await redis.callBuffer(command.name, ...command.args)) as Reply;
      if (command.post) reply = command.post(reply);
      return { status: 200, payload: { result: encodeReply(reply, base64) } };
    } catch (error) {
      return { status: 400, payload: { error: errorMessage(error) } };
    }
  }

  async function batch(body: unknown, base64: boolean, atomic: boolean): Promise<{ status: number; payload: unknown }> {
    if (!Array.isArray(body) || body.length === 0) {
      return { status: 400, payload: { error: 'ERR the body must be a non-empty array of commands' } };
    }
    let commands;
    try {
      commands = body.map(prepare);
    } catch (error) {
      return { status: 400, payload: { error: errorMessage(error) } };
    }
    // ioredis writes a MULTI block in one go on one connection, and Redis runs it atomically.
    const pipeline = atomic ? redis.multi() : redis.pipeline();
    for (const command of commands) pipeline.callBuffer(command.name, ...command.args);
    let results: [Error | null, unknown][] | null;
    try {
      results = await pipeline.exec();
    } catch (error) {
      // EXECABORT: a command was rejected while queueing, nothing ran.
      const previous = (error as { previousErrors?: Error[] }).previousErrors;
      const detail = previous?.length ? ` (${previous.map((e) => e.message).join('; ')})` : '';
      return { status: 400, payload: { error: `${errorMessage(error)}${detail}` } };
    }
    if (!results) return { status: 400, payload: { error: 'EXECABORT Transaction discarded' } };
    const items: Item[] = results.map(([error, reply], i) => {
      if (error) return { error: error.message };
      const post = commands[i].post;
      return { result: encodeReply(post ? post(reply as Reply) : (reply as Reply), base64) };
    });
    return { status: 200, payload: items };
  }

  function send(res: http.ServerResponse, status: number, payload: unknown): void {
    if (res.writableEnded || res.destroyed) return;
    const text = JSON.stringify(payload);
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  }

  async function readBody(req: http.IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (broken) {
      req.resume();
      const timer = setTimeout(() => {
        brokenTimers.delete(timer);
        send(res, 500, { error: 'Service unavailable (the test bridge is set to broken)' });
      }, BROKEN_DELAY_MS);
      brokenTimers.add(timer);
      res.once('close', () => {
        clearTimeout(timer);
        brokenTimers.delete(timer);
      });
      return;
    }
    if (req.headers.authorization !== `Bearer ${token}`) {
      req.resume();
      send(res, 401, { error: 'Unauthorized' });
      return;
    }
    if (req.method !== 'POST') {
      req.resume();
      send(res, 405, { error: 'Method not allowed: use POST' });
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      send(res, 400, { error: 'ERR the body is not valid JSON' });
      return;
    }
    requests += 1;
    const base64 = String(req.headers['upstash-encoding'] ?? '').toLowerCase() === 'base64';
    const pathname = new URL(req.url ?? '/', 'http://bridge').pathname.replace(/\/+$/, '');
    const { status, payload } = pathname.endsWith('/pipeline')
      ? await batch(body, base64, false)
      : pathname.endsWith('/multi-exec')
        ? await batch(body, base64, true)
        : await single(body, base64);
    send(res, status, payload);
  }

  let requests = 0;
  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { error: errorMessage(error) }));
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  let stopped = false;

  return {
    url: `http://127.0.0.1:${port}`,
    setBroken(value: boolean) {
      broken = value;
    },
    requestCount: () => requests,
    onCommand(listener) {
      commandListener = listener;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const timer of brokenTimers) clearTimeout(timer);
      brokenTimers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      redis.disconnect();
    },
  };
}
