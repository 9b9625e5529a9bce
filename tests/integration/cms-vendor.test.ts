/**
 * `npm install` survives a registry that cannot give the CMS bundle: the vendor script, run as the
 * `prepare` step (--if-missing), warns in one line and exits 0; asked for the bundle by name
 * (`npm run cms:vendor`), it fails. The registry is a server of our own on 127.0.0.1 that knows no
 * package, reached through npm_config_registry as a mirror would be.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startFakeRegistry, type FakeRegistry } from '../../scripts/harness/fake-registry';
import { PROJECT_ROOT } from '../../scripts/harness/project';

let registry: FakeRegistry;
let project: string;

beforeAll(async () => {
  // No upstream: it has no package at all, decap-cms included.
  registry = await startFakeRegistry({ refuse: ['decap-cms'] });
  // The script with what it reads, in a project of its own that has no bundle yet.
  project = mkdtempSync(path.join(tmpdir(), 'cms-vendor-'));
  for (const file of ['scripts/cms/vendor-decap.ts', 'scripts/cms/decap.json', 'scripts/harness/project.ts'])
    cpSync(path.join(PROJECT_ROOT, file), path.join(project, file));
  mkdirSync(path.join(project, 'public', 'admin', 'cms'), { recursive: true });
});
afterAll(async () => {
  await registry.stop();
  rmSync(project, { recursive: true, force: true });
});
beforeEach(() => {
  registry.asked.length = 0;
});

/** Runs the script (asynchronously: the registry answers from this process) and collects what it printed. */
function vendor(...args: string[]): Promise<{ code: number | null; output: string }> {
  return vendorWith({}, ...args);
}

function vendorWith(env: Record<string, string>, ...args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [path.join(project, 'scripts', 'cms', 'vendor-decap.ts'), ...args], {
    cwd: project,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      npm_config_registry: registry.url,
      // An empty cache of its own, so nothing is answered without asking the registry.
      npm_config_cache: path.join(project, '.npm-cache'),
      npm_config_fetch_retries: '0',
      NETLIFY: '',
      ...env,
    },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}

describe('a registry without decap-cms', () => {
  test('in --if-missing mode (npm install), one warning line and exit 0', async () => {
    const { code, output } = await vendor('--if-missing');
    expect(registry.asked.some((url) => url.startsWith('/decap-cms'))).toBe(true);
    expect(code).toBe(0);
    const lines = output.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^warning: .*decap-cms@3\.\d+\.\d+.*404/);
    expect(lines[0]).toContain('/admin/cms/ will not work until `npm run cms:vendor` succeeds');
    expect(existsSync(path.join(project, 'public', 'admin', 'cms', 'decap'))).toBe(false);
  });

  test('in a Netlify build, --if-missing stops the build: a deploy is not shipped without its CMS', async () => {
    const { code, output } = await vendorWith({ NETLIFY: 'true' }, '--if-missing');
    expect(code).toBe(1);
    expect(output).toMatch(/^decap-cms@3\.\d+\.\d+: npm pack: .*404/);
    expect(output).toContain("this build stops here; the site's last deploy stays live");
    expect(output).not.toMatch(/^\s+at /m);
    expect(existsSync(path.join(project, 'public', 'admin', 'cms', 'decap'))).toBe(false);
  });

  test('asked for by name (npm run cms:vendor), it fails with the reason', async () => {
    const { code, output } = await vendor();
    expect(code).not.toBe(0);
    expect(output).toMatch(/decap-cms@3\.\d+\.\d+.*404/);
    expect(output).not.toMatch(/^\s+at /m);
  });
});
