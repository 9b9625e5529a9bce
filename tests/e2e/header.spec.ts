import { expect, type Page } from '@playwright/test';
import { DESKTOP, testOnOnePage } from '../support/one-page';

/**
 * The header only shows and responds: each test loads its page afresh on its worker's one page,
 * at the size the test sets (support/one-page.ts says why).
 */
const test = testOnOnePage(DESKTOP);
const WIDE = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 740 };

/** Loads `path` at `viewport` on the worker's page. */
async function visit(page: Page, path: string, viewport: { width: number; height: number }) {
  await page.setViewportSize(viewport);
  await page.goto(path);
}

const NAV = [
  { label: 'Home', href: '/' },
  { label: 'Sectors', href: '/sectors' },
  { label: 'Mini-Apps', href: '/mini-apps' },
  { label: 'Zoho Integration', href: '/zoho' },
  { label: 'Blog', href: '/blog' },
  { label: 'Contact', href: '/contact' },
];

test.describe('header on a wide screen', () => {
  for (const { label, href } of NAV) {
    test(`on ${href} the ${label} link is the current page and the others are not`, async ({ onePage: page }) => {
      await visit(page, href, WIDE);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await expect(nav.getByRole('link')).toHaveText(NAV.map((link) => link.label));
      await expect(nav.getByRole('link', { name: label, exact: true })).toHaveAttribute('aria-current', 'page');
      await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
    });
  }

  test('a detail page marks its section in the navigation', async ({ onePage: page }) => {
    await visit(page, '/sectors/saas', WIDE);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sectors' })).toHaveAttribute(
      'aria-current',
      'true',
    );
  });

  test('the logo links home and the hamburger is hidden', async ({ onePage: page }) => {
    await visit(page, '/blog', WIDE);
    await expect(page.locator('header a[href="/"]').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
    await expect(page.getByRole('banner').getByRole('button', { name: 'Get Started' })).toBeVisible();
  });

  test('stays at the top and its shadow grows only past 10 px of scroll', async ({ onePage: page }) => {
    await visit(page, '/', WIDE);
    const header = page.getByRole('banner');
    const shadow = () => header.evaluate((element) => getComputedStyle(element).boxShadow);
    const resting = await shadow();
    await page.evaluate(() => window.scrollTo(0, 10));
    await expect(header).not.toHaveAttribute('data-scrolled');
    expect(await shadow()).toBe(resting);
    await page.evaluate(() => window.scrollTo(0, 11));
    await expect(header).toHaveAttribute('data-scrolled', '');
    await expect.poll(shadow).not.toBe(resting);
    await page.evaluate(() => window.scrollTo(0, 1500));
    expect((await header.boundingBox())?.y).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(header).not.toHaveAttribute('data-scrolled');
  });
});

/** Whether the site's name beside the logo shows whole (the header truncates it rather than overflow). */
const nameShowsWhole = (page: Page) =>
  page
    .getByRole('banner')
    .locator('a[href="/"] span')
    .last()
    .evaluate((name) => name.scrollWidth <= name.clientWidth && name.clientWidth > 0);

// A tablet held upright (768 to 834 px) and a small laptop window: the six links, the logo and Get
// Started need about 900 px in a row, so the menu button serves below 1024 px.
for (const width of [768, 834, 1023]) {
  test(`at ${width} px the menu button stands for the links, and the logo's name shows whole`, async ({
    onePage: page,
  }) => {
    await visit(page, '/sectors', { width, height: 800 });
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Menu' })).toBeVisible();
    await expect(page.getByRole('banner').getByRole('button', { name: 'Get Started' })).toBeVisible();
    expect(await nameShowsWhole(page)).toBe(true);
  });
}

test('at 1024 px the links fit in one row, each on one line, beside the whole name and Get Started', async ({
  onePage: page,
}) => {
  await visit(page, '/sectors', { width: 1024, height: 800 });
  const links = page.getByRole('navigation', { name: 'Main' }).getByRole('link');
  await expect(links).toHaveCount(NAV.length);
  const heights = await links.evaluateAll((elements) => elements.map((link) => link.getBoundingClientRect().height));
  expect(new Set(heights).size, `link heights ${heights.join(', ')}`).toBe(1);
  await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
  expect(await nameShowsWhole(page)).toBe(true);
});

test.describe('header on a phone', () => {
  test('the hamburger toggles the menu and reports its state', async ({ onePage: page }) => {
    await visit(page, '/', PHONE);
    const toggle = page.getByRole('button', { name: 'Menu' });
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-controls', 'mobile-menu');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(menu).toBeHidden();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(menu.getByRole('link')).toHaveText(NAV.map((link) => link.label));
    await toggle.click();
    await expect(menu).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  test('choosing a link closes the menu and navigates', async ({ onePage: page }) => {
    await visit(page, '/', PHONE);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Blog' }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeHidden();
  });

  test('tabbing on past the menu closes it, so focus is never under it', async ({ onePage: page }) => {
    await visit(page, '/sectors', PHONE);
    const toggle = page.getByRole('button', { name: 'Menu' });
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await toggle.click();
    await expect(menu).toBeVisible();
    await menu.getByRole('button', { name: 'Get Started' }).focus();
    await page.keyboard.press('Tab');
    await expect(menu).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    // Shift+Tab back into the header keeps it open once opened again.
    await toggle.click();
    await menu.getByRole('link').first().focus();
    await page.keyboard.press('Shift+Tab');
    await expect(toggle).toBeFocused();
    await expect(menu).toBeVisible();
  });

  test('Get Started in the menu opens the contact dialog and closes the menu', async ({ onePage: page }) => {
    await visit(page, '/', PHONE);
    const toggle = page.getByRole('button', { name: 'Menu' });
    await toggle.click();
    await page.getByRole('navigation', { name: 'Mobile' }).getByRole('button', { name: 'Get Started' }).click();
    await expect(page.getByRole('dialog', { name: 'Contact Us / Request Demo' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });
});

test.describe('header on a short screen (a phone held sideways, 400 % zoom)', () => {
  for (const viewport of [
    { width: 320, height: 256 },
    { width: 667, height: 375 },
  ]) {
    test(`at ${viewport.width}×${viewport.height} every item of the open menu can be reached and seen`, async ({
      onePage: page,
    }) => {
      await visit(page, '/blog/what-to-automate-first', viewport);
      await page.getByRole('button', { name: 'Menu' }).click();
      const menu = page.getByRole('navigation', { name: 'Mobile' });
      for (const item of [...(await menu.getByRole('link').all()), menu.getByRole('button', { name: 'Get Started' })]) {
        await item.focus();
        const box = await item.boundingBox();
        expect(box, await item.innerText()).not.toBeNull();
        expect(box!.y, await item.innerText()).toBeGreaterThanOrEqual(0);
        expect(box!.y + box!.height, await item.innerText()).toBeLessThanOrEqual(viewport.height);
      }
    });
  }
});

test('the skip link moves focus to the main content', async ({ onePage: page }) => {
  await visit(page, '/sectors', WIDE);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
});
