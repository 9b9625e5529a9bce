/**
 * Files `astro build` writes into dist/ for the functions (netlify.toml ships each with the
 * functions that read it, through included_files): found beside the project locally, under the
 * function's task root on Netlify.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

function candidates(name: string): string[] {
  const roots = [process.cwd(), process.env.LAMBDA_TASK_ROOT].filter((root): root is string => Boolean(root));
  return roots.map((root) => path.join(root, 'dist', name));
}

const cache = new Map<string, Promise<unknown>>();

async function load(name: string): Promise<unknown> {
  for (const file of candidates(name)) {
    try {
      return JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  throw new Error(`dist/${name} is missing: run \`astro build\` first`);
}

/** A JSON file of dist/, read once per process; a failed read is tried again next time. */
export function readBuildJson(name: string): Promise<unknown> {
  let loading = cache.get(name);
  if (!loading) {
    loading = load(name).catch((error: unknown) => {
      cache.delete(name);
      throw error;
    });
    cache.set(name, loading);
  }
  return loading;
}
