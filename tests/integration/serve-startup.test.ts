/**
 * What `npm start` and `npm run serve` say when they cannot serve: every wrong setting at once, or
 * the port that is taken and how to pick another; then they exit non-zero, with no stack trace.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../scripts/harness/project';
import { findFreePort } from '../../scripts/harness/redis-server';

const SERVE = path.join(PROJECT_ROOT, 'scripts', 'serve', 'serve.ts');
/** Long enough to bundle the functions and start; a server still running then is stopped and counts as a failure. */
const DEADLINE_MS = 40_000;
const TIMEOUT_MS = DEADLINE_MS + 10_000;

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'serve-startup-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** Runs the server until it exits by itself or the deadline passes; what it printed and how it ended. */
function serve(env: Record<string, string>): Promise<{ code: number | null; output: string; served: boolean }> {
  const { SESSION_SECRET: _s, ADMIN_PASSWORD: _p, ADMIN_PASSWORD_HASH: _h, ...inherited } = process.env;
  const child = spawn(process.execPath, [SERVE], {
    env: { ...inherited, LOCAL_STORE_DIR: folder, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let served = false;
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.includes('Serving the production build')) served = true;
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const timer = setTimeout(() => child.kill('SIGTERM'), DEADLINE_MS);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output, served });
    }),
  );
}

describe('wrong settings', () => {
  test('are all named at once, and nothing is served', { timeout: TIMEOUT_MS }, async () => {
    const { code, output, served } = await serve({
      PORT: String(await findFreePort()),
      SESSION_SECRET: 'only-twenty-chars-xx',
      RATE_LIMIT_PER_MINUTE: 'lots',
      SMTP_URL: 'https://mail.example.com',
    });
    expect(served).toBe(false);
    expect(code).toBe(1);
    expect(output).toContain('SESSION_SECRET: must be at least 32 characters');
    expect(output).toContain('RATE_LIMIT_PER_MINUTE:');
    expect(output).toContain('SMTP_URL: must be an smtp:// or smtps:// URL');
    expect(output).not.toContain('only-twenty-chars-xx');
    expect(output).not.toMatch(/^\s+at /m);
  });

  test('a PORT that is not a port is one of them', { timeout: TIMEOUT_MS }, async () => {
    const { code, output, served } = await serve({ PORT: 'eighty', SESSION_SECRET: 'short' });
    expect(served).toBe(false);
    expect(code).toBe(1);
    expect(output).toContain('PORT: must be a whole number from 1 to 65535');
    expect(output).toContain('SESSION_SECRET: must be at least 32 characters');
  });
});

describe('a port in use', () => {
  let blocker: net.Server;
  afterEach(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

  test('is named, with how to choose another, and the server exits non-zero', { timeout: TIMEOUT_MS }, async () => {
    blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, 'localhost', resolve));
    const { port } = blocker.address() as net.AddressInfo;
    const { code, output, served } = await serve({ PORT: String(port) });
    expect(served).toBe(false);
    expect(code).toBe(1);
    expect(output).toContain(`Port ${port} on localhost is already in use`);
    expect(output).toContain(`PORT=${port + 1} npm start`);
    expect(output).not.toContain('EADDRINUSE');
    expect(output).not.toMatch(/^\s+at /m);
  });
});
