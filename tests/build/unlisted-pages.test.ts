/**
 * The pages people reach from an e-mail, never from search or the menus: the guides sent to
 * leads, the newsletter's confirm and unsubscribe pages and a booking's page. Each path the
 * functions link to (src/shared/pages.ts, src/shared/booking.ts) is a built page served without a
 * redirect, marked noindex, absent from the sitemap and linked from no other page; the guides
 * print tidily. Reads dist/.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { resolveStaticPath } from '../../scripts/serve/netlify-paths';
import { BOOK_MANAGE_PAGE } from '../../src/shared/booking-api';
import { GUIDE_PATHS, NEWSLETTER_PATHS } from '../../src/shared/pages';
import { builtFiles, builtPages, DIST, servedPath } from '../support/dist';

const FILES = new Set(builtFiles());
const read = (file: string) => readFileSync(path.join(DIST, file), 'utf8');

const GUIDES = Object.values(GUIDE_PATHS);
const UNLISTED = [...GUIDES, ...Object.values(NEWSLETTER_PATHS), BOOK_MANAGE_PAGE];

/** The file Netlify serves a path from with 200, or a description of what it does instead. */
function fileOf(pathname: string): string {
  const resolution = resolveStaticPath(pathname, (relative) => FILES.has(relative));
  if (resolution.kind !== 'file') throw new Error(`${pathname} is not served from a file: ${resolution.kind}`);
  return resolution.file;
}

/** Every path the sitemap lists. */
function sitemapPaths(): string[] {
  const index = read('sitemap-index.xml');
  return [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].flatMap(([, loc]) =>
    [...read(new URL(loc ?? '').pathname.slice(1)).matchAll(/<loc>([^<]+)<\/loc>/g)].map(
      ([, page]) => new URL(page ?? '').pathname,
    ),
  );
}

/** The CSS a page applies: its linked stylesheets and its style elements. */
function cssOf(html: string): string {
  const linked = [...html.matchAll(/<link rel="stylesheet" href="\/([^"]+)"/g)].map(([, href]) => read(href ?? ''));
  const inline = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(([, css]) => css ?? '');
  return [...linked, ...inline].join('\n');
}

/** The bodies of the `@media print` blocks of a stylesheet (minified: no nested braces beyond one level). */
function printRules(css: string): string {
  return [...css.matchAll(/@media print\{((?:[^{}]*\{[^{}]*\})*)\}/g)].map(([, body]) => body).join('\n');
}

describe.each(UNLISTED)('%s', (pathname) => {
  test('is a built page, served with 200 and no redirect', () => {
    expect(fileOf(pathname)).toBe(`${pathname.slice(1)}.html`);
  });

  test('is marked noindex and names no canonical URL', () => {
    const html = read(fileOf(pathname));
    expect(html).toMatch(/<meta name="robots" content="noindex, follow">/);
    expect(html).not.toMatch(/<link rel="canonical"/);
  });

  test('is absent from the sitemap', () => {
    const listed = sitemapPaths();
    expect(listed.length).toBeGreaterThan(20);
    expect(listed).not.toContain(pathname);
  });

  test('is linked from no other page', () => {
    const linking = builtPages().filter(
      (page) => servedPath(page) !== pathname && read(page).includes(`href="${pathname}`),
    );
    expect(linking).toEqual([]);
  });
});

describe.each(GUIDES)('the guide at %s', (pathname) => {
  const html = read(fileOf(pathname));
  const print = printRules(cssOf(html));

  test('prints without the site header, footer and toasts', () => {
    // Tailwind's `print:hidden`, written `.print\:hidden` in the stylesheet.
    expect(print).toMatch(/(?:^|\})\.print\\:hidden\{display:none\}/);
    const hidden = 'print:hidden';
    const classes = (pattern: RegExp) => (pattern.exec(html)?.[1] ?? '').split(' ');
    expect(classes(/<header id="site-header"[^>]*class="([^"]*)"/)).toContain(hidden);
    expect(classes(/<footer class="([^"]*)"/)).toContain(hidden);
    expect(
      classes(/<div class="([^"]*)">(?:<script>[\s\S]*?<\/script>)*<astro-island[^>]*component-export="Toaster"/),
    ).toContain(hidden);
  });

  test('prints the address of each outside link after it, and keeps headings with their text', () => {
    expect(print).toMatch(/a\[href\^=(['"]?)http\1\]:{1,2}after[^{]*\{[^}]*content:" \(" attr\(href\) "\)"/);
    expect(print).toMatch(/h2[^{]*\{[^}]*break-after:avoid/);
    expect(print).toMatch(/@page\{margin:/);
  });

  test('has a Save as PDF / Print button, shown and wired by a bundled script, with no inline handler', () => {
    expect(html).toMatch(
      /<button type="button" data-print-page class="[^"]*\binvisible\b[^>]*>[\s\S]*?Save as PDF \/ Print<\/button>/,
    );
    // The page's scripts, written into it or served as files.
    const scripts = [...html.matchAll(/<script type="module"(?: src="\/(_astro\/[^"]+)")?>([\s\S]*?)<\/script>/g)].map(
      ([, src, body]) => (src ? read(src) : (body ?? '')),
    );
    expect(scripts.some((script) => /\[data-print-page\][\s\S]*window\.print\(\)/.test(script))).toBe(true);
    expect(html).not.toMatch(/\son[a-z]+="/);
  });

  test('has content worth sending: a title, sections and a checklist', () => {
    expect(html.match(/<h1\b/g)).toHaveLength(1);
    expect((html.match(/<h2\b/g) ?? []).length).toBeGreaterThanOrEqual(8);
    expect(html).toMatch(/<h2[^>]*>[^<]*Checklist<\/h2>/);
  });
});
