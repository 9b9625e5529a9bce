/**
 * decap-server, started as `npm run cms` starts it (with scripts/cms/whole-writes.ts preloaded),
 * saves each file whole: to a temporary file beside it, renamed over it, so astro dev's watcher
 * never reads half a save. A file replaced by a rename is a new file (a new inode); one written in
 * place keeps its inode, which is how these tests tell the two apart without racing a reader.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../scripts/harness/project';
import { findFreePort } from '../../scripts/harness/redis-server';

const WHOLE_WRITES = path.join(PROJECT_ROOT, 'scripts', 'cms', 'whole-writes.ts');
const DECAP_SERVER = path.join(PROJECT_ROOT, 'node_modules', 'decap-server', 'dist', 'index.js');

let folder: string;
let server: ChildProcess;
let api: string;

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'cms-whole-writes-'));
  const port = await findFreePort();
  api = `http://127.0.0.1:${port}/api/v1`;
  server = spawn(process.execPath, ['--import', pathToFileURL(WHOLE_WRITES).href, DECAP_SERVER], {
    cwd: folder,
    env: { ...process.env, PORT: String(port), BIND_HOST: '127.0.0.1', MODE: 'fs', GIT_REPO_DIRECTORY: folder },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`listening on 127.0.0.1:${port}`)) resolve();
    };
    server.stdout?.on('data', read);
    server.stderr?.on('data', read);
    server.once('exit', (code) => reject(new Error(`decap-server stopped (exit code ${code}):\n${output}`)));
  });
});

afterAll(async () => {
  if (server?.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(folder, { recursive: true, force: true });
});

/** Calls decap-server's API as the CMS does, failing on any answer but 200. */
async function call(action: string, params: Record<string, unknown>) {
  const response = await fetch(api, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ action, params: { branch: 'main', ...params } }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

const options = { collectionName: 'blog', commitMessage: 'Save', useWorkflow: false, status: 'draft' };

describe('a save through decap-server', () => {
  test('replaces an entry whole, by a rename, keeping its mode and leaving no temporary file', async () => {
    const file = path.join(folder, 'content', 'blog', 'a-post.md');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '---\ntitle: "Before"\n---\n');
    chmodSync(file, 0o640);
    const before = statSync(file);
    const raw = `---\ntitle: "After"\n---\n\n${'A long body. '.repeat(20_000)}\n`;

    await call('persistEntry', { entry: { slug: 'a-post', path: 'content/blog/a-post.md', raw }, assets: [], options });

    expect(readFileSync(file, 'utf8')).toBe(raw);
    const after = statSync(file);
    expect(after.ino, 'the saved file is a new one, renamed into place').not.toBe(before.ino);
    expect(after.mode & 0o777).toBe(0o640);
    expect(readdirSync(path.dirname(file))).toEqual(['a-post.md']);
  });

  test('writes a new entry and its picture into new folders, leaving no temporary file beside them', async () => {
    const picture = Buffer.from('a picture, as the CMS uploads it');
    await call('persistEntry', {
      entry: { slug: 'new-post', path: 'content/new/new-post.md', raw: '---\ntitle: "New"\n---\n' },
      assets: [{ path: 'content/images/new/cover.png', content: picture.toString('base64'), encoding: 'base64' }],
      options,
    });

    expect(readFileSync(path.join(folder, 'content/new/new-post.md'), 'utf8')).toBe('---\ntitle: "New"\n---\n');
    expect(readFileSync(path.join(folder, 'content/images/new/cover.png'))).toEqual(picture);
    expect(readdirSync(path.join(folder, 'content/new'))).toEqual(['new-post.md']);
    expect(readdirSync(path.join(folder, 'content/images/new'))).toEqual(['cover.png']);
  });

  test('replaces a picture saved over another whole, by a rename', async () => {
    const file = path.join(folder, 'content', 'images', 'blog', 'cover.png');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, 'the old picture');
    const before = statSync(file).ino;
    const picture = Buffer.from('the new picture');

    await call('persistMedia', {
      asset: { path: 'content/images/blog/cover.png', content: picture.toString('base64'), encoding: 'base64' },
      options: { commitMessage: 'Upload' },
    });

    expect(readFileSync(file)).toEqual(picture);
    expect(statSync(file).ino).not.toBe(before);
    expect(readdirSync(path.dirname(file))).toEqual(['cover.png']);
  });
});
