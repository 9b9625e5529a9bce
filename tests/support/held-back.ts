/** What a page held back below its first screen and added after its first paint (src/lib/after-paint.ts). */
import type { Page } from '@playwright/test';

/**
 * Has the page record, as `window.heldBack`, the elements its script adds in place of each
 * `<noscript data-later>` (src/integrations/first-screen.ts). Call before the page is opened.
 */
export async function recordHeldBack(page: Page) {
  await page.addInitScript(() => {
    const heldBack: Element[] = [];
    Object.assign(window, { heldBack });
    new MutationObserver((records) => {
      for (const record of records)
        if (
          [...record.removedNodes].some((node) => node instanceof HTMLElement && node.matches('noscript[data-later]'))
        )
          heldBack.push(...[...record.addedNodes].filter((node): node is Element => node instanceof Element));
    }).observe(document, { childList: true, subtree: true });
  });
}

/**
 * Waits until the page has added what it held back below its first screen (the footer and its
 * newsletter form among it), for the specs that read it without waiting for the rest to settle.
 */
export async function heldBackAdded(page: Page) {
  await page.waitForFunction(() => document.querySelector('noscript[data-later]') === null);
}
