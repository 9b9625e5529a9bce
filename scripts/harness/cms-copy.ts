/**
 * A throw-away copy of the site run as `npm run cms` runs it (astro dev and decap-server), in
 * decap-server's git mode, so the CMS's editorial workflow (a branch per draft, Publish merges)
 * works on a repository of its own and nobody's working copy.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from './project.ts';
import { findFreePort } from './redis-server.ts';
import { copySite, type SiteCopy } from './site-copy.ts';

const CMS_SCRIPT = path.join(PROJECT_ROOT, 'scripts', 'cms', 'dev.ts');

export interface CmsCopy extends SiteCopy {
  /** The CMS page, e.g. http://localhost:43121/admin/cms/ */
  cmsUrl: string;
  /** Stops astro dev and decap-server; resolves once both have exited. */
  stop: () => Promise<void>;
  /** `git` in the copy, returning its output. */
  git: (...args: string[]) => string;
  /** What `npm run cms` has printed so far. */
  log: () => string;
}

/** Resolves once `request` answers 200; rejects if the process stops first. */
async function waitForOk(request: () => Promise<Response>, child: ChildProcess, output: () => string): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm run cms stopped (exit code ${child.exitCode}):\n${output()}`);
    const ok = await request().then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Starts a copy; `prepare` changes its files first (a build left from before, say). */
export async function startCmsCopy(prepare: (site: SiteCopy) => void = () => {}): Promise<CmsCopy> {
  const site = copySite();
  prepare(site);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: site.root, encoding: 'utf8' }).trim();
  writeFileSync(site.file('.gitignore'), ['node_modules/', 'dist/', '.astro/', '.netlify/', ''].join('\n'));
  git('init', '--quiet', '--initial-branch=main');
  git('config', 'user.name', 'Site tests');
  git('config', 'user.email', 'tests@localhost');
  git('add', '.');
  git('commit', '--quiet', '-m', 'The site as the test found it');

  const [sitePort, backendPort] = [await findFreePort(), await findFreePort()];
  let output = '';
  const child = spawn(process.execPath, [CMS_SCRIPT, '--port', String(sitePort)], {
    cwd: site.root,
    env: { ...process.env, CMS_BACKEND_MODE: 'git', CMS_BACKEND_PORT: String(backendPort), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };

  const cmsUrl = `http://localhost:${sitePort}/admin/cms/`;
  try {
    await waitForOk(
      () => fetch(cmsUrl),
      child,
      () => output,
    );
    // decap-server answers its API's `info` action once it has read the repository.
    const info = () =>
      fetch(`http://127.0.0.1:${backendPort}/api/v1`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ action: 'info' }),
      });
    await waitForOk(info, child, () => output);
  } catch (error) {
    await stop();
    site.remove();
    throw error;
  }
  return {
    ...site,
    cmsUrl,
    git,
    log: () => output,
    stop,
    remove: () => site.remove(),
  };
}
