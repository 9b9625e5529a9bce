/** The production build that the build tests read: dist/, which `npm test` builds first. */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../scripts/harness/project';

export const DIST = path.join(PROJECT_ROOT, 'dist');

/** Every file of the build, relative to dist/ with forward slashes; none before a build. */
export function builtFiles(): string[] {
  if (!existsSync(DIST)) return [];
  return readdirSync(DIST, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(DIST, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/** Every built page (HTML outside Astro's asset folder), relative to dist/. */
export function builtPages(): string[] {
  return builtFiles().filter((file) => file.endsWith('.html') && !file.startsWith('_astro/'));
}

/** The URL Netlify serves a page file at without a redirect: x.html at /x, x/index.html at /x/. */
export function servedPath(file: string): string {
  if (file === 'index.html' || file.endsWith('/index.html')) return `/${file.slice(0, -'index.html'.length)}`;
  return `/${file.replace(/\.html$/, '')}`;
}
