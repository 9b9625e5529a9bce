/**
 * The content the /api serves: dist/api-data.json, written by `astro build` from the content
 * collections (netlify.toml ships it with the function through included_files).
 */
import type { ApiData } from '../../../src/shared/api-responses';
import { readBuildJson } from './build-files';

export async function readContent(): Promise<ApiData> {
  return (await readBuildJson('api-data.json')) as ApiData;
}
