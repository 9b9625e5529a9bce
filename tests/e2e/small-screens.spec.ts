import { expect, test } from '@playwright/test';
import { cutOff, overflow } from '../support/overflow';
import { ALL_ROUTES, POSTS_WITH_TABLE } from '../support/routes';

/** The narrowest phones still in use (320 px: iPhone SE of the first generation, small Android phones) and the most common width. */
const WIDTHS = [320, 375];

for (const width of WIDTHS) {
  test.describe(`a ${width} px phone`, () => {
    test.use({ viewport: { width, height: 640 }, isMobile: true, hasTouch: true });

    for (const route of [...ALL_ROUTES, '/no-such-page']) {
      test(`${route} fits the screen`, async ({ page }) => {
        await page.goto(route);
        await page.waitForLoadState('load');
        const { scrollWidth, causes } = await overflow(page, width);
        expect(causes, `what sticks out at ${width} px`).toEqual([]);
        expect(scrollWidth, `the page's width at ${width} px`).toBeLessThanOrEqual(width);
      });
    }

    test('the header shows the logo and the menu button, and Get Started in the open menu', async ({ page }) => {
      await page.goto('/');
      const header = page.getByRole('banner');
      const toggle = header.getByRole('button', { name: 'Menu' });
      await expect(header.getByRole('link').first()).toBeInViewport({ ratio: 1 });
      await expect(toggle).toBeInViewport({ ratio: 1 });
      await toggle.click();
      const started = page.getByRole('navigation', { name: 'Mobile' }).getByRole('button', { name: 'Get Started' });
      await expect(started).toBeInViewport({ ratio: 1 });
      const { causes } = await overflow(page, width);
      expect(causes, `what sticks out of the open menu at ${width} px`).toEqual([]);
    });
  });
}

/**
 * Text made larger by the reader (a phone's or browser's text size setting: Chromium's default
 * font size, which every rem of the site follows): 150 % on the narrowest phones, 200 % on a
 * common one. The page wraps rather than scrolling sideways, and no line is cut off.
 */
for (const { width, scale } of [
  { width: 320, scale: 1.5 },
  { width: 360, scale: 2 },
]) {
  test.describe(`text at ${scale * 100} % on a ${width} px phone`, () => {
    test.use({ viewport: { width, height: 640 }, isMobile: true, hasTouch: true });

    for (const route of [...ALL_ROUTES, '/no-such-page']) {
      test(`${route} fits the screen`, async ({ page }) => {
        const browser = await page.context().newCDPSession(page);
        await browser.send('Page.enable');
        await browser.send('Page.setFontSizes', {
          fontSizes: { standard: 16 * scale, fixed: Math.round(13 * scale) },
        });
        await page.goto(route);
        const size = await page.evaluate(() => getComputedStyle(document.documentElement).fontSize);
        expect(size, 'the larger text is in effect').toBe(`${16 * scale}px`);
        const { scrollWidth, causes } = await overflow(page, width);
        expect(causes, `what sticks out at ${width} px`).toEqual([]);
        expect(scrollWidth, `the page's width at ${width} px`).toBeLessThanOrEqual(width);
        expect(await cutOff(page, width), 'lines cut off by a box that hides what overflows').toEqual([]);
      });
    }
  });
}

test.describe('wide content in a post on a 320 px phone', () => {
  test.use({ viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true });

  test('there is a post with a table to try', () => {
    expect(
      POSTS_WITH_TABLE.length,
      'no post in content/blog has a table: add a table fixture so the width test still covers one',
    ).toBeGreaterThan(0);
  });

  for (const slug of POSTS_WITH_TABLE) {
    test(`/blog/${slug} puts each table in a named box that takes focus`, async ({ page }) => {
      await page.goto(`/blog/${slug}`);
      const tables = page.locator('article table');
      expect(await tables.count()).toBeGreaterThan(0);
      for (const table of await tables.all()) {
        const box = table.locator('xpath=..');
        await expect(box).toHaveRole('region');
        await expect(box).toHaveAttribute('tabindex', '0');
        await expect(box).toHaveAccessibleName(/^Table/);
      }
    });
  }

  test('a table, a line of code and a link wider than the screen scroll or wrap inside the post', async ({ page }) => {
    await page.goto(`/blog/${POSTS_WITH_TABLE[0]}`);
    // Content no post has yet, written into the real page so the site's own styles lay it out.
    const long = `https://example.com/${'a-very-long-path-segment-'.repeat(6)}`;
    await page
      .locator('article table')
      .first()
      .evaluate((table, text) => {
        const cell = table.querySelector('td');
        if (cell) cell.textContent = text;
      }, long);
    await page.locator('.prose').evaluate((prose, text) => {
      const pre = document.createElement('pre');
      pre.textContent = `curl --request POST ${text}`;
      const paragraph = document.createElement('p');
      const link = document.createElement('a');
      link.href = text;
      link.textContent = text;
      paragraph.append('See ', link);
      prose.append(pre, paragraph);
    }, long);

    const { scrollWidth, causes } = await overflow(page, 320);
    expect(causes).toEqual([]);
    expect(scrollWidth).toBeLessThanOrEqual(320);
    const box = page
      .getByRole('region')
      .filter({ has: page.locator('table') })
      .first();
    const widths = (locator: typeof box) =>
      locator.evaluate((element) => ({ client: element.clientWidth, scroll: element.scrollWidth }));
    const table = await widths(box);
    expect(table.scroll, 'the table is wider than its box').toBeGreaterThan(table.client);
    const code = await widths(page.locator('.prose pre'));
    expect(code.scroll, 'the code is wider than its box').toBeGreaterThan(code.client);
    await box.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => box.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
  });
});
