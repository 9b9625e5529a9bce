import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { criticalRules } from './critical-css';
import { deferBelowFirstScreen } from './first-screen';

/**
 * What a compressed page may weigh for its whole document to arrive in the first round trip of
 * a new connection: TCP's initial window of 10 segments of 1,460 bytes (RFC 6928), less the
 * response headers this site sends (about 700 bytes) and a margin. A page within it paints from
 * its one document; past it, the rest of the document costs a second round trip anyway, and the
 * page links its stylesheet, which the browser then fetches beside it and caches for the next page.
 */
export const FIRST_ROUND_TRIP_BYTES = 13_600;

/** The one stylesheet Astro links from every page. */
const STYLESHEET_LINK = /<link rel="stylesheet" href="(\/_astro\/[^"]+\.css)">/;
/**
 * A script written into the page: Astro's island runtime and hydration directives (classic) and
 * the page's own scripts (modules). JSON-LD, which has a type of its own, is not one.
 */
const INLINE_SCRIPT = /<script( type="module")?>((?:(?!<\/script>)[\s\S])*)<\/script>/g;
/** The template whose content the page's script adds after the first paint (src/lib/after-paint.ts). */
const AFTER_PAINT = 'template#after-paint';
const CSP_META = /<meta http-equiv="content-security-policy" content="([^"]*)">/;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The page's policy with the hashes of exactly the scripts and styles it holds: the critical CSS
 * is added, and the hashes Astro lists for every other page's scripts are left out (each is 46
 * bytes that do not compress).
 */
export function withOwnHashes(html: string): string {
  const scripts = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(([, body]) => body ?? '');
  const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)].map(([, body]) => body ?? '');
  return html.replace(CSP_META, (_, policy: string) => {
    const directives = policy.split(';').map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/);
      const own = { 'script-src': scripts, 'style-src': styles }[name ?? ''];
      if (!own) return directive;
      const kept = sources.filter((source) => !source.startsWith("'sha256-"));
      return ` ${[name, ...kept, ...new Set(own.map(sha256))].join(' ')}`;
    });
    return `<meta http-equiv="content-security-policy" content="${directives.join(';')}">`;
  });
}

/** The size of a page as a CDN sends it: compressed with Brotli at the quality of a compressing proxy. */
export const compressedSize = (html: string) =>
  brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }).length;

export interface Sources {
  /** The text of a stylesheet the page links. */
  stylesheet: (href: string) => string;
  /** Where a script written into a page is served from, once written out as a file of its own. */
  scriptFile: (script: string) => string;
}

/**
 * One page readied for its first paint:
 * - its scripts, none of which draws anything (the island runtime hydrates islands, the others
 *   open the menu and the dialog, confirm a subscription...), are served as files and loaded
 *   after the first paint, but for the one that loads them (BaseLayout's);
 * - the markup below a phone's first screen is held back as the text of `<noscript data-later>`
 *   elements (deferBelowFirstScreen), added as markup after the first paint;
 * - when the page then fits the first round trip with the CSS its markup uses written into it,
 *   that CSS replaces the link to the whole stylesheet, which is loaded after the first paint
 *   too (and by a <noscript> link without JavaScript).
 * What is loaded after the first paint waits in <template id="after-paint">, which the page's
 * script adds to the document once the page has painted (src/lib/after-paint.ts).
 */
export function prepareForFirstPaint(html: string, sources: Sources): string {
  // A page without the script that adds the template keeps everything in place.
  if (!html.includes(AFTER_PAINT)) return html;
  const later: string[] = [];
  const withoutScripts = html.replace(INLINE_SCRIPT, (script, type: string | undefined, body: string) => {
    if (body.includes(AFTER_PAINT)) return script;
    later.push(`<script${type ?? ''} src="${sources.scriptFile(body)}"></script>`);
    return '';
  });
  const page = deferBelowFirstScreen(withoutScripts);
  const finished = (body: string, after: string[]) =>
    after.length === 0
      ? body
      : withOwnHashes(body.replace('</head>', `<template id="after-paint">${after.join('')}</template></head>`));
  const link = STYLESHEET_LINK.exec(page);
  if (link) {
    const [tag, href = ''] = link;
    const css = criticalRules(sources.stylesheet(href), page);
    const inlined = finished(
      page.replace(tag, `<style>${css}</style><noscript><link rel="stylesheet" href="${href}"></noscript>`),
      [tag, ...later],
    );
    if (compressedSize(inlined) <= FIRST_ROUND_TRIP_BYTES) return inlined;
  }
  return finished(page, later);
}

async function htmlFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * After the build, readies every page but those under `skip` for its first paint
 * (prepareForFirstPaint): on a phone on a slow network a page that fits the first round trip
 * paints from its one document, as fast as a page with nothing else to fetch, where a linked
 * stylesheet cost a second round trip (about 90 ms in Lighthouse's slow 4G). The admin page is
 * skipped: React draws it after load, from classes its markup does not hold yet.
 */
export function firstPaint({ skip }: { skip: RegExp }): AstroIntegration {
  return {
    name: 'first-paint',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const root = fileURLToPath(dir);
        const stylesheets = new Map<string, string>();
        const scripts = new Map<string, string>();
        const sources: Sources = {
          stylesheet: (href) => stylesheets.get(href) ?? '',
          scriptFile: (script) => {
            const name =
              scripts.get(script) ??
              `/_astro/later.${createHash('sha256').update(script).digest('base64url').slice(0, 10)}.js`;
            scripts.set(script, name);
            return name;
          },
        };
        let inlined = 0;
        let linked = 0;
        for (const file of await htmlFiles(root)) {
          if (skip.test(path.relative(root, file).split(path.sep).join('/'))) continue;
          const html = await readFile(file, 'utf8');
          const href = STYLESHEET_LINK.exec(html)?.[1];
          if (href && !stylesheets.has(href)) stylesheets.set(href, await readFile(path.join(root, href), 'utf8'));
          const ready = prepareForFirstPaint(html, sources);
          if (ready.includes('<noscript><link rel="stylesheet"')) inlined += 1;
          else if (href) linked += 1;
          if (ready !== html) await writeFile(file, ready);
        }
        for (const [script, name] of scripts) await writeFile(path.join(root, name), script);
        logger.info(
          `${inlined} pages paint from their own CSS; ${linked} link the stylesheet (over the first round trip)`,
        );
      },
    },
  };
}
