/**
 * SVG text made ready to sit inside an HTML page as an `<svg>` element. Written into the page, an
 * illustration paints with the text around it and costs no request of its own.
 *
 * Active content never gets this far: the build's SVG guard (src/integrations/svg-guard.ts)
 * stops on any script, event handler or javascript: link in content/.
 */

/** The parts of an `<svg>` element: the attributes of its root and the markup inside it. */
export interface InlineSvg {
  attributes: Record<string, string>;
  body: string;
}

/**
 * What a file may carry as an image of its own but not inside the page: its styles would meet the
 * page's (a `<style>` applies to the whole document, a class picks up the site's CSS) or be refused
 * by the page's content security policy (a `style` attribute), and a link or an outside reference
 * would become part of the page.
 */
const PAGE_CLASHES = [
  /<style\b/i,
  /\s(?:style|class)\s*=/i,
  /<(?:a|image|script|foreignObject)\b/i,
  /<!(?:DOCTYPE|ENTITY)\b/i,
  /[\s:]href\s*=(?!\s*["']?\s*#)/i,
  /url\((?!\s*["']?\s*#)/i,
];

/** Root attributes that say nothing inside HTML, or that the page sets itself. */
const DROPPED = /^(?:xmlns(?::.*)?|version|id|x|y|width|height|xml:space|role|aria-.*|focusable)$/i;

const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/**
 * The `<svg>` of a file, its ids prefixed so that two illustrations on one page never reach each
 * other's gradients; undefined when the file cannot be written into a page as it is (see
 * PAGE_CLASHES), so that it is shown as an image instead.
 */
export function inlineSvg(
  text: string,
  idPrefix: string,
  size: { width: number; height: number },
): InlineSvg | undefined {
  const markup = text
    .replace(/^\uFEFF/, '')
    .replace(/<\?xml[\s\S]*?\?>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .trim();
  const match = /^<svg\b([^>]*?)\/?>([\s\S]*?)(?:<\/svg>)?$/i.exec(markup);
  if (!match || PAGE_CLASHES.some((pattern) => pattern.test(markup))) return undefined;
  const [, rootAttributes = '', inner = ''] = match;

  const attributes: Record<string, string> = {};
  for (const [, name = '', double, single] of rootAttributes.matchAll(ATTRIBUTE))
    if (!DROPPED.test(name)) attributes[name] = double ?? single ?? '';
  attributes.viewBox ??= `0 0 ${size.width} ${size.height}`;

  const ids = new Set([...inner.matchAll(/\sid\s*=\s*["']([^"']+)["']/g)].map(([, id]) => id));
  const prefixed = (id: string) => (ids.has(id) ? `${idPrefix}-${id}` : id);
  const body = inner
    .replace(/(\sid\s*=\s*["'])([^"']+)/g, (_, start: string, id: string) => start + prefixed(id))
    .replace(/(url\(\s*["']?#)([^"')\s]+)/g, (_, start: string, id: string) => start + prefixed(id))
    .replace(/([\s:]href\s*=\s*["']#)([^"']+)/g, (_, start: string, id: string) => start + prefixed(id))
    .trim();
  return { attributes: { ...attributes, width: String(size.width), height: String(size.height) }, body };
}
