/**
 * Copies Decap CMS's browser bundle into the site (public/admin/cms/decap/, git-ignored), from the
 * package tarball the registry serves, after checking the tarball against the pinned integrity.
 * `npm install` runs it (the `prepare` script) with --if-missing, so a clone gets the bundle with its
 * other packages and builds offline afterwards; the repository carries only the pin. `npm run build`
 * runs it too: Netlify skips `npm install` (and so `prepare`) on a build whose package.json and Node
 * are those of its cache, and restores node_modules but not public/, so without this every such
 * deploy (the daily one among them) would ship without the CMS.
 *
 *   npm run cms:vendor               the pinned version again (scripts/cms/decap.json)
 *   node scripts/cms/vendor-decap.ts --if-missing   only when the folder lacks the pinned version;
 *                                    a registry that cannot give it (offline, a mirror without
 *                                    decap-cms) is a one-line warning and exit 0, so `npm install`
 *                                    still succeeds: only the CMS page waits for the bundle.
 *                                    On Netlify (NETLIFY=true) it fails the build instead: the
 *                                    deploy before it, CMS and all, stays live
 *   npm run cms:vendor -- 3.17.0     another version: its integrity is asked of the registry,
 *                                    checked, and pinned in decap.json with the version
 *
 * Installing the `decap-cms` package itself would add some 600 packages to every `npm ci` for a
 * bundle that has React and everything else built in, so the site carries only its `dist`: the
 * entry script, the chunks and WebAssembly files it loads relative to itself, and the licence
 * notices; not the source maps, nor the older `cms.js` copies of the same bundle.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../harness/project.ts';

const PIN_FILE = path.join(PROJECT_ROOT, 'scripts', 'cms', 'decap.json');
const VENDOR_DIR = path.join(PROJECT_ROOT, 'public', 'admin', 'cms', 'decap');
/** Written last into VENDOR_DIR: which pin the folder holds, so --if-missing knows whether to fetch. */
const STAMP = path.join(VENDOR_DIR, 'pin.json');

interface Pin {
  version: string;
  integrity: string;
}

/** The files of the package's dist/ the browser needs. */
function isShipped(file: string): boolean {
  if (file.endsWith('.map')) return false;
  if (file === 'cms.js' || file === 'cms.js.LICENSE.txt' || /^\d+\.cms\.js$/.test(file) || file === 'cms.css')
    return false;
  return true;
}

/** npm could not give what was asked (no network, a registry or mirror without the package). */
class FetchFailed extends Error {}

/** The line of npm's error output that says what went wrong, with any credentials in a URL masked. */
function reasonOf(stderr: string): string | undefined {
  return stderr
    .split('\n')
    .map((line) => line.replace(/^npm error\s*/, '').trim())
    .find((line) => line !== '' && !/^(code|syscall|errno) /.test(line))
    ?.replace(/\/\/[^/@\s]+@/g, '//***@');
}

function npm(args: string[], cwd: string): string {
  try {
    return execFileSync('npm', [...args, '--loglevel=error'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '');
    throw new FetchFailed(`npm ${args[0]}: ${reasonOf(stderr) ?? 'it failed with no message'}`);
  }
}

function sri(file: string): string {
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
}

function vendor(pinned: Pin, version: string, requested: string | undefined) {
  const work = mkdtempSync(path.join(tmpdir(), 'decap-vendor-'));
  try {
    const expected =
      requested && requested !== pinned.version
        ? npm(['view', `decap-cms@${version}`, 'dist.integrity'], work)
        : pinned.integrity;
    const tarball = path.join(
      work,
      npm(['pack', `decap-cms@${version}`], work)
        .split('\n')
        .at(-1) ?? '',
    );
    const actual = sri(tarball);
    if (actual !== expected) {
      throw new Error(`the tarball's integrity is ${actual}, expected ${expected}. Nothing was changed.`);
    }
    execFileSync('tar', ['-xzf', tarball, '-C', work]);
    const dist = path.join(work, 'package', 'dist');
    const files = readdirSync(dist).filter(isShipped).sort();
    if (!files.includes('decap-cms.js')) throw new Error('the package has no dist/decap-cms.js. Nothing was changed.');
    rmSync(VENDOR_DIR, { recursive: true, force: true });
    mkdirSync(VENDOR_DIR, { recursive: true });
    for (const file of files) cpSync(path.join(dist, file), path.join(VENDOR_DIR, file));
    const pin = `${JSON.stringify({ version, integrity: expected }, null, 2)}\n`;
    writeFileSync(PIN_FILE, pin);
    writeFileSync(STAMP, pin);
    console.log(
      `decap-cms@${version} (${expected}): ${files.length} files in ${path.relative(PROJECT_ROOT, VENDOR_DIR)}`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function main() {
  const pinned = JSON.parse(readFileSync(PIN_FILE, 'utf8')) as Pin;
  const ifMissing = process.argv.includes('--if-missing');
  const requested = process.argv.slice(2).find((argument) => !argument.startsWith('--'));
  if (ifMissing && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === readFileSync(PIN_FILE, 'utf8')) return;
  const version = requested ?? pinned.version;
  try {
    vendor(pinned, version, requested);
  } catch (error) {
    // The bundle is optional to an install: without it only the CMS page cannot work, and it says
    // so. A tarball that does not match the pin is never optional: it stops the install.
    if (ifMissing && error instanceof FetchFailed && process.env.NETLIFY === 'true') {
      console.error(
        `decap-cms@${version}: ${error.message}. A deploy without the CMS bundle would leave the CMS page saying it is not installed, so this build stops here; the site's last deploy stays live. Try the deploy again once the registry answers.`,
      );
      process.exitCode = 1;
      return;
    }
    if (ifMissing && error instanceof FetchFailed) {
      console.warn(
        `warning: could not fetch the CMS bundle decap-cms@${version} (${error.message}); the CMS page /admin/cms/ will not work until \`npm run cms:vendor\` succeeds.`,
      );
      return;
    }
    const fetchFailed = error instanceof FetchFailed ? '. Nothing was changed.' : '';
    console.error(`decap-cms@${version}: ${error instanceof Error ? error.message : String(error)}${fetchFailed}`);
    process.exitCode = 1;
  }
}

main();
