import { expect, test } from '@playwright/test';
import { DESKTOP, testOnOnePage } from '../support/one-page';
import { cutOff, overflow } from '../support/overflow';
import { ALL_ROUTES, POSTS_WITH_TABLE } from '../support/routes';

/**
 * The narrowest phones still in use (320 px: iPhone SE of the first generation, small Android
 * phones) and the most common width; then text made larger by the reader (a phone's or browser's
 * text size setting: Chromium's default font size, which every rem of the site follows): 150 % on
 * the narrowest phones, 200 % on a common one. The page wraps rather than scrolling sideways, and
 * with larger text no line is cut off. Each route is loaded once, at the first setting, and taken
 * through the others as a person turns the phone or changes the text size with the page open: the
 * load is what costs (four loads a route took 59 s of the suite's worker time), and the checks are
 * of the layout, which the browser redoes for each width and text size.
 */
const SETTINGS = [
  { width: 320, scale: 1 },
  { width: 375, scale: 1 },
  { width: 320, scale: 1.5 },
  { width: 360, scale: 2 },
];

const onAPhone = testOnOnePage({
  ...DESKTOP,
  viewport: { width: 320, height: 640 },
  isMobile: true,
  hasTouch: true,
});

onAPhone.describe('on a phone', () => {
  for (const route of [...ALL_ROUTES, '/no-such-page']) {
    onAPhone(
      `${route} fits the screen at 320 and 375 px, and with text at 150 % and 200 %`,
      async ({ onePage: page }) => {
        const browser = await page.context().newCDPSession(page);
        await browser.send('Page.enable');
        for (const [index, { width, scale }] of SETTINGS.entries()) {
          const setting = `${width} px with text at ${scale * 100} %`;
          await onAPhone.step(setting, async () => {
            await page.setViewportSize({ width, height: 640 });
            // 16 and 13 px are Chromium's own defaults: at 100 % the page is as a phone shows it.
            await browser.send('Page.setFontSizes', {
              fontSizes: { standard: 16 * scale, fixed: Math.round(13 * scale) },
            });
            if (index === 0) {
              await page.goto(route);
              await page.waitForLoadState('load');
            }
            const size = await page.evaluate(() => getComputedStyle(document.documentElement).fontSize);
            expect(size, `the text size in effect at ${setting}`).toBe(`${16 * scale}px`);
            const { scrollWidth, causes } = await overflow(page, width);
            expect(causes, `what sticks out at ${setting}`).toEqual([]);
            expect(scrollWidth, `the page's width at ${setting}`).toBeLessThanOrEqual(width);
            if (scale > 1)
              expect(
                await cutOff(page, width),
                `lines cut off by a box that hides what overflows at ${setting}`,
              ).toEqual([]);
          });
        }
        await browser.detach();
      },
    );
  }
});

for (const width of [320, 375]) {
  test.describe(`a ${width} px phone`, () => {
    test.use({ viewport: { width, height: 640 }, isMobile: true, hasTouch: true });

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
