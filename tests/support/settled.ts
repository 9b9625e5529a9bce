/** Waiting for a page to be finished, for the specs that read what its whole stylesheet draws. */
import type { Page } from '@playwright/test';

/**
 * Waits until what a page holds back for its first paint (src/lib/after-paint.ts) has been added
 * and has run: the whole stylesheet has loaded (or failed, where a test blocks it), then the page's
 * scripts (`data-scripts-ran` on `<html>`), so its islands listen for keys and events; and the
 * network has gone quiet. Until then a page is drawn by the CSS of its own markup alone, which has
 * no rules for content a test writes into it, and a key pressed (F8) reaches no island.
 */
export async function settled(page: Page) {
  await page.waitForFunction(
    () =>
      document.querySelector('template[data-after-paint]') === null &&
      document.documentElement.hasAttribute('data-scripts-ran'),
  );
  await page.waitForLoadState('networkidle');
}
