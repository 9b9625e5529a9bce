/**
 * A page paints from its own document: the CSS of its markup is written into it, and the whole
 * stylesheet, the page's scripts and the pictures below the first screen come after the first
 * paint (src/integrations/first-paint.ts, src/lib/after-paint.ts). Here, in Chromium: the page's
 * first screen drawn with its own CSS alone is the same drawn with the whole stylesheet, and what
 * waits for the paint does come.
 */
import { expect, test, type Page } from '@playwright/test';
import { PAGE_TYPES } from '../../scripts/bench/page-types';
import { recordHeldBack } from '../support/held-back';
import { settled } from '../support/settled';

const PUBLIC = PAGE_TYPES.filter((type) => !type.noindex);
const WIDTHS = [390, 1280];

/**
 * Every element's box and the styles that draw it, in document order, but what a closed dialog
 * holds (no paint draws it) and what the page held back below its first screen, which comes with
 * the whole stylesheet, whose rules it brings; an element that holds some of that is drawn as
 * tall as what it holds, and its grid's tracks are sized by it, so those are left out.
 */
function drawing(page: Page) {
  return page.evaluate(() => {
    const heldBack = (window as unknown as { heldBack: Element[] }).heldBack;
    return [...document.body.querySelectorAll('*')]
      .filter((element) => !element.closest('dialog:not([open])'))
      .filter((element) => !heldBack.some((held) => held.contains(element)))
      .map((element) => {
        const box = element.getBoundingClientRect();
        const style = getComputedStyle(element);
        const holds = heldBack.some((held) => element.contains(held));
        const drawn = [
          'display',
          'position',
          'color',
          'background-color',
          'background-image',
          'font-size',
          'font-weight',
          'line-height',
          'margin',
          'padding',
          'gap',
          'grid-template-columns',
          'border-width',
          'border-radius',
          'box-shadow',
          'opacity',
          'text-align',
        ].map((name) => (holds && name === 'grid-template-columns' ? 'held' : style.getPropertyValue(name)));
        const classes = element.getAttribute('class') ?? '';
        return {
          element: `<${element.tagName.toLowerCase()} class="${classes.slice(0, 60)}">`,
          drawn:
            [box.x, box.y, box.width, holds ? 'held' : box.height]
              .map((value) => (typeof value === 'number' ? Math.round(value) : value))
              .join(',') +
            ' ' +
            drawn.join('|'),
        };
      });
  });
}

for (const width of WIDTHS)
  for (const type of PUBLIC)
    test(`${type.route} at ${width} px is drawn by its own CSS as by the whole stylesheet`, async ({ browser }) => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      try {
        const own = await context.newPage();
        await recordHeldBack(own);
        await own.route(/\/_astro\/[^/]+\.css$/, (route) => route.abort());
        await own.goto(type.route);
        await settled(own);
        const whole = await context.newPage();
        await recordHeldBack(whole);
        await whole.goto(type.route);
        await settled(whole);
        await expect(whole.locator('link[rel="stylesheet"][href^="/_astro/"]')).toHaveCount(1);
        const [mine, theirs] = [await drawing(own), await drawing(whole)];
        expect(mine.length).toBe(theirs.length);
        const differing = mine
          .map((item, index) => ({ ...item, whole: theirs[index]?.drawn }))
          .filter((item) => item.drawn !== item.whole)
          .map((item) => `${item.element}\n  own:   ${item.drawn}\n  whole: ${item.whole}`);
        expect(differing, 'elements drawn otherwise by the page alone').toEqual([]);
      } finally {
        await context.close();
      }
    });

test('what waits for the first paint comes: the stylesheet, the pictures and the islands', async ({ page }) => {
  const requests: string[] = [];
  page.on('request', (request) => requests.push(new URL(request.url()).pathname));
  await page.goto('/');
  await settled(page);
  expect(requests.filter((path) => path.endsWith('.css'))).toHaveLength(1);
  const pictures = page.getByRole('main').locator('article img[src$=".svg"]');
  await expect(pictures).toHaveCount(3);
  for (const picture of await pictures.all())
    expect(await picture.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  // The footer's sign-up is an island: its button is enabled once the runtime, loaded after the paint, has hydrated it.
  const footer = page.getByRole('form', { name: 'Newsletter signup' });
  await footer.scrollIntoViewIfNeeded();
  await expect(footer.getByRole('button', { name: 'Subscribe' })).toBeEnabled();
  // The header's script, loaded after the paint too, opens the menu on a phone and the dialog.
  await page.getByRole('banner').getByRole('button', { name: 'Get Started' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
});

test('without JavaScript the page links its whole stylesheet', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto('/blog');
    expect(await page.evaluate(() => [...document.styleSheets].filter((sheet) => sheet.href).length)).toBe(1);
    await expect(page.getByRole('main').locator('article img[src$=".svg"]').first()).toBeVisible();
  } finally {
    await context.close();
  }
});

test('before its first paint a page listens only for an early press and for the reader leaving', async ({ page }) => {
  // Each listener the page's own scripts add on the window or the document, with the time it was
  // added; a listener on the load event, in particular, runs in the task that lays the page out for
  // its first paint. Those Playwright's injected script adds (it checks for global listeners before
  // an action, in the page's world) come from no script of the site's origin, and are left out.
  await page.addInitScript(() => {
    const added: { type: string; at: number }[] = [];
    (window as unknown as { listenersAdded: typeof added }).listenersAdded = added;
    const original = EventTarget.prototype.addEventListener;
    EventTarget.prototype.addEventListener = function (this: EventTarget, type: string, ...rest: unknown[]) {
      const bySite = new Error().stack?.includes(location.origin) ?? false;
      if ((this === window || this === document) && bySite) added.push({ type, at: performance.now() });
      return original.call(this, type, ...(rest as [EventListener]));
    };
  });
  await page.goto('/');
  await settled(page);
  const { added, paint } = await page.evaluate(() => ({
    added: (window as unknown as { listenersAdded: { type: string; at: number }[] }).listenersAdded,
    paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0,
  }));
  expect(paint).toBeGreaterThan(0);
  expect(added.filter((listener) => listener.at < paint).map((listener) => listener.type)).toEqual([
    'pagehide',
    'click',
  ]);
  // What the script does besides waits for the paint, and is then done: the reader's place is looked for.
  expect(added.filter((listener) => listener.at >= paint).map((listener) => listener.type)).toEqual(
    expect.arrayContaining(['pagehide', 'wheel', 'touchstart', 'keydown']),
  );
});
