import { expect, test } from '@playwright/test';

const NAV = [
  { label: 'Home', href: '/' },
  { label: 'Sectors', href: '/sectors' },
  { label: 'Mini-Apps', href: '/mini-apps' },
  { label: 'Zoho Integration', href: '/zoho' },
  { label: 'Blog', href: '/blog' },
  { label: 'Contact', href: '/contact' },
];

test.describe('header on a wide screen', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  for (const { label, href } of NAV) {
    test(`on ${href} the ${label} link is the current page and the others are not`, async ({ page }) => {
      await page.goto(href);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await expect(nav.getByRole('link')).toHaveText(NAV.map((link) => link.label));
      await expect(nav.getByRole('link', { name: label, exact: true })).toHaveAttribute('aria-current', 'page');
      await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
    });
  }

  test('a detail page marks its section in the navigation', async ({ page }) => {
    await page.goto('/sectors/saas');
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sectors' })).toHaveAttribute(
      'aria-current',
      'true',
    );
  });

  test('the logo links home and the hamburger is hidden', async ({ page }) => {
    await page.goto('/blog');
    await expect(page.locator('header a[href="/"]').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
    await expect(page.getByRole('banner').getByRole('button', { name: 'Get Started' })).toBeVisible();
  });

  test('stays at the top and its shadow grows only past 10 px of scroll', async ({ page }) => {
    await page.goto('/');
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

test.describe('header on a phone', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the hamburger toggles the menu and reports its state', async ({ page }) => {
    await page.goto('/');
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

  test('choosing a link closes the menu and navigates', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Blog' }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeHidden();
  });

  test('Get Started in the menu opens the contact dialog and closes the menu', async ({ page }) => {
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Menu' });
    await toggle.click();
    await page.getByRole('navigation', { name: 'Mobile' }).getByRole('button', { name: 'Get Started' }).click();
    await expect(page.getByRole('dialog', { name: 'Contact Us / Request Demo' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });
});

test('the skip link moves focus to the main content', async ({ page }) => {
  await page.goto('/sectors');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
});
