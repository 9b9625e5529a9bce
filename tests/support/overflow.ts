/** Measuring a page laid out on a narrow screen, for the specs that check phone widths. */
import type { Page } from '@playwright/test';

/**
 * What sticks out of a page `width` px wide: the document's own scroll width, and every element
 * whose box crosses either edge of the screen without a scrolling or clipping box around it
 * that fits (a table scrolling inside its own box is fine; a header wider than the screen is
 * not, even when `overflow: hidden` on the body would hide it from `scrollWidth`).
 */
export async function overflow(page: Page, width: number) {
  return page.evaluate((limit) => {
    const fits = (rect: DOMRect) => rect.left >= -0.5 && rect.right <= limit + 0.5;
    // Visually hidden text (the skip link until focused) is clipped to nothing.
    const clippedAway = (element: Element) => {
      const style = getComputedStyle(element);
      return style.clipPath !== 'none' || style.clip !== 'auto';
    };
    const clippedInside = (element: Element) => {
      for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) {
        if (clippedAway(box)) return true;
        if (getComputedStyle(box).overflowX !== 'visible') return fits(box.getBoundingClientRect());
      }
      return false;
    };
    const offenders = new Set<Element>();
    for (const element of document.body.querySelectorAll('*')) {
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || fits(rect)) continue;
      // Wholly past the left edge is the usual way to hide a field from people (the forms' honeypot):
      // nothing there can be scrolled to or seen.
      if (rect.right <= 0 || clippedAway(element) || clippedInside(element)) continue;
      offenders.add(element);
    }
    // The outermost offenders name the cause; their children only repeat it.
    const causes = [...offenders]
      .filter((element) => !element.parentElement || !offenders.has(element.parentElement))
      .slice(0, 5)
      .map((element) => {
        const rect = element.getBoundingClientRect();
        const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}`;
        const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
        return `${name} "${text}" from ${Math.round(rect.left)} to ${Math.round(rect.right)} px`;
      });
    return { scrollWidth: document.documentElement.scrollWidth, causes };
  }, width);
}

/**
 * Text a box cuts off (a box with `overflow: hidden` or `clip`, or the screen's edges): each line
 * of text that reaches past such a box, with the box that hides the rest. Text in a box that
 * scrolls is not cut off.
 */
export async function cutOff(page: Page, width: number) {
  return page.evaluate((limit) => {
    const cut: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || !node.textContent?.trim() || element.closest('template, noscript, script, style')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const text = range.getBoundingClientRect();
      if (text.width === 0 || text.height === 0) continue;
      let edges = { left: 0, right: limit, name: 'the screen' };
      for (let box: Element | null = element; box && box !== document.documentElement; box = box.parentElement) {
        const style = getComputedStyle(box);
        // Hidden from people on purpose: visually hidden text, the forms' honeypot past the left
        // edge, and a line ending in an ellipsis, which says itself that it is cut (the header's name).
        const gone = box.getBoundingClientRect().right <= 0 || style.textOverflow === 'ellipsis';
        if (gone || style.display === 'none' || style.clipPath !== 'none' || style.clip !== 'auto') {
          edges = { left: -Infinity, right: Infinity, name: '' };
          break;
        }
        if (style.overflowX === 'auto' || style.overflowX === 'scroll') {
          const rect = box.getBoundingClientRect();
          edges = { left: Math.max(rect.left, 0), right: Math.min(rect.right, limit), name: '' };
          break;
        }
        if (style.overflowX === 'hidden' || style.overflowX === 'clip') {
          const rect = box.getBoundingClientRect();
          if (text.left < rect.left - 0.5 || text.right > rect.right + 0.5) {
            edges = {
              left: rect.left,
              right: rect.right,
              name: `${box.tagName.toLowerCase()}.${[...box.classList].join('.')}`,
            };
            break;
          }
        }
      }
      if (edges.name && (text.left < edges.left - 0.5 || text.right > edges.right + 0.5))
        cut.push(
          `"${node.textContent.trim().slice(0, 40)}" from ${Math.round(text.left)} to ${Math.round(text.right)} px, in ${edges.name}`,
        );
    }
    return cut.slice(0, 5);
  }, width);
}
