/**
 * The daily build: the scheduled function asks for a build through the build hook when
 * BUILD_HOOK_URL is set, and does nothing when it is not. A real HTTP server plays Netlify's hook.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { resetEnv } from '../../functions/_lib/platform/env';
import scheduledBuild, { config } from '../../functions/scheduled-build';

/** The function as Netlify calls it, reading the environment as the test has just set it. */
const run = () => {
  resetEnv();
  return scheduledBuild();
};

let server: Server;
let origin: string;
let status = 200;
const received: { method?: string; url?: string }[] = [];

beforeAll(async () => {
  server = createServer((request: IncomingMessage, response) => {
    received.push({ method: request.method, url: request.url });
    request.resume();
    request.on('end', () => response.writeHead(status).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the build hook server has no port');
  origin = `http://127.0.0.1:${address.port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const saved = { hook: process.env.BUILD_HOOK_URL, local: process.env.SITE_LOCAL_RUN };
const restore = (name: string, value: string | undefined) => {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
};
beforeEach(() => {
  // A deployed function: the test runner is no local run.
  delete process.env.SITE_LOCAL_RUN;
});
afterEach(() => {
  received.length = 0;
  status = 200;
  restore('BUILD_HOOK_URL', saved.hook);
  restore('SITE_LOCAL_RUN', saved.local);
});

describe('the daily build', () => {
  test('runs every day early in the morning, UTC', () => {
    expect(config.schedule).toBe('0 4 * * *');
  });

  test('POSTs to the build hook, naming why', async () => {
    process.env.BUILD_HOOK_URL = `${origin}/build_hooks/abc123`;
    const response = await run();
    expect(response.status).toBe(202);
    expect(received).toEqual([
      { method: 'POST', url: '/build_hooks/abc123?trigger_title=Daily+build+for+scheduled+posts' },
    ]);
  });

  test.each([undefined, '', '  '])('does nothing when BUILD_HOOK_URL is %j', async (value) => {
    if (value === undefined) delete process.env.BUILD_HOOK_URL;
    else process.env.BUILD_HOOK_URL = value;
    const response = await run();
    expect(response.status).toBe(204);
    expect(received).toEqual([]);
  });

  test('does nothing in a local run, even with the hook set', async () => {
    process.env.BUILD_HOOK_URL = `${origin}/build_hooks/abc123`;
    process.env.SITE_LOCAL_RUN = 'true';
    const response = await run();
    expect(response.status).toBe(204);
    expect(received).toEqual([]);
  });

  test('fails, naming the status, when the hook refuses', async () => {
    process.env.BUILD_HOOK_URL = `${origin}/build_hooks/gone`;
    status = 404;
    await expect(run()).rejects.toThrow('the build hook answered 404');
  });

  test('fails when BUILD_HOOK_URL is not a URL', async () => {
    process.env.BUILD_HOOK_URL = 'build hook';
    await expect(run()).rejects.toThrow(/BUILD_HOOK_URL: must be the build hook URL Netlify shows/);
    expect(received).toEqual([]);
  });
});
