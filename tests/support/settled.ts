/** Waiting for a page to be finished, for the specs that read what its whole stylesheet draws. */
import type { Page } from '@playwright/test';

/**
 * Waits until what a page holds back for its first paint (src/lib/after-paint.ts) has been added,
 * the whole stylesheet among it, and the network has gone quiet: the stylesheet has then loaded
 * (or failed, where a test blocks it) and the page's islands have run. Until then a page is drawn
 * by the CSS of its own markup alone, which has no rules for content a test writes into it.
 */
export async function settled(page: Page) {
  await page.waitForFunction(
    () =>
      document.querySelector('template[data-after-paint]') === null &&
      (document.querySelector('template#after-paint') === null ||
        document.head.querySelector('link[rel="stylesheet"]') !== null),
  );
  await page.waitForLoadState('networkidle');
}
