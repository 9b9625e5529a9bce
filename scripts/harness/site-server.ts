/**
 * Starts the local production server as a child process on a free port, from a project root of
 * its own (serve-isolated.ts), and resolves once it is serving. For tests and benchmarks.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { findFreePort } from './redis-server.ts';

const ENTRY = fileURLToPath(new URL('../serve/isolated.ts', import.meta.url));

export interface SiteServer {
  origin: string;
  /** Stops the server; resolves once its process has exited (nothing it does outlives the promise). */
  stop: () => Promise<void>;
  /**
   * Sends the server's process a signal and resolves once it has exited. SIGKILL is a crash:
   * nothing under way finishes, and its temp project root stays behind (set TMPDIR to clear it).
   */
  kill: (signal: NodeJS.Signals) => Promise<void>;
}

export async function startSiteServer(env: Record<string, string> = {}): Promise<SiteServer> {
  const port = await findFreePort();
  const child = spawn(process.execPath, [ENTRY], {
    env: { ...process.env, ...env, PORT: String(port) },
    // The IPC channel closes when this process ends however it ends, and the server then stops:
    // a benchmark or test that dies on an error leaves no server behind.
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('Serving') && resolve());
    child.once('exit', (code) => reject(new Error(`the local server exited with ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { origin: `http://localhost:${port}`, stop: () => kill('SIGTERM'), kill };
}
