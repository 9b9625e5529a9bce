import { expect, test, type Page } from '@playwright/test';
import { ALL_ROUTES, POSTS_WITH_TABLE } from '../support/routes';

/** The narrowest phones still in use (320 px: iPhone SE of the first generation, small Android phones) and the most common width. */
const WIDTHS = [320, 375];

/**
 * What sticks out of a page `width` px wide: the document's own scroll width, and every element
 * whose box crosses either edge of the screen without a scrolling or clipping box around it
 * that fits (a table scrolling inside its own box is fine; a header wider than the screen is
 * not, even when `overflow: hidden` on the body would hide it from `scrollWidth`).
 */
async function overflow(page: Page, width: number) {
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
