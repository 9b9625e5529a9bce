/**
 * The markup below a phone's first screen is held back from the first paint and added right after
 * it (src/integrations/first-screen.ts, src/lib/after-paint.ts). Here, in Chromium: nothing held
 * back belongs to the first screen of any public page on any phone up to 430 × 932, the page ends
 * whole, as it is without JavaScript, and an address that names a heading held back goes to it.
 */
import { expect, test, type Page } from '@playwright/test';
import { ALL_ROUTES, NOINDEX_ROUTES } from '../support/routes';
import { recordHeldBack } from '../support/held-back';
import { settled } from '../support/settled';

const PUBLIC_ROUTES = ALL_ROUTES.filter((route) => !NOINDEX_ROUTES.includes(route));
/** Lighthouse's phone (412 × 823) and the tallest and the narrowest of common phones. */
const PHONES = [
  { width: 412, height: 823 },
  { width: 430, height: 932 },
  { width: 360, height: 800 },
];

/** The top of the highest element held back that the page draws, in px from the top of the page. */
const heldTop = (page: Page) =>
  page.evaluate(() => {
    const held = (window as unknown as { heldBack: Element[] }).heldBack;
    const tops = held
      .flatMap((element) => [element, ...element.querySelectorAll('*')])
      .filter((element) => !element.closest('dialog:not([open])'))
      .map((element) => element.getBoundingClientRect())
      .filter((box) => box.width > 0 && box.height > 0)
      .map((box) => box.top + scrollY);
    return { count: held.length, top: Math.min(...tops) };
  });

for (const phone of PHONES)
  test(`nothing held back is on the first screen of a ${phone.width} × ${phone.height} phone`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ viewport: phone, isMobile: true, hasTouch: true });
    try {
      const page = await context.newPage();
      await recordHeldBack(page);
      const onScreen: string[] = [];
      for (const route of PUBLIC_ROUTES) {
        await page.goto(route);
        await settled(page);
        const { count, top } = await heldTop(page);
        expect(count, `${route} holds back the markup below its first screen`).toBeGreaterThan(0);
        if (top < phone.height) onScreen.push(`${route}: held back from ${Math.round(top)} px`);
      }
      expect(onScreen).toEqual([]);
    } finally {
      await context.close();
    }
  });

/**
 * The text of the page's main content and footer, as one line; a `<noscript>` of a picture, text
 * with JavaScript and an image without it, left out.
 */
const pageText = (page: Page) =>
  page.evaluate(() =>
    ['main', 'footer'].map((name) => {
      const copy = document.querySelector(name)?.cloneNode(true);
      if (!(copy instanceof Element)) return undefined;
      for (const picture of copy.querySelectorAll('noscript:not([data-later])')) picture.remove();
      return copy.textContent?.replace(/\s+/g, ' ').trim();
    }),
  );

test('each page ends whole, as it is without JavaScript', async ({ browser }) => {
  test.setTimeout(120_000);
  const withScript = await browser.newContext();
  const without = await browser.newContext({ javaScriptEnabled: false });
  try {
    const [page, plain] = [await withScript.newPage(), await without.newPage()];
    for (const route of PUBLIC_ROUTES) {
      await page.goto(route);
      await settled(page);
      await plain.goto(route);
      await expect(page.locator('noscript[data-later]'), route).toHaveCount(0);
      expect(await pageText(page), route).toEqual(await pageText(plain));
      // Without JavaScript the held markup is shown where it stands, its blocks among the blocks around it.
      await expect(plain.getByRole('contentinfo'), route).toBeVisible();
      await expect(plain.locator('noscript[data-later]').first(), route).toHaveCSS('display', 'contents');
    }
  } finally {
    await withScript.close();
    await without.close();
  }
});

test('an address that names a heading held back goes to it once it has come', async ({ page }) => {
  await page.setViewportSize({ width: 412, height: 823 });
  await page.goto('/sectors/saas#cta-title');
  await settled(page);
  const heading = page.locator('#cta-title');
  await expect(heading).toBeInViewport();
  expect(await page.evaluate(() => scrollY)).toBeGreaterThan(823);
});

test('with JavaScript, markup held back is never drawn as the text it is kept as', async ({ page }) => {
  await page.goto('/sectors');
  await settled(page);
  // Once the whole stylesheet has come, as it has before the page adds what it held back.
  const drawnText = await page.evaluate(() => {
    const held = document.createElement('noscript');
    held.dataset.later = '';
    held.textContent = '<section><h2>Held back</h2></section>';
    document.querySelector('main')?.append(held);
    const range = document.createRange();
    range.selectNodeContents(held);
    return range.getClientRects().length;
  });
  expect(drawnText).toBe(0);
});

test('a reader who reloads or comes back to a page is taken back to their place in it', async ({ page }) => {
  await page.setViewportSize({ width: 412, height: 823 });
  await page.goto('/blog/what-to-automate-first');
  await settled(page);
  await page.evaluate(() => scrollTo(0, 2600));
  await page.reload();
  await settled(page);
  expect(await page.evaluate(() => scrollY)).toBe(2600);
  await page.goto('/contact');
  await settled(page);
  await page.goBack();
  await settled(page);
  expect(await page.evaluate(() => scrollY)).toBe(2600);
});
