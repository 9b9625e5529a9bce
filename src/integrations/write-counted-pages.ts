import { writeFileSync } from 'node:fs';
import type { AstroIntegration } from 'astro';
import { COUNTED_PAGES_FILE, UNCOUNTED_PATH } from '../shared/pages';

/**
 * The path a built page is served at: `sectors/saas` as `/sectors/saas`, the home page as `/`
 * (pages are built as files and linked without a trailing slash).
 */
export function servedPath(pathname: string): string {
  const path = `/${pathname.replace(/^\/+|\/+$/g, '')}`;
  return path.replace(/\/index$/, '') || '/';
}

/** The paths the visits figures count under their own name: every page of the build but the 404 pages and the admin's. */
export function countedPaths(pathnames: readonly string[]): string[] {
  const paths = new Set(
    pathnames.map(servedPath).filter((path) => !/(^|\/)404$/.test(path) && !UNCOUNTED_PATH.test(path)),
  );
  return [...paths].sort();
}

/**
 * Writes dist/counted-pages.json for the functions that count and report visits
 * (functions/_lib/visits/read-counted-pages.ts): a path outside it counts as one "other" row, so
 * a flood of made-up paths cannot grow the store.
 */
export function countedPages(): AstroIntegration {
  return {
    name: 'counted-pages',
    hooks: {
      'astro:build:done': ({ dir, pages }) => {
        writeFileSync(
          new URL(COUNTED_PAGES_FILE, dir),
          `${JSON.stringify(countedPaths(pages.map((page) => page.pathname)))}\n`,
        );
      },
    },
  };
}
