/**
 * An e-mail's HTML, shown on the admin page as it arrives. A srcdoc frame's document inherits the
 * page's Content-Security-Policy, which allows no inline style, and e-mails are styled inline: as
 * written, every style attribute and <style> element would be refused (and reported on the
 * console), the message shown unstyled. Even parsing the HTML in a detached document reports them.
 * So the markup is rewritten as a string first: style attributes renamed to STYLE_ATTRIBUTE and
 * <style> elements taken out; once the frame has loaded, the page applies both through the CSSOM
 * (an element's `style` and constructed style sheets), which the policy does not govern.
 */

/** Where a style attribute waits until the frame has loaded. */
export const STYLE_ATTRIBUTE = 'data-mail-style';

/** An e-mail's HTML with its styles taken out, and its style sheets' text. */
export interface UnstyledMail {
  html: string;
  sheets: string[];
}

/** Comments hold markup that is not in the document (Outlook's conditional comments): left as they are. */
const COMMENT = /(<!--[\s\S]*?-->)/;
const STYLE_ELEMENT = /<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi;
/** A start tag. Serialised HTML escapes `<` in text and `>` outside quotes, so these are tags, not text. */
const START_TAG = /<[a-z][^\s/>]*(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>/gi;
/** One attribute of a start tag, read from after its name: the next attribute starts where one ends. */
const ATTRIBUTE = /(\s+)([^\s"'>/=]+)(\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?/g;

/** Takes the styles out of an e-mail's HTML (see the module's comment); the rest is unchanged. */
export function takeStylesOut(html: string): UnstyledMail {
  const sheets: string[] = [];
  const parts = html.split(COMMENT).map((part, index) => {
    // split() with a capturing group puts the comments at the odd places.
    if (index % 2 === 1) return part;
    return part
      .replaceAll(STYLE_ELEMENT, (_element, css: string) => {
        sheets.push(css);
        return '';
      })
      .replaceAll(START_TAG, (tag) =>
        tag.replaceAll(ATTRIBUTE, (attribute, space: string, name: string, value = '') =>
          name.toLowerCase() === 'style' ? `${space}${STYLE_ATTRIBUTE}${value}` : attribute,
        ),
      );
  });
  return { html: parts.join(''), sheets };
}

/**
 * Gives a loaded frame's document its styles back: each element's own, then the style sheets.
 * The browser has decoded the attributes' character references, so the values are the e-mail's.
 */
export function putStylesBack(document: Document, sheets: string[]): void {
  for (const element of document.querySelectorAll<HTMLElement>(`[${STYLE_ATTRIBUTE}]`)) {
    element.style.cssText = element.getAttribute(STYLE_ATTRIBUTE) ?? '';
    element.removeAttribute(STYLE_ATTRIBUTE);
  }
  const view = document.defaultView;
  if (!view || sheets.length === 0) return;
  document.adoptedStyleSheets = sheets.map((css) => {
    // A sheet must be made by the frame's own window to be adopted by its document.
    const sheet = new view.CSSStyleSheet();
    sheet.replaceSync(css);
    return sheet;
  });
}
