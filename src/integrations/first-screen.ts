/**
 * The markup below a phone's first screen, held back from the first paint (deferBelowFirstScreen):
 * for src/integrations/first-paint.ts, before it picks the CSS the page's first paint needs.
 */
import { DomUtils, parseDocument } from 'htmlparser2';
import type { ChildNode, Element } from 'domhandler';

/**
 * How much of `<main>`'s text the first paint keeps: more than the first screen of any phone
 * holds, with the header above it and the page's headings, pictures and buttons taking their
 * room (`tests/e2e/first-screen.spec.ts` checks it on phones up to 430 × 932 for every page).
 */
export const FIRST_SCREEN_TEXT = 600;
/**
 * Elements whose children are blocks of the page that can each be held back whole, and where a
 * `<noscript>` may stand among them (not a list, which holds only its items).
 */
const BLOCKS = new Set(['main', 'section', 'div', 'article', 'header']);
/** What stays in place wherever it is: what runs, and what waits for the paint already. */
const KEPT = new Set(['script', 'template', 'style', 'link', 'noscript']);
/** What the build writes in place of the markup it holds back, which the page adds after its first paint. */
export const LATER_OPEN = '<noscript data-later>';
const LATER_CLOSE = '</noscript>';
/** The markup of each run a built page holds back, in document order. */
export const heldRuns = (html: string): string[] =>
  html
    .split(LATER_OPEN)
    .slice(1)
    .map((run) => run.slice(0, run.indexOf(LATER_CLOSE)));
/**
 * A picture that waits for the paint (Illustration.astro): held back with the markup around it,
 * it is written as the image itself, which that markup brings after the paint anyway.
 */
const WAITING_PICTURE = /<template data-after-paint>([\s\S]*?)<\/template><noscript>[\s\S]*?<\/noscript>/g;

const isElement = (node: ChildNode): node is Element => node.type === 'tag';
const textLength = (node: ChildNode) => DomUtils.textContent(node).replace(/\s+/g, ' ').trim().length;

/**
 * The last element the first screen keeps: the block, in document order, whose text takes
 * `<main>`'s past FIRST_SCREEN_TEXT, looked for down through blocks of blocks, and kept whole;
 * `<main>` itself when it holds less.
 */
function lastKept(main: Element): Element {
  let budget = FIRST_SCREEN_TEXT;
  let block = main;
  for (;;) {
    const children = block.children.filter(isElement);
    const crossing = children.find((child) => {
      const length = textLength(child);
      if (length >= budget) return true;
      budget -= length;
      return false;
    });
    // The text that takes it past is the block's own, beside its elements.
    if (!crossing) return block;
    if (!BLOCKS.has(crossing.name) || !crossing.children.some(isElement)) return crossing;
    block = crossing;
  }
}

/**
 * The page with what follows its first screen (everything after the block that takes `<main>`'s
 * text past FIRST_SCREEN_TEXT, through the footer and the closed contact dialog) written as the text of
 * `<noscript data-later>` elements, one per run of sibling blocks. With JavaScript, the browser
 * takes a `<noscript>`'s content as text, which it reads in a fraction of the time it takes to
 * build elements, style them and lay them out, and the page's script adds it as markup right after
 * the first paint (src/lib/after-paint.ts); without JavaScript it is markup, and the page is whole.
 * A run that holds a script or a `<noscript>` of its own is left in place.
 */
export function deferBelowFirstScreen(html: string): string {
  const document = parseDocument(html, { withStartIndices: true, withEndIndices: true });
  const main = DomUtils.findOne((element) => element.name === 'main', document.children);
  if (!main) return html;
  const runs: [start: number, end: number][] = [];
  // What follows the last element kept, at its level and at each level above it up to <body>.
  for (let node = lastKept(main); node.parent && isElement(node.parent); node = node.parent) {
    const siblings = node.parent.children.filter(isElement);
    const held = siblings.slice(siblings.indexOf(node) + 1).filter((sibling) => !KEPT.has(sibling.name));
    const first = held[0];
    const last = held.at(-1);
    if (first && last) runs.push([first.startIndex ?? 0, (last.endIndex ?? 0) + 1]);
    if (node.parent.name === 'body') break;
  }
  // From the last run to the first, so that each run's offsets still hold.
  return runs
    .sort(([a], [b]) => b - a)
    .reduce((page, [start, end]) => {
      const markup = page.slice(start, end).replace(WAITING_PICTURE, '$1');
      if (/<(?:script|noscript)\b/.test(markup)) return page;
      return `${page.slice(0, start)}${LATER_OPEN}${markup}${LATER_CLOSE}${page.slice(end)}`;
    }, html);
}
