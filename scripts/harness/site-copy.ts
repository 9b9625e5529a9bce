/**
 * A throw-away copy of the site in a temp folder, for tests that must change
 * content and build it without touching the working tree.
 */
import { spawnSync } from 'node:child_process';
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
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
