/**
 * Runs the local production server from a project root of its own, so it can run beside the
 * main test server without both building functions into the same .netlify folder. The build
 * and node_modules are linked; functions and config are copied (the bundler resolves links to
 * their real place, which would put the build back in this project). PORT and store settings
 * come from the environment. The folder goes when the server stops (its links, not what they
 * point at).
 */
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../harness/project.ts';
import { startServer } from './serve.ts';
import { exitOnStartupError } from './startup-checks.ts';

const root = mkdtempSync(path.join(tmpdir(), 'site-server-'));
process.on('exit', () => rmSync(root, { recursive: true, force: true }));
// src/shared and the site config too: the functions import the form schemas and record types,
// and their e-mails the brand, from there.
for (const entry of [
  'functions',
  path.join('src', 'shared'),
  path.join('src', 'site.config.ts'),
  'netlify.toml',
  'package.json',
])
  cpSync(path.join(PROJECT_ROOT, entry), path.join(root, entry), { recursive: true });
for (const entry of ['dist', 'node_modules']) symlinkSync(path.join(PROJECT_ROOT, entry), path.join(root, entry));
await startServer({ projectRoot: root }).catch(exitOnStartupError);
// Started by site-server.ts: stop as on SIGTERM (deliveries under way finish) once that process is gone.
if (process.channel) {
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
