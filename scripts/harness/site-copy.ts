/**
 * A throw-away copy of the site in a temp folder, for tests that must change
 * content and build it without touching the working tree.
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from './project.ts';

const COPIED = [
  'astro.config.mjs',
  'netlify.toml',
  'tsconfig.json',
  'package.json',
  'src',
  'content',
  'public',
  'functions',
];

export interface SiteCopy {
  root: string;
  /** Path of a file inside the copy. */
  file: (...parts: string[]) => string;
  /** Runs `astro build` in the copy, with extra environment variables; `output` holds stdout and stderr together. */
  build: (env?: Record<string, string>) => { status: number | null; output: string };
  /**
   * Runs only what `astro build` runs first, the integrations' setup and the content sync (every
   * collection through its loaders and schema), where a mistake in content/ fails the build. It
   * answers the message the build would fail with, or undefined. A few times faster than build().
   */
  checkContent: () => Promise<string | undefined>;
  remove: () => void;
}

/** The environment of a production build: without what the test runner itself sets (DEV, MODE, VITEST…). */
function buildEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NODE_ENV: 'production', NO_COLOR: '1', FORCE_COLOR: '0' };
  const runnerKeys = new Set(['DEV', 'PROD', 'MODE', 'SSR', 'BASE_URL', 'TEST', 'NODE_ENV']);
  for (const [key, value] of Object.entries(process.env)) {
    if (!runnerKeys.has(key) && !key.startsWith('VITEST')) env[key] ??= value;
  }
  return env;
}

/** The process that runs the content syncs (scripts/harness/content-sync.ts), and the last sync asked of it. */
let syncer: { child: ChildProcess; last: Promise<unknown> } | undefined;

function checkContent(root: string): Promise<string | undefined> {
  if (!syncer) {
    const child = fork(path.join(PROJECT_ROOT, 'scripts', 'harness', 'content-sync.ts'), {
      env: buildEnv(),
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    // It ends when this process does (content-sync.ts leaves on disconnect), and never holds it up;
    // should it end before, the next check starts another.
    child.unref();
    child.channel?.unref();
    child.once('exit', () => {
      if (syncer?.child === child) syncer = undefined;
    });
    syncer = { child, last: Promise.resolve() };
  }
  const { child } = syncer;
  // One sync at a time: each answer is the next message.
  const answer = syncer.last.then(
    () =>
      new Promise<string | undefined>((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`the content sync process ended (${code})`));
        child.once('exit', onExit);
        child.once('message', (reply: { error?: string }) => {
          child.off('exit', onExit);
          resolve(reply.error);
        });
        child.send({ root });
      }),
  );
  syncer.last = answer.catch(() => undefined);
  return answer;
}

export function copySite(): SiteCopy {
  const root = mkdtempSync(path.join(tmpdir(), 'site-copy-'));
  for (const entry of COPIED) cpSync(path.join(PROJECT_ROOT, entry), path.join(root, entry), { recursive: true });
  // The packages are linked one by one, so the copy's caches (node_modules/.astro, .vite) are its own.
  const modules = path.join(root, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(path.join(PROJECT_ROOT, 'node_modules'))) {
    if (entry === '.astro' || entry === '.vite') continue;
    symlinkSync(path.join(PROJECT_ROOT, 'node_modules', entry), path.join(modules, entry));
  }
  return {
    root,
    file: (...parts) => path.join(root, ...parts),
    build: (env = {}) => {
      const astro = path.join(PROJECT_ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs');
      const result = spawnSync(process.execPath, [astro, 'build'], {
        cwd: root,
        encoding: 'utf8',
        env: { ...buildEnv(), ...env },
      });
      return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
    },
    checkContent: () => checkContent(root),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
