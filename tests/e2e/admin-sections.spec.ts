import { expect, test, type Locator, type Page } from '@playwright/test';
import { logIn } from '../support/admin-login';
import { expectNoViolations } from '../support/axe';
import { E2E_STORE_DIR, uniqueEmail, withStoreAt } from '../support/e2e-env';
import { overflow } from '../support/overflow';

/**
 * The owner goes straight to the section they want: the menu lists the sections, each link is an
 * address that a reload, a new tab and the back button return to, on a laptop and on a phone.
 */
const SECTIONS = ['Visits', 'Leads', 'Figures', 'Campaigns', 'Spam', 'Subscribers', 'Newsletter', 'Outbox', 'Delivery'];

const menu = (page: Page) => page.getByRole('navigation', { name: 'Sections' });

/** Waits for the dashboard's lists to be in, so that nothing above a section grows any more. */
async function dashboardShown(page: Page) {
  await expect(page.getByRole('heading', { name: /^Leads \(/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Spam \(/ })).toBeVisible();
}

/** The section's top is at the top of the screen, below `under` (the site's header, or the phone's menu bar too). */
async function expectAtTop(page: Page, id: string, under: Locator) {
  await expect(async () => {
    const bottom = await under.evaluate((element) => element.getBoundingClientRect().bottom);
    const top = await page.locator(`#${id}`).evaluate((element) => element.getBoundingClientRect().top);
    expect(top, `#${id}'s top, below what covers the screen's top`).toBeGreaterThanOrEqual(bottom);
    expect(top, `#${id}'s top, near the screen's top`).toBeLessThan(bottom + 80);
  }).toPass();
}

test.describe('on a laptop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the menu lists the sections, Visits and Leads first; its links are addresses reload and back return to', async ({
    page,
    context,
  }) => {
    await logIn(page);
    await dashboardShown(page);
    const header = page.getByRole('banner');
    const links = menu(page).getByRole('link');
    await expect(links).toHaveText(SECTIONS);
    await expect(menu(page).getByRole('link', { name: 'Visits' })).toHaveAttribute('aria-current', 'true');
    await expect(menu(page).getByRole('button')).toBeHidden();

    // The Visits section is there, with its ranges; 30 days shown first.
    const visits = page.getByRole('region', { name: 'Visits', exact: true });
    await expect(visits.getByRole('heading', { name: 'Visits', exact: true })).toBeVisible();
    const ranges = visits.getByRole('group', { name: 'Range' }).getByRole('button');
    await expect(ranges).toHaveText(['7 days', '30 days', '12 months']);
    await expect(ranges.nth(1)).toHaveAttribute('aria-pressed', 'true');
    await ranges.nth(0).click();
    await expect(ranges.nth(0)).toHaveAttribute('aria-pressed', 'true');
    await expect(ranges.nth(1)).toHaveAttribute('aria-pressed', 'false');

    await menu(page).getByRole('link', { name: 'Leads' }).click();
    await expect(page).toHaveURL(/\/admin\/insights#leads$/);
    await expectAtTop(page, 'leads', header);
    await expect(menu(page).getByRole('link', { name: 'Leads' })).toHaveAttribute('aria-current', 'true');
    // The menu stays beside the sections.
    await expect(menu(page).getByRole('link', { name: 'Delivery' })).toBeInViewport();
    // No external dashboard is configured for these tests: no section, link or address for one.
    await expect(page.getByRole('region', { name: 'External dashboard' })).toHaveCount(0);
    await expect(page.locator('#external-dashboard')).toHaveCount(0);

    await menu(page).getByRole('link', { name: 'Subscribers' }).click();
    await expect(page).toHaveURL(/#subscribers$/);
    await expectAtTop(page, 'subscribers', header);
    await expect(menu(page).getByRole('link', { name: 'Subscribers' })).toHaveAttribute('aria-current', 'true');
    await expect(menu(page).getByRole('link', { name: 'Leads' })).not.toHaveAttribute('aria-current');
    await expectNoViolations(page);

    await page.goBack();
    await expect(page).toHaveURL(/#leads$/);
    await expectAtTop(page, 'leads', header);
    await expect(menu(page).getByRole('link', { name: 'Leads' })).toHaveAttribute('aria-current', 'true');

    await page.reload();
    await dashboardShown(page);
    await expectAtTop(page, 'leads', header);
    await expect(menu(page).getByRole('link', { name: 'Leads' })).toHaveAttribute('aria-current', 'true');

    // An address typed or opened in another tab leads to its section, once the dashboard is there.
    const other = await context.newPage();
    await other.goto('/admin/insights#newsletter');
    await dashboardShown(other);
    await expectAtTop(other, 'newsletter', other.getByRole('banner'));
    await expect(menu(other).getByRole('link', { name: 'Newsletter' })).toHaveAttribute('aria-current', 'true');
  });
});

test.describe('on a 1366 px laptop', () => {
  test.use({ viewport: { width: 1366, height: 900 } });

  test('a lead with a long unbroken name wraps in its column, and every row keeps Delete in view', async ({ page }) => {
    const email = uniqueEmail('wide-name');
    // 70 letters with no break opportunity: a line can only fall inside the word.
    const name = `Hubert ${'Wolfeschlegelsteinhausenbergerdorff'.repeat(2)}`;
    await withStoreAt(E2E_STORE_DIR, (store) =>
      store.createLead({ name, email, source: 'contact_form', notes: 'A name no line break can fall in.' }, new Date()),
    );
    await logIn(page);
    await dashboardShown(page);
    await menu(page).getByRole('link', { name: 'Leads' }).click();
    const table = page.locator('#leads').getByRole('region', { name: 'Leads', exact: true });
    await expect(table.getByRole('row').filter({ hasText: email })).toBeVisible();
    // The name wraps in its column instead of widening the table by the whole string.
    const nameWidth = await table
      .getByRole('cell', { name, exact: true })
      .evaluate((cell) => cell.getBoundingClientRect().width);
    expect(nameWidth, "the name's column").toBeLessThanOrEqual(256);
    // Whatever else the table holds, the row's Delete stays at the box's right edge, and the page
    // itself never scrolls sideways.
    await expect(table.getByRole('button', { name: `Delete ${name}` })).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);
  });
});

test.describe('on a 375 px phone', () => {
  const width = 375;
  test.use({ viewport: { width, height: 740 }, isMobile: true, hasTouch: true });

  test('the menu is a bar that opens the list, stays in view, and nothing sticks out sideways', async ({ page }) => {
    await logIn(page);
    await dashboardShown(page);
    const bar = menu(page);
    const toggle = bar.getByRole('button', { name: /^Sections/ });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(bar.getByRole('link')).toHaveCount(0);
    expect((await overflow(page, width)).causes, 'what sticks out of the dashboard').toEqual([]);

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(bar.getByRole('link')).toHaveText(SECTIONS);
    const { causes, scrollWidth } = await overflow(page, width);
    expect(causes, 'what sticks out with the menu open').toEqual([]);
    expect(scrollWidth).toBeLessThanOrEqual(width);
    await expectNoViolations(page);

    // Escape closes it, the focus back on its button.
    await page.keyboard.press('Escape');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toBeFocused();

    await toggle.click();
    await bar.getByRole('link', { name: 'Leads' }).click();
    await expect(page).toHaveURL(/#leads$/);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toHaveAccessibleName('Sections · Leads');
    // The bar stays under the site's header, and the section's heading below it.
    await expect(toggle).toBeInViewport({ ratio: 1 });
    await expectAtTop(page, 'leads', bar);

    await toggle.click();
    await bar.getByRole('link', { name: 'Outbox' }).click();
    await expect(page).toHaveURL(/#outbox$/);
    await expectAtTop(page, 'outbox', bar);
    await page.goBack();
    await expect(page).toHaveURL(/#leads$/);
    await expectAtTop(page, 'leads', bar);

    const after = await overflow(page, width);
    expect(after.causes, 'what sticks out of the dashboard').toEqual([]);
    expect(after.scrollWidth).toBeLessThanOrEqual(width);
  });
});
