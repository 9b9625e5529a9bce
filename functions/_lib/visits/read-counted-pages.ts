// functions/_lib/visits counts views without knowing who made them.
import { COUNTED_PAGES_FILE } from '../../../src/shared/pages';
import { readBuildJson } from '../platform/build-files';

/**
 * The pages of the build whose views count under their own path (dist/counted-pages.json, which
 * netlify.toml ships with the functions that read it). Read once per instance.
 */
export async function countedPages(): Promise<ReadonlySet<string>> {
  const paths = await readBuildJson(COUNTED_PAGES_FILE);
  return new Set(Array.isArray(paths) ? paths.filter((path): path is string => typeof path === 'string') : []);
}
