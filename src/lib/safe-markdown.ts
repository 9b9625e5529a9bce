/**
 * Markdown in content/ may not hold raw HTML (but for a few inline tags without attributes) nor a
 * link or picture whose address runs a script. What a markdown file says goes unescaped into its
 * page, the newsletter's e-mails and the /api: a `<meta http-equiv="refresh">`, a `<script>`, a
 * `<form>` or an `onerror=` would reach every reader and subscriber. The build fails instead,
 * naming each construct with its file and line, so the editor sees what to change: nothing is
 * dropped in silence, and what is written in Markdown renders exactly as before.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Loader } from 'astro/loaders';
import type { Element } from 'hast';
import { markdownToHtml } from 'satteri';
import { checkedBefore } from './content-fields';

/**
 * The HTML an editor may write in markdown, without attributes: inline formatting Markdown has no
 * syntax for. Nothing in it can run, load, style, send or move anything.
 */
export const ALLOWED_TAGS = [
  ...['abbr', 'b', 'br', 'cite', 'code', 'del', 'dfn', 'em', 'i', 'ins', 'kbd'],
  ...['mark', 'q', 's', 'samp', 'small', 'strong', 'sub', 'sup', 'u', 'var', 'wbr'],
] as const;

/** A run of allowed tags and nothing else: what one piece of raw HTML may be. */
const ALLOWED_RAW = new RegExp(`^(?:\\s*</?(?:${ALLOWED_TAGS.join('|')})\\s*/?>)*\\s*$`, 'i');

/** Where a link or picture may point: the web, an e-mail, a phone, or (no scheme) this site. */
const ALLOWED_SCHEMES = new Set(['http', 'https', 'mailto', 'tel']);

/**
 * The scheme of an address as a browser reads it, tabs, line breaks and controls dropped, percent
 * escapes decoded (so `java%09script:` is refused too); undefined for a relative address
 * (`/contact`, `#top`, `../images/x.png`).
 */
function schemeOf(address: string): string | undefined {
  let decoded = address;
  try {
    decoded = decodeURIComponent(address);
  } catch {
    // A malformed escape is read as written.
  }
  // eslint-disable-next-line no-control-regex -- the controls and spaces a browser drops from an address
  const bare = decoded.replaceAll(/[\u0000-\u0020\u007f]/g, '').toLowerCase();
  return /^([a-z][a-z0-9+.-]*):/.exec(bare)?.[1];
}

/** A construct as a message quotes it: its first line, shortened. */
function quoted(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** One thing a markdown file may not hold, at its line (counted from the top of the file). */
export interface MarkdownProblem {
  line: number;
  text: string;
}

/**
 * What in a markdown file (front matter included, which the parser sets aside) is raw HTML or an
 * address that runs a script, read with the parser and features the site renders it with, so
 * code (`` `<script>` ``, an indented block) is text, as it is on the page.
 */
export function unsafeMarkdown(markdown: string): MarkdownProblem[] {
  const problems: MarkdownProblem[] = [];
  const note = (node: { position?: { start: { line: number } } | undefined }, text: string) =>
    problems.push({ line: node.position?.start.line ?? 0, text });
  const address = (node: Readonly<Element>, property: 'href' | 'src', what: string) => {
    const value = node.properties?.[property];
    const scheme = typeof value === 'string' ? schemeOf(value) : undefined;
    if (typeof value === 'string' && scheme !== undefined && !ALLOWED_SCHEMES.has(scheme))
      note(node, `${quoted(value)}: ${what} to an address that is no web page, e-mail or phone number`);
  };
  markdownToHtml(markdown, {
    features: { gfm: true, smartPunctuation: true },
    hastPlugins: [
      {
        name: 'safe-markdown',
        options: { position: true },
        raw(node) {
          if (!ALLOWED_RAW.test(node.value)) note(node, `${quoted(node.value)}: raw HTML`);
        },
        element: {
          filter: ['a', 'img'],
          visit(node) {
            if (node.tagName === 'a') address(node, 'href', 'a link');
            else address(node, 'src', 'a picture');
          },
        },
      },
    ],
  });
  return problems.sort((a, b) => a.line - b.line);
}

/** A glob loader of markdown files that fails the build on what unsafeMarkdown() finds, naming the file and each line. */
export function withSafeMarkdown(loader: Loader): Loader {
  return checkedBefore(loader, (entry, root) => {
    if (!entry.filePath) return entry.data;
    const file = path.resolve(root, entry.filePath);
    const problems = unsafeMarkdown(readFileSync(file, 'utf8'));
    const where = path.relative(root, file);
    if (problems.length > 0)
      throw new Error(
        [
          `${where}: write it all in Markdown. Of HTML, only ${ALLOWED_TAGS.map((tag) => `<${tag}>`).join(' ')} without attributes; links and pictures point at https://, http://, mailto:, tel: or this site.`,
          ...problems.map(({ line, text }) => `${where}:${line}: ${text}`),
        ].join('\n'),
      );
    return entry.data;
  });
}
