/** A built page of dist/ as a document, parsed as a crawler reads it: no script runs. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { JSDOM, VirtualConsole } from 'jsdom';
import { DIST } from './dist';

/** The file Netlify serves at `route` without a redirect: / → index.html, /x → x.html, /x.html → x.html. */
export function builtFile(route: string): string {
  const file = route === '/' ? 'index.html' : route.slice(1);
  return path.join(DIST, file.endsWith('.html') ? file : `${file}.html`);
}

/** Parses HTML; jsdom's reports of the CSS it does not parse (Tailwind's layers) are not the page's fault. */
export function parseHtml(html: string): Document {
  return new JSDOM(html, { virtualConsole: new VirtualConsole() }).window.document;
}

const parsed = new Map<string, Document>();

/** The page built for `route`, parsed once per test file: read it, never change it. */
export function builtPage(route: string): Document {
  const file = builtFile(route);
  const document = parsed.get(file) ?? parseHtml(readFileSync(file, 'utf8'));
  parsed.set(file, document);
  return document;
}

/** The text of each element matching `selector`, its white space collapsed. */
export function textsOf(scope: ParentNode, selector: string): string[] {
  return [...scope.querySelectorAll(selector)].map((element) =>
    (element.textContent ?? '').replace(/\s+/g, ' ').trim(),
  );
}

/** The page's JSON-LD blocks, parsed. */
export function jsonLd(document: Document): Record<string, unknown>[] {
  return [...document.querySelectorAll('script[type="application/ld+json"]')].map(
    (block) => JSON.parse(block.textContent ?? '') as Record<string, unknown>,
  );
}
