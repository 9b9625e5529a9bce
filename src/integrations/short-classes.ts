/**
 * Short class names in the built site (shortClasses): each Tailwind class the pages, the
 * stylesheet and the islands share is renamed to one to three letters, alike in every file.
 *
 * Class attributes are a third of a page's markup (22 of home's 57 KB), and a phone parses every
 * byte of it before its first paint; Lighthouse counts that parse four times over in a page's
 * LCP. The source keeps Tailwind's names: only the build output is renamed.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseJs, type Node as JsNode } from 'acorn';
import type { AstroIntegration } from 'astro';
import postcss, { AtRule, type Node as CssNode, type Rule } from 'postcss';
import { withOwnHashes } from './first-paint';

/**
 * A class selector in a selector: a quoted string (in an attribute selector), skipped, or a
 * dot and the class's name as CSS writes it, escapes and all (`.sm\:px-6`).
 */
const SELECTOR_PART =
  /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\.((?:[A-Za-z_-]|\\[0-9a-fA-F]{1,6}\s?|\\[^0-9a-fA-F]|[^\0-\x7f])(?:[\w-]|\\[0-9a-fA-F]{1,6}\s?|\\[^0-9a-fA-F]|[^\0-\x7f])*)/g;

/** A class's name as CSS writes it (`sm\:px-6`), read as the markup writes it (`sm:px-6`). */
export function unescapeCss(name: string): string {
  return name.replace(/\\([0-9a-fA-F]{1,6})\s?|\\(.)/gs, (_, hex?: string, char?: string) =>
    hex ? String.fromCodePoint(Number.parseInt(hex, 16)) : (char ?? ''),
  );
}

/** Whether a rule is in a cascade layer, where Tailwind writes all it makes (and not, say, a chart library's CSS). */
function inLayer(rule: Rule): boolean {
  for (
    let node: CssNode | undefined = rule.parent as CssNode | undefined;
    node;
    node = node.parent as CssNode | undefined
  )
    if (node instanceof AtRule && node.name === 'layer') return true;
  return false;
}

/** Every class a stylesheet's selectors name; with `layered`, only those of its rules in a cascade layer. */
export function stylesheetClasses(css: string, { layered = false } = {}): Set<string> {
  const classes = new Set<string>();
  postcss.parse(css).walkRules((rule) => {
    if (layered && !inLayer(rule)) return;
    for (const [, name] of rule.selector.matchAll(SELECTOR_PART)) if (name) classes.add(unescapeCss(name));
  });
  return classes;
}

/** The stylesheet with its class selectors renamed by `names` (the others as they were). */
export function renameInStylesheet(css: string, names: ReadonlyMap<string, string>): string {
  const root = postcss.parse(css);
  root.walkRules((rule) => {
    rule.selector = rule.selector.replace(SELECTOR_PART, (part, name?: string) =>
      name ? `.${names.get(unescapeCss(name)) ?? name}` : part,
    );
  });
  return root.toString();
}

/**
 * Classes left as they are, whatever else holds (besides those not made by Tailwind, which the
 * renaming never looks at: a library's own CSS and JavaScript keep their names):
 * - one lowercase word (`flex`, `hidden`, `group`): the same word is any script's string for
 *   other things, such as React's `hidden` attribute;
 * - a name that is also a CSS value a script may set (`style.display = 'inline-flex'`).
 */
const KEPT_NAME = /^[a-z]+$|^(?:inline-(?:block|flex|grid|table)|flow-root|list-item|table-[a-z-]+)$/;

/** A string of a script: its text, and where it stands in the source, quotes included. */
interface ScriptString {
  value: string;
  start: number;
  end: number;
  /** Its text as the source writes it, without the quotes. */
  raw: string;
  quote: string;
  /** A template's part that starts or ends at a `${…}` with a word cut there (`px-${n}`). */
  cut?: { start: boolean; end: boolean };
}

/**
 * Every string of a script: its string literals and the text parts of its template literals. A
 * template's part next to a `${…}` is cut there, so a class built from pieces (`px-${n}`) is
 * read as text, not as a class. Undefined when the script cannot be parsed.
 */
export function scriptStrings(source: string, module = true): ScriptString[] | undefined {
  let program: JsNode;
  try {
    program = parseJs(source, { ecmaVersion: 'latest', sourceType: module ? 'module' : 'script' });
  } catch {
    return undefined;
  }
  const strings: ScriptString[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object' || typeof (node as JsNode).type !== 'string') return;
    const current = node as JsNode & Record<string, unknown>;
    if (current.type === 'Literal' && typeof current.value === 'string') {
      const raw = source.slice(current.start, current.end);
      strings.push({
        value: current.value,
        start: current.start,
        end: current.end,
        raw: raw.slice(1, -1),
        quote: raw[0] ?? '"',
      });
    } else if (current.type === 'TemplateLiteral') {
      const quasis = current.quasis as (JsNode & { value: { raw: string; cooked: string | null } })[];
      quasis.forEach((quasi, index) => {
        const cooked = quasi.value.cooked ?? '';
        // A part next to an expression, where it does not end at a space, holds part of a word.
        const cut = { start: index > 0 && /^\S/.test(cooked), end: index < quasis.length - 1 && /\S$/.test(cooked) };
        strings.push({
          value: cooked,
          start: quasi.start,
          end: quasi.end,
          raw: quasi.value.raw,
          quote: '',
          ...(cut.start || cut.end ? { cut } : {}),
        });
      });
    }
    for (const [key, child] of Object.entries(current)) if (key !== 'loc') visit(child);
  };
  visit(program);
  return strings;
}

/**
 * Whether a string is a list of the site's classes (every word a class of the stylesheet), which
 * is renamed where it stands; any other string is text, and the classes in it are left alone.
 */
const isClassList = (value: string, classes: ReadonlySet<string>) =>
  value.trim() !== '' && value.split(/\s+/).every((word) => word === '' || classes.has(word));

/** Whether a script's string is a list of classes as it stands: written without escapes, and no word cut. */
const isClassString = (string: ScriptString, classes: ReadonlySet<string>) =>
  !string.cut && string.raw === string.value && isClassList(string.value, classes);

/** `value` with each of its words that `names` renames renamed, the spaces between as they were. */
const renameWords = (value: string, names: ReadonlyMap<string, string>) =>
  value.replace(/\S+/g, (word) => names.get(word) ?? word);

/**
 * Whether a text holds a class's name as a word of its own: not as part of a longer name
 * (`mt-1` in `mt-10`, `mt-1.5`, `hover:mt-1` or `bg-white/10`).
 */
function holdsName(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    const before = text[at - 1] ?? '';
    const after = text.slice(at + name.length, at + name.length + 2);
    if (!/[\w:/!-]/.test(before) && !/^(?:[\w/[-]|\.\d)/.test(after)) return true;
  }
  return false;
}

/**
 * The classes of `candidates` a text may name, for those to be left as they are: those it holds
 * anywhere (`'.menu-closed'`), and those a word of it may be the start or end of, a name built
 * from pieces (`'px-' + n`, `` `bg-${tone}-700` ``). `cut` says which ends of the text are cut
 * at an expression of a template, where the words there are pieces too.
 */
function mentioned(text: string, candidates: Iterable<string>, into: Set<string>, cut = { start: false, end: false }) {
  // A piece says which classes it may be part of when it holds a letter and one more character.
  const piece = (word: string | undefined): word is string => word !== undefined && /[a-z].|.[a-z]/i.test(word);
  const words = text.split(/[\s"'`]+/).filter(piece);
  const starts = words.filter((word) => /[-:]$/.test(word));
  const ends = words.filter((word) => word.startsWith('-'));
  const first = text.match(/^\S+/)?.[0];
  const last = text.match(/\S+$/)?.[0];
  if (cut.end && piece(last)) starts.push(last);
  if (cut.start && piece(first)) ends.push(first);
  const inside = cut.start && cut.end && first === text && piece(text) ? text : undefined;
  for (const name of candidates)
    if (
      holdsName(text, name) ||
      starts.some((start) => name.startsWith(start)) ||
      ends.some((end) => name.endsWith(end)) ||
      (inside !== undefined && name.includes(inside))
    )
      into.add(name);
}

/** A script of the site, read for its strings (scriptStrings) once. */
interface Script {
  source: string;
  strings: ScriptString[] | undefined;
}

/**
 * The classes a script uses in any other way than as a list of classes (a selector such as
 * `'.menu-closed'`, a piece of a name, a word in a sentence), and so cannot be renamed: the
 * script would look for a name no element has. A script that cannot be parsed keeps all it names.
 */
function namedOtherwise(script: Script, classes: ReadonlySet<string>, candidates: Iterable<string>, into: Set<string>) {
  if (!script.strings) return mentioned(script.source, candidates, into);
  for (const string of script.strings)
    if (!isClassString(string, classes)) mentioned(string.value, candidates, into, string.cut);
}

/** The script with its lists of classes renamed by `names`. */
function renameInScript(script: Script, classes: ReadonlySet<string>, names: ReadonlyMap<string, string>): string {
  if (!script.strings) return script.source;
  let result = '';
  let from = 0;
  for (const string of [...script.strings].sort((a, b) => a.start - b.start)) {
    if (!isClassString(string, classes)) continue;
    const renamed = renameWords(string.value, names);
    if (renamed === string.value) continue;
    result += `${script.source.slice(from, string.start)}${string.quote}${renamed}${string.quote}`;
    from = string.end;
  }
  return result + script.source.slice(from);
}

/** A class attribute of markup (the whole attribute, and its value). */
const CLASS_ATTRIBUTE = /(\sclass=)(?:"([^"]*)"|'([^']*)')/g;
/** A script in markup: its attributes and its text. */
const MARKUP_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/g;
/** Any attribute value of markup but a class attribute's. */
const OTHER_ATTRIBUTE = /\s(?!class=)[\w:-]+=(?:"([^"]*)"|'([^']*)')/g;
const STYLE_ELEMENT = /(<style\b[^>]*>)([\s\S]*?)(<\/style>)/g;

const decodeEntities = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** Whether a script element holds a program (not JSON-LD or another kind of data), and of which kind. */
function scriptKind(attributes: string): 'module' | 'script' | undefined {
  const type = /\stype=["']?([^"'\s>]+)/.exec(attributes)?.[1];
  if (type === 'module') return 'module';
  return !type || /javascript/i.test(type) ? 'script' : undefined;
}

/** The site's files the renaming reads and writes: its pages, and its stylesheets and scripts. */
export interface SiteFiles {
  /** Each page's markup, by file. */
  pages: Map<string, string>;
  /** Each stylesheet, by file. */
  stylesheets: Map<string, string>;
  /** Each script, by file. */
  scripts: Map<string, string>;
}

/**
 * Short names, shortest first: A … Z, then Aa … Z9, then Aaa … Z99; a capital first, which no
 * Tailwind class has.
 */
export function* shortNames(): Generator<string> {
  const first = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const rest = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  let tails = [''];
  for (let length = 1; length <= 3; length += 1) {
    for (const letter of first) for (const tail of tails) yield letter + tail;
    tails = tails.flatMap((tail) => [...rest].map((letter) => tail + letter));
  }
}

/** Every class the site's stylesheets name, and the pages' own styles. */
function siteClasses(site: SiteFiles): Set<string> {
  const classes = new Set<string>();
  for (const css of site.stylesheets.values()) for (const name of stylesheetClasses(css)) classes.add(name);
  for (const html of site.pages.values())
    for (const [, , css = ''] of html.matchAll(STYLE_ELEMENT))
      for (const name of stylesheetClasses(css)) classes.add(name);
  return classes;
}

/**
 * The short name of each class the site can rename: a class Tailwind wrote into the site's
 * stylesheets (in a cascade layer) that the markup and scripts use only as classes, and no style
 * written into a page names. The classes used most bytes' worth get the shortest names.
 */
export function classNames(site: SiteFiles): Map<string, string> {
  const classes = siteClasses(site);
  const candidates = new Set<string>();
  for (const css of site.stylesheets.values())
    for (const name of stylesheetClasses(css, { layered: true })) if (!KEPT_NAME.test(name)) candidates.add(name);

  const kept = new Set<string>();
  const uses = new Map<string, number>();
  /** Every word of every list of classes, in the stylesheets or not: no short name may be one. */
  const words = new Set<string>();
  const count = (list: string) => {
    for (const word of list.split(/\s+/)) {
      words.add(word);
      if (candidates.has(word)) uses.set(word, (uses.get(word) ?? 0) + 1);
    }
  };
  const readScript = (text: string, module: boolean) => {
    const script = { source: text, strings: scriptStrings(text, module) };
    namedOtherwise(script, classes, candidates, kept);
    for (const string of script.strings ?? []) if (isClassString(string, classes)) count(string.value);
  };
  for (const text of site.scripts.values()) readScript(text, true);
  for (const html of site.pages.values()) {
    for (const [, attributes = '', text = ''] of html.matchAll(MARKUP_SCRIPT)) {
      const kind = scriptKind(attributes);
      if (kind) readScript(text, kind === 'module');
      else mentioned(text, candidates, kept);
    }
    for (const [, , css = ''] of html.matchAll(STYLE_ELEMENT)) mentioned(css, candidates, kept);
    const markup = html.replace(MARKUP_SCRIPT, '');
    for (const [, , double, single] of markup.matchAll(CLASS_ATTRIBUTE)) count(double ?? single ?? '');
    for (const [, double, single] of markup.matchAll(OTHER_ATTRIBUTE))
      mentioned(decodeEntities(double ?? single ?? ''), candidates, kept);
  }

  const taken = new Set([...classes, ...words]);
  const names = new Map<string, string>();
  const ranked = [...uses.keys()]
    .filter((name) => !kept.has(name))
    .sort((a, b) => (uses.get(b) ?? 0) * b.length - (uses.get(a) ?? 0) * a.length || (a < b ? -1 : 1));
  const next = shortNames();
  for (const name of ranked) {
    let short = next.next().value;
    while (short !== undefined && taken.has(short)) short = next.next().value;
    if (short === undefined || short.length >= name.length) continue;
    names.set(name, short);
  }
  return names;
}

/**
 * A page with its class attributes and its scripts' lists of classes renamed by `names`, and the
 * hashes of its Content-Security-Policy made again when a script changed. Its styles are left as
 * they are: no class they name is renamed (classNames).
 */
export function renameInPage(html: string, names: ReadonlyMap<string, string>, classes: ReadonlySet<string>): string {
  let scriptChanged = false;
  const renamed = html
    .replace(CLASS_ATTRIBUTE, (attribute, prefix: string, double?: string, single?: string) =>
      double === undefined && single === undefined
        ? attribute
        : double === undefined
          ? `${prefix}'${renameWords(single ?? '', names)}'`
          : `${prefix}"${renameWords(double, names)}"`,
    )
    .replace(MARKUP_SCRIPT, (element, attributes: string, text: string) => {
      const kind = scriptKind(attributes);
      if (!kind) return element;
      const script = { source: text, strings: scriptStrings(text, kind === 'module') };
      const renamedScript = renameInScript(script, classes, names);
      if (renamedScript === text) return element;
      scriptChanged = true;
      return `<script${attributes}>${renamedScript}</script>`;
    });
  return scriptChanged ? withOwnHashes(renamed) : renamed;
}

/** The site's files with every class `names` renames renamed (classNames), and the classes it kept. */
export function renameClasses(site: SiteFiles, names: ReadonlyMap<string, string>): SiteFiles {
  const classes = siteClasses(site);
  const map = <T>(files: Map<string, T>, rename: (text: T) => T) =>
    new Map([...files].map(([file, text]) => [file, rename(text)]));
  return {
    pages: map(site.pages, (html) => renameInPage(html, names, classes)),
    stylesheets: map(site.stylesheets, (css) => renameInStylesheet(css, names)),
    scripts: map(site.scripts, (text) =>
      renameInScript({ source: text, strings: scriptStrings(text, true) }, classes, names),
    ),
  };
}

/** Whether a page's scripts or a stylesheet may hold the name of an asset (everything the build writes as text). */
const TEXT_FILE = /\.(?:html|js|mjs|css|json|xml|txt|webmanifest)$|^_(?:headers|redirects)$/;

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * After the build, renames the site's classes (classNames, renameClasses) in its pages and in
 * the stylesheets and scripts under `_astro/`, and gives those stylesheets and scripts new names:
 * they are cached for a year under their names, which Vite made from their text before the
 * renaming, so a later build that renamed a class differently must not reuse one. Each takes the
 * digest of the renaming after its own name, and every file of the build that names it is
 * written again. Run it before first-paint, which picks each page's CSS from its markup.
 */
export function shortClasses(): AstroIntegration {
  return {
    name: 'short-classes',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const root = fileURLToPath(dir);
        const assets = path.join(root, '_astro');
        const files = await filesUnder(root);
        const site: SiteFiles = { pages: new Map(), stylesheets: new Map(), scripts: new Map() };
        for (const file of files) {
          const inAssets = path.dirname(file) === assets;
          if (file.endsWith('.html')) site.pages.set(file, await readFile(file, 'utf8'));
          else if (inAssets && file.endsWith('.css')) site.stylesheets.set(file, await readFile(file, 'utf8'));
          else if (inAssets && file.endsWith('.js')) site.scripts.set(file, await readFile(file, 'utf8'));
        }
        const names = classNames(site);
        if (names.size === 0) return;
        const renamed = renameClasses(site, names);
        const digest = createHash('sha256')
          .update(JSON.stringify([...names].sort()))
          .digest('base64url')
          .slice(0, 8);
        const assetNames = new Map(
          [...site.stylesheets.keys(), ...site.scripts.keys()].map((file) => {
            const name = path.basename(file);
            return [name, name.replace(/\.(js|css)$/, `.${digest}.$1`)];
          }),
        );
        const assetName = new RegExp(
          [...assetNames.keys()]
            .sort((a, b) => b.length - a.length)
            .map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
            .join('|'),
          'g',
        );
        const renameAssets = (text: string) => text.replace(assetName, (name) => assetNames.get(name) ?? name);
        const before = [...site.pages.values()].reduce((sum, html) => sum + html.length, 0);
        const written = new Map([...renamed.pages, ...renamed.stylesheets, ...renamed.scripts]);
        for (const file of files) {
          const text =
            written.get(file) ?? (TEXT_FILE.test(path.basename(file)) ? await readFile(file, 'utf8') : undefined);
          if (text === undefined) continue;
          const updated = renameAssets(text);
          if (written.has(file) || updated !== text) await writeFile(file, updated);
          const name = assetNames.get(path.basename(file));
          if (name && path.dirname(file) === assets) await rename(file, path.join(assets, name));
        }
        const after = [...renamed.pages.values()].reduce((sum, html) => sum + html.length, 0);
        logger.info(
          `${names.size} classes renamed; the pages' markup went from ${Math.round(before / 1024)} to ${Math.round(after / 1024)} KB`,
        );
      },
    },
  };
}
