/**
 * Files `astro build` writes into dist/ for the functions (netlify.toml ships each with the
 * functions that read it, through included_files): found beside the project locally, under the
 * function's task root on Netlify.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

function candidates(name: string): string[] {
  const roots = [process.cwd(), process.env.LAMBDA_TASK_ROOT].filter((root): root is string => Boolean(root));
  return roots.map((root) => path.join(root, 'dist', name));
}

/** The first of the candidates that exists, with when it was last written. */
async function locate(name: string): Promise<{ file: string; version: number }> {
  for (const file of candidates(name)) {
    try {
      return { file, version: (await stat(file)).mtimeMs };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  throw new Error(`dist/${name} is missing: run \`astro build\` first`);
}

const cache = new Map<string, { file: string; version: number; value: Promise<unknown> }>();

/**
 * A JSON file of dist/, parsed once for each version of it: on Netlify a deploy's files never
 * change, and a local server running across a rebuild answers from the new build at once. A
 * failed read is tried again next time.
 */
export async function readBuildJson(name: string): Promise<unknown> {
  const { file, version } = await locate(name);
  const cached = cache.get(name);
  if (cached?.file === file && cached.version === version) return cached.value;
  const value = readFile(file, 'utf8').then((text): unknown => JSON.parse(text));
  cache.set(name, { file, version, value });
  value.catch(() => {
    if (cache.get(name)?.value === value) cache.delete(name);
  });
  return value;
}
