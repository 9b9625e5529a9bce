/**
 * The pages and the functions meet only in src/shared: nothing else in src/ imports functions/,
 * nothing in functions/ imports the rest of src/ but the import-free site config (the brand in
 * e-mails), and src/shared (which ships to the browser)
 * imports nothing but zod and its own files. Read from the sources, no build: a forbidden import
 * fails here naming the file and the import.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|astro)$/;

/** The code of a file: all of it, or an .astro file's frontmatter and scripts. */
function codeOf(file: string, text: string): string {
  if (!file.endsWith('.astro')) return text;
  const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
  const scripts = [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]);
  return [frontmatter, ...scripts].join('\n');
}

/** Every module specifier of a text: static imports and re-exports, type-only ones included, and dynamic import(). */
function specifiersOf(code: string): string[] {
  return ts.preProcessFile(code, true, true).importedFiles.map((file) => file.fileName);
}

/** Where a specifier leads, as a project path (`functions/_lib/platform/http`), or undefined for a package or a built-in. */
function targetOf(file: string, specifier: string): string | undefined {
  if (specifier.startsWith('@/')) return `src/${specifier.slice(2)}`;
  if (!specifier.startsWith('.')) return undefined;
  return path
    .relative(ROOT, path.resolve(ROOT, path.dirname(file), specifier))
    .split(path.sep)
    .join('/');
}

interface Import {
  /** The importing file, from the project root. */
  file: string;
  specifier: string;
  target: string | undefined;
}

function importsUnder(folder: string): Import[] {
  const files = readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((entry) => SOURCE.test(entry))
    .map((entry) => path.join(folder, entry).split(path.sep).join('/'));
  return files.flatMap((file) =>
    specifiersOf(codeOf(file, readFileSync(path.join(ROOT, file), 'utf8'))).map((specifier) => ({
      file,
      specifier,
      target: targetOf(file, specifier),
    })),
  );
}

const within = (target: string | undefined, folder: string) =>
  target === folder || Boolean(target?.startsWith(`${folder}/`));
const describeImport = ({ file, specifier, target }: Import) =>
  `${file} imports '${specifier}'${target ? ` (${target})` : ''}`;

const src = importsUnder('src');
const functions = importsUnder('functions');
const isShared = (file: string) => within(file, 'src/shared');
/** The one config module: the functions' e-mails take the brand from it, so it must stay free of imports. */
const SITE_CONFIG = 'src/site.config';

const RULES: [string, () => Import[]][] = [
  [
    'nothing in src/ outside src/shared imports functions/',
    () => src.filter((entry) => !isShared(entry.file) && within(entry.target, 'functions')),
  ],
  [
    'nothing in functions/ imports src/ outside src/shared and the site config',
    () =>
      functions.filter(
        (entry) => within(entry.target, 'src') && !within(entry.target, 'src/shared') && entry.target !== SITE_CONFIG,
      ),
  ],
  ['the site config the e-mails read imports nothing', () => src.filter((entry) => entry.file === `${SITE_CONFIG}.ts`)],
  [
    'src/shared imports nothing but zod and src/shared',
    () =>
      src.filter(
        (entry) =>
          isShared(entry.file) &&
          !(entry.target
            ? within(entry.target, 'src/shared')
            : entry.specifier === 'zod' || entry.specifier.startsWith('zod/')),
      ),
  ],
];

describe('import boundaries', () => {
  test.each(RULES)('%s', (_rule, forbidden) => {
    expect(forbidden().map(describeImport)).toEqual([]);
  });

  test('the scan sees both sides and the imports between them', () => {
    expect(src.filter((entry) => isShared(entry.file)).length).toBeGreaterThan(0);
    expect(
      functions.some(
        (entry) => entry.file === 'functions/_lib/platform/http.ts' && entry.target === 'src/shared/schemas',
      ),
    ).toBe(true);
    expect(src.some((entry) => entry.file.endsWith('.astro') && entry.target !== undefined)).toBe(true);
  });

  test.each([
    ["import { a } from './a';", './a'],
    ["import type { A } from './a';", './a'],
    ["import {\n  a,\n  type B,\n} from './a';", './a'],
    ["import './a';", './a'],
    ["export { a } from './a';", './a'],
    ["export * from './a';", './a'],
    ["const a = await import('./a');", './a'],
  ])('finds the import in %j', (code, expected) => {
    expect(specifiersOf(code)).toEqual([expected]);
  });
});
