/**
 * The content the /api serves: dist/api-data.json, written by `astro build` from the content
 * collections (netlify.toml ships it with the function through included_files).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ApiData } from '../../src/shared/api';

let cached: Promise<ApiData> | undefined;

function candidates(): string[] {
  const roots = [process.cwd(), process.env.LAMBDA_TASK_ROOT].filter((root): root is string => Boolean(root));
  return roots.map((root) => path.join(root, 'dist', 'api-data.json'));
}

async function load(): Promise<ApiData> {
  for (const file of candidates()) {
    try {
      return JSON.parse(await readFile(file, 'utf8')) as ApiData;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  throw new Error('dist/api-data.json is missing: run `astro build` first');
}

export function readContent(): Promise<ApiData> {
  cached ??= load().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}
