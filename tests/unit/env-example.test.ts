/**
 * `.env.example` documents every variable the code reads from the environment: the functions
 * (their schema, and the few they read directly), the local server, the site and CMS
 * configuration, and the browser of the tests. A variable read in those places and missing from
 * the file fails here, by name. Variables only a platform or the project's own tools set are
 * listed below with who sets them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { EnvSchema } from '../../functions/_lib/platform/env';
import { PROJECT_ROOT } from '../../scripts/harness/project';

/** Set by someone other than the person filling in .env, so never documented there. */
const SET_ELSEWHERE: Record<string, string> = {
  URL: 'Netlify, during builds and in functions',
  CONTEXT: 'Netlify, during builds',
  DEPLOY_PRIME_URL: 'Netlify, during builds',
  REPOSITORY_URL: 'Netlify, during builds',
  LAMBDA_TASK_ROOT: "the functions' runtime on Netlify",
  NODE_ENV: 'Astro and the tools that run it',
  DEV: 'Astro (import.meta.env.DEV)',
  SITE_LOCAL_RUN: 'the local server and astro dev themselves; never by hand, never on Netlify',
};

/** Where the code reads its environment: the functions, the local server, the configuration. */
const SOURCES = [
  'functions',
  'scripts/serve',
  'scripts/harness/chromium.ts',
  'astro.config.mjs',
  'src/site.config.ts',
  'src/lib/cms',
  'src/pages/admin/cms',
];

function files(entry: string): string[] {
  const full = path.join(PROJECT_ROOT, entry);
  if (statSync(full).isFile()) return [full];
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|mjs)$/.test(file))
    .map((file) => path.join(full, file));
}

/** `process.env.NAME`, `process.env['NAME']`, and `env.NAME` / `source.NAME` on an environment passed in. */
const READS = [
  /process\.env\.([A-Z][A-Z0-9_]+)/g,
  /process\.env\[['"]([A-Z][A-Z0-9_]+)['"]\]/g,
  /\b(?:env|source)\??\.([A-Z][A-Z0-9_]+)/g,
];

function variablesRead(): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of Object.keys(EnvSchema.shape)) found.set(name, 'functions/_lib/platform/env.ts');
  for (const file of SOURCES.flatMap(files)) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of READS)
      for (const [, name] of text.matchAll(pattern))
        if (name && !found.has(name)) found.set(name, path.relative(PROJECT_ROOT, file));
  }
  return found;
}

/** Names with a line in .env.example: `NAME=` or, for one read from the shell only, `# NAME=`. */
const documented = new Set(
  [...readFileSync(path.join(PROJECT_ROOT, '.env.example'), 'utf8').matchAll(/^(?:# )?([A-Z][A-Z0-9_]+)=/gm)].map(
    ([, name]) => name,
  ),
);

describe('.env.example', () => {
  test('has a line for every variable the code reads', () => {
    const missing = [...variablesRead()]
      .filter(([name]) => !(name in SET_ELSEWHERE) && !documented.has(name))
      .map(([name, file]) => `${name} (read in ${file})`);
    expect(missing).toEqual([]);
  });

  test('the scan finds what it should (the functions, the server, the configuration)', () => {
    const read = variablesRead();
    for (const name of ['SESSION_SECRET', 'PUBLIC_BRAND_NAME', 'CMS_GITHUB_REPO', 'PORT', 'HOST', 'CHROMIUM_PATH'])
      expect(read.has(name), name).toBe(true);
  });

  test('has a comment above every variable', () => {
    const lines = readFileSync(path.join(PROJECT_ROOT, '.env.example'), 'utf8').split('\n');
    const uncommented = lines.flatMap((line, index) => {
      if (!/^[A-Z][A-Z0-9_]+=/.test(line)) return [];
      // Above it: a comment, or another variable of the same group under one comment.
      for (let above = index - 1; above >= 0; above -= 1) {
        const previous = lines[above] ?? '';
        if (previous.startsWith('#')) return [];
        if (!/^[A-Z][A-Z0-9_]+=/.test(previous)) break;
      }
      return [line];
    });
    expect(uncommented).toEqual([]);
  });
});
