/**
 * The audit's and the load benchmark's tools (Lighthouse, chrome-launcher, autocannon) are a
 * package of their own, scripts/bench/package.json: Lighthouse alone brings some 320 MB (Sentry,
 * OpenTelemetry, Puppeteer) that building, serving, editing and testing the site never load, so
 * the site's `npm install` leaves them out. `npm run audit` and `npm run bench:api` run this first:
 * it installs them into scripts/bench/node_modules from their own lockfile, once, and says so;
 * after that it does nothing until the lockfile changes.
 *
 *   node scripts/bench/tools.ts
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const LOCKFILE = path.join(HERE, 'package-lock.json');
/** The lockfile's hash as of the last install: a new lockfile (a tool upgraded) installs again. */
const STAMP = path.join(HERE, 'node_modules', '.installed-lockfile');

const lockHash = createHash('sha256').update(readFileSync(LOCKFILE)).digest('hex');
const installed = existsSync(STAMP) && readFileSync(STAMP, 'utf8') === lockHash;

if (!installed) {
  const names = Object.keys(JSON.parse(readFileSync(path.join(HERE, 'package.json'), 'utf8')).dependencies).join(', ');
  console.log(
    `Installing the benchmark tools (${names}) into scripts/bench/node_modules, once: they are not part of the site's npm install.`,
  );
  const started = Date.now();
  // npm_config_* from the running `npm run` would point this install at the site's package.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_(config|package)_/i.test(name)));
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: HERE, stdio: 'inherit', env });
  if (result.status !== 0) {
    console.error('Installing the benchmark tools failed; run `npm ci` in scripts/bench to see why.');
    process.exit(result.status ?? 1);
  }
  writeFileSync(STAMP, lockHash);
  console.log(`The benchmark tools are installed (${Math.round((Date.now() - started) / 1000)} s).`);
}
