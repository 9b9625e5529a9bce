/** The production build that the build tests read: dist/, which `npm test` builds first. */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../scripts/harness/project';

export const DIST = path.join(PROJECT_ROOT, 'dist');

/** Every file of the build (dist/, or another build's folder), relative to it with forward slashes; none before a build. */
export function builtFiles(dist = DIST): string[] {
  if (!existsSync(dist)) return [];
  return readdirSync(dist, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dist, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/**
 * The CMS's page: Decap CMS's application shell with a policy of its own, not a page of the site.
 * tests/build/cms.test.ts checks it; the checks of the site's pages leave it out.
 */
export const CMS_PAGE = 'admin/cms/index.html';

/** Every built page of the site (HTML outside Astro's asset folder), relative to the build's folder. */
export function builtPages(dist = DIST): string[] {
  return builtFiles(dist).filter((file) => file.endsWith('.html') && !file.startsWith('_astro/') && file !== CMS_PAGE);
}

/** The URL Netlify serves a page file at without a redirect: x.html at /x, x/index.html at /x/. */
export function servedPath(file: string): string {
  if (file === 'index.html' || file.endsWith('/index.html')) return `/${file.slice(0, -'index.html'.length)}`;
  return `/${file.replace(/\.html$/, '')}`;
}

/** A built page's Content-Security-Policy (its `<meta>` tag) as directive name → sources; undefined without one. */
export function pagePolicy(html: string): Record<string, string[]> | undefined {
  const content = /<meta http-equiv="content-security-policy" content="([^"]+)"/.exec(html)?.[1];
  if (content === undefined) return undefined;
  const directives = content.split(';').map((directive) => directive.trim().split(/\s+/));
  return Object.fromEntries(directives.filter(([name]) => name).map(([name, ...sources]) => [name, sources]));
}
