/** Waiting for a page to be finished, for the specs that read what its whole stylesheet draws. */
import type { Page } from '@playwright/test';

/**
 * Waits until what a page holds back for its first paint (src/lib/after-paint.ts) has been added
 * and has run: the whole stylesheet has loaded (or failed, where a test blocks it), then the page's
 * scripts (`data-scripts-ran` on `<html>`), so its islands listen for keys and events; then until
 * every island that hydrates by itself (at load, when idle, or when in view and on the screen) has
 * hydrated, its form ready to send (the submit button is disabled until then); and the network
 * has gone quiet. Until then a page is drawn by the CSS of its own markup alone, which has no rules
 * for content a test writes into it, a key pressed (F8) reaches no island, and a form's button is
 * drawn as it is before the form can send, which a slow machine may still show after the network
 * has gone quiet.
 */
export async function settled(page: Page) {
  await page.waitForFunction(
    () =>
      document.querySelector('template[data-after-paint]') === null &&
      document.documentElement.hasAttribute('data-scripts-ran'),
  );
  await page.waitForFunction(() => {
    const onScreen = (element: Element) => {
      const box = element.getBoundingClientRect();
      return (
        box.width > 0 &&
        box.height > 0 &&
        box.bottom > 0 &&
        box.top < innerHeight &&
        box.right > 0 &&
        box.left < innerWidth
      );
    };
    return [...document.querySelectorAll('astro-island')]
      .filter((island) => {
        const directive = island.getAttribute('client');
        return (
          directive === 'load' ||
          directive === 'idle' ||
          (directive === 'visible' && [...island.children].some(onScreen))
        );
      })
      .every((island) => !island.hasAttribute('ssr') && !island.querySelector('button[type="submit"]:disabled'));
  });
  await page.waitForLoadState('networkidle');
}
