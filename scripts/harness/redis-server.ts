/**
 * Starts a throw-away `redis-server` for tests.
 *
 * The binary is taken from REDIS_SERVER_PATH (default: `redis-server` on PATH). Each server gets a
 * free port on 127.0.0.1 and its own temporary directory. With `persistent: true` it writes an
 * append-only file with `fsync` after every write, so data survives `restart()`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface RedisServerOptions {
  /** Keep data across `restart()` (append-only file, fsync always). Default false. */
  persistent?: boolean;
}

export interface RedisServerHandle {
  port: number;
  /** redis://127.0.0.1:PORT */
  url: string;
  /** The server's working directory (removed by `stop()`). */
  dir: string;
  /** Stops the server (SIGTERM, waits for exit) and removes its directory. */
  stop(): Promise<void>;
  /** Stops the server and starts it again on the same port and directory; resolves once it answers PING. */
  restart(): Promise<void>;
  /**
   * Freezes the server process (SIGSTOP): commands sent meanwhile wait in its socket and run when
   * it is resumed, as a real stall of the store would make them.
   */
  pause(): void;
  /** Lets a paused server run again (SIGCONT). */
  resume(): void;
}

const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 10_000;
const OUTPUT_LIMIT = 16_000;

/** Every server still running, so that none outlives the test process. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of running) {
      try {
        child.kill('SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

/** A port that was free a moment ago: listen on port 0, read the port, close. */
export async function findFreePort(): Promise<number> {
  return await new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('could not read the port of a probe socket'));
        return;
      }
      const { port } = address;
      server.close((error) => (error ? reject(error) : resolve(port)));
    });
  });
}

/** One attempt: connect, send PING, resolve true on `+PONG`. */
function pingOnce(port: number, timeoutMs = 1_000): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    let buffer = '';
    let settled = false;
    const socket = net.connect({ host: '127.0.0.1', port });
    const finish = (ok: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.setEncoding('utf8');
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      // `-LOADING ...` while the append-only file is read: not ready yet.
      if (buffer.includes('\r\n')) finish(buffer.startsWith('+PONG'));
    });
    socket.once('error', () => finish(false));
    socket.once('close', () => finish(false));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServerHandle> {
  const binary = process.env.REDIS_SERVER_PATH || 'redis-server';
  const persistent = options.persistent ?? false;
  const port = await findFreePort();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'redis-test-'));
  installExitHook();

  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--dir',
    dir,
    '--daemonize',
    'no',
    '--loglevel',
    'warning',
    ...(persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']),
  ];

  let child: ChildProcess | null = null;
  let stopped = false;

  async function launch(): Promise<void> {
    let output = '';
    // An object, so that TypeScript does not narrow the fields set from callbacks.
    const state: { exited: { code: number | null; signal: NodeJS.Signals | null } | null; spawnError: Error | null } = {
      exited: null,
      spawnError: null,
    };
    const proc = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-OUTPUT_LIMIT);
    };
    proc.stdout?.on('data', collect);
    proc.stderr?.on('data', collect);
    proc.once('error', (error) => {
      state.spawnError = error;
    });
    proc.once('exit', (code, signal) => {
      state.exited = { code, signal };
      running.delete(proc);
    });
    running.add(proc);
    child = proc;

    const describeFailure = (reason: string) =>
      new Error(
        `redis-server (${binary}) on port ${port} ${reason}.` +
          (output.trim() ? `\n--- redis output ---\n${output.trim()}` : ' It printed nothing.'),
      );

    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (state.spawnError) {
        running.delete(proc);
        throw describeFailure(`could not be started: ${state.spawnError.message}`);
      }
      if (state.exited) {
        const { code, signal } = state.exited;
        throw describeFailure(`exited during start-up (code ${code}, signal ${signal})`);
      }
      if (await pingOnce(port)) return;
      if (Date.now() > deadline) {
        await killProcess(proc);
        throw describeFailure(`did not answer PING within ${START_TIMEOUT_MS / 1000} s`);
      }
      await sleep(50);
    }
  }

  async function killProcess(proc: ChildProcess): Promise<void> {
    if (proc.pid === undefined || proc.exitCode !== null || proc.signalCode !== null) {
      running.delete(proc);
      return;
    }
    const exit = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    // A paused server would not act on SIGTERM until it runs again.
    proc.kill('SIGCONT');
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exit;
    clearTimeout(timer);
    running.delete(proc);
  }

  async function stopProcess(): Promise<void> {
    const proc = child;
    child = null;
    if (proc) await killProcess(proc);
  }

  try {
    await launch();
  } catch (error) {
    await stopProcess();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }

  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    async stop() {
      if (stopped) return;
      stopped = true;
      await stopProcess();
      await rm(dir, { recursive: true, force: true });
    },
    async restart() {
      if (stopped) throw new Error('restart() after stop()');
      await stopProcess();
      await launch();
    },
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
  };
}
