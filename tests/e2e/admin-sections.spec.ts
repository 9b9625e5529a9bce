import { expect, test, type Locator, type Page } from '@playwright/test';
import { logIn } from '../support/admin-login';
import { expectNoViolations } from '../support/axe';
import { E2E_STORE_DIR, uniqueEmail, withStoreAt } from '../support/e2e-env';
import { overflow } from '../support/overflow';

/**
 * The owner goes straight to the section they want: the menu lists the sections, each link is an
 * address that a reload, a new tab and the back button return to, on a laptop and on a phone.
 */
const SECTIONS = ['Leads', 'Bookings', 'Visits', 'Figures', 'Spam', 'Subscribers', 'Newsletter', 'Outbox', 'Delivery'];

const menu = (page: Page) => page.getByRole('navigation', { name: 'Sections' });

/** Waits for the dashboard's lists to be in, so that nothing above a section grows any more. */
async function dashboardShown(page: Page) {
  await expect(page.getByRole('heading', { name: /^Leads \(/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Spam \(/ })).toBeVisible();
}

/** The section's top is at the top of the screen, below `under` (the admin page's bar). */
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

  test('the menu in the bar lists the sections, Leads first; its links are addresses reload and back return to', async ({
    page,
    context,
  }) => {
    await logIn(page);
    await dashboardShown(page);
    const header = page.getByRole('banner');
    const links = menu(page).getByRole('link');
    await expect(links).toHaveText(SECTIONS);
    await expect(menu(page).getByRole('link', { name: 'Leads' })).toHaveAttribute('aria-current', 'true');
    await expect(menu(page).getByRole('button')).toBeHidden();
    await expect(header.getByRole('link', { name: 'View site' })).toHaveAttribute('href', '/');

    // The Visits section is there, with its ranges; 30 days shown first.
    const visits = page.getByRole('region', { name: 'Visits', exact: true });
    await expect(visits.getByRole('heading', { name: 'Visits', exact: true })).toBeVisible();
    const ranges = visits.getByRole('group', { name: 'Range' }).getByRole('button');
    await expect(ranges).toHaveText(['7 days', '30 days', '12 months']);
    await expect(ranges.nth(1)).toHaveAttribute('aria-pressed', 'true');
    await ranges.nth(0).click();
    await expect(ranges.nth(0)).toHaveAttribute('aria-pressed', 'true');
    await expect(ranges.nth(1)).toHaveAttribute('aria-pressed', 'false');

    await menu(page).getByRole('link', { name: 'Visits' }).click();
    await expect(page).toHaveURL(/#visits$/);
    await expectAtTop(page, 'visits', header);
    await expect(menu(page).getByRole('link', { name: 'Visits' })).toHaveAttribute('aria-current', 'true');
    await menu(page).getByRole('link', { name: 'Leads' }).click();
    await expect(page).toHaveURL(/\/admin\/insights#leads$/);
    await expectAtTop(page, 'leads', header);
    await expect(menu(page).getByRole('link', { name: 'Leads' })).toHaveAttribute('aria-current', 'true');
    // The menu stays in view in the bar.
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

  test('a lead with a long unbroken name wraps in its card, and the card keeps its status, note and Delete in view', async ({
    page,
  }) => {
    const email = uniqueEmail('wide-name');
    // 70 letters with no break opportunity: a line can only fall inside the word.
    const name = `Hubert ${'Wolfeschlegelsteinhausenbergerdorff'.repeat(2)}`;
    await withStoreAt(E2E_STORE_DIR, (store) =>
      store.createLead({ name, email, source: 'contact_form', notes: 'A name no line break can fall in.' }, new Date()),
    );
    await logIn(page);
    await dashboardShown(page);
    const leads = page.locator('section[aria-labelledby="leads-title"]');
    await leads.getByRole('searchbox', { name: 'Search leads' }).fill(email);
    const card = leads.getByRole('article', { name: new RegExp(name) });
    await expect(card).toBeVisible();
    // The name wraps in the card's first column instead of widening it by the whole string.
    const { heading, box } = await card.evaluate((article) => ({
      heading: article.querySelector('h4')?.getBoundingClientRect().width ?? 0,
      box: article.getBoundingClientRect().width,
    }));
    expect(heading, "the name's width").toBeLessThan(box);
    for (const control of [
      card.getByRole('group', { name: `Status of ${name}` }),
      card.getByLabel('Private note'),
      card.getByRole('button', { name: `Delete ${name} <${email}>` }),
    ])
      await expect(control).toBeInViewport();
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
    // The link to the site, which the phone's bar has no room for, is in the list.
    await expect(bar.getByRole('link')).toHaveText([...SECTIONS, 'View site']);
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
    // The bar stays at the top, and the section's heading below it.
    await expect(toggle).toBeInViewport({ ratio: 1 });
    await expectAtTop(page, 'leads', bar);

    await toggle.click();
    await bar.getByRole('link', { name: 'Subscribers' }).click();
    await expect(page).toHaveURL(/#subscribers$/);
    await expectAtTop(page, 'subscribers', bar);
    await page.goBack();
    await expect(page).toHaveURL(/#leads$/);
    await expectAtTop(page, 'leads', bar);

    const after = await overflow(page, width);
    expect(after.causes, 'what sticks out of the dashboard').toEqual([]);
    expect(after.scrollWidth).toBeLessThanOrEqual(width);
  });
});
