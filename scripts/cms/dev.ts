/**
 * `npm run cms`: the site in dev mode and Decap's local backend (decap-server) side by side, so
 * the CMS at http://localhost:4321/admin/cms/ edits content/ on this machine, no login needed,
 * and the pages show each save at once. Ctrl+C stops both.
 *
 *   npm run cms                      the site on port 4321, decap-server on 8081
 *   npm run cms -- --port 4400       arguments go to `astro dev`
 *   CMS_BACKEND_PORT=8090 npm run cms
 *
 * decap-server works in `fs` mode here: it writes the files where they are and leaves git to
 * you (the CMS says it switches to the simple workflow: Save writes the file). Its `git` mode
 * (CMS_BACKEND_MODE=git) commits, makes branches and checks them out in the working tree for the editorial
 * workflow: only for a throw-away clone, as the end-to-end tests use it, never your own copy.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = process.cwd();
const bin = (...parts: string[]) => path.join(root, 'node_modules', ...parts);
const backendPort = process.env.CMS_BACKEND_PORT || '8081';

const children: ChildProcess[] = [];
let stopping = false;

function stop(code: number) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
}

function run(name: string, script: string, args: string[], env: NodeJS.ProcessEnv, nodeArgs: string[] = []) {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], { cwd: root, env, stdio: 'inherit' });
  child.on('exit', (code, signal) => {
    if (!stopping) console.error(`${name} stopped (${signal ?? `exit code ${code}`}); stopping the other.`);
    stop(code ?? 0);
  });
  children.push(child);
}

// decap-server saves each file whole, so astro dev's watcher never reads half of one: see whole-writes.ts.
const wholeWrites = ['--import', pathToFileURL(path.join(import.meta.dirname, 'whole-writes.ts')).href];
run(
  'decap-server',
  bin('decap-server', 'dist', 'index.js'),
  [],
  {
    ...process.env,
    PORT: backendPort,
    // Only this machine may write to the working copy through it.
    BIND_HOST: '127.0.0.1',
    MODE: process.env.CMS_BACKEND_MODE || 'fs',
    GIT_REPO_DIRECTORY: root,
  },
  wholeWrites,
);
run('astro dev', bin('astro', 'bin', 'astro.mjs'), ['dev', ...process.argv.slice(2)], {
  ...process.env,
  CMS_BACKEND_PORT: backendPort,
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(0));
