/** The functions' reading of dist/ files: once per version of a file, so a rebuild is read at once. */
import { mkdtemp, mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readBuildJson } from '../../functions/_lib/platform/build-files';

let root: string;
const taskRoot = process.env.LAMBDA_TASK_ROOT;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'build-files-'));
  await mkdir(path.join(root, 'dist'));
  // Found under the task root, as on Netlify: the project's own dist/ has no such file.
  process.env.LAMBDA_TASK_ROOT = root;
});
afterAll(async () => {
  if (taskRoot === undefined) delete process.env.LAMBDA_TASK_ROOT;
  else process.env.LAMBDA_TASK_ROOT = taskRoot;
  await rm(root, { recursive: true, force: true });
});

async function write(name: string, value: unknown, at: Date) {
  const file = path.join(root, 'dist', name);
  await writeFile(file, JSON.stringify(value));
  await utimes(file, at, at);
}

describe('readBuildJson', () => {
  test('answers a file as it is after a rebuild, the same version from memory', async () => {
    await write('rebuilt.json', { posts: 5 }, new Date('2026-11-29T10:00:00Z'));
    const first = readBuildJson('rebuilt.json');
    expect(await first).toEqual({ posts: 5 });
    expect(await readBuildJson('rebuilt.json')).toBe(await first);
    await write('rebuilt.json', { posts: 6 }, new Date('2026-11-29T10:05:00Z'));
    expect(await readBuildJson('rebuilt.json')).toEqual({ posts: 6 });
  });

  test('a file half written is an error, and the next read takes the whole file', async () => {
    await write('partial.json', '', new Date('2026-11-29T10:00:00Z'));
    await writeFile(path.join(root, 'dist', 'partial.json'), '{"posts":');
    await expect(readBuildJson('partial.json')).rejects.toThrow(SyntaxError);
    await write('partial.json', { posts: 7 }, new Date('2026-11-29T10:00:01Z'));
    expect(await readBuildJson('partial.json')).toEqual({ posts: 7 });
  });

  test('a missing file says to build first', async () => {
    await expect(readBuildJson('never-built.json')).rejects.toThrow(
      'dist/never-built.json is missing: run `astro build` first',
    );
  });
});
