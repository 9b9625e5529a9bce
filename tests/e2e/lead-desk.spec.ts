import { expect, test, type Page } from '@playwright/test';
import { logIn } from '../support/admin-login';
import { expectNoViolations } from '../support/axe';
import { E2E_STORE_DIR, storedLead, uniqueEmail, withStoreAt } from '../support/e2e-env';
import { overflow } from '../support/overflow';

/**
 * The owner works leads from the admin page, a page of its own: on a phone they find a lead, mark
 * it and keep a note; on a desktop every table fits its panel.
 */

/** A lead of its own for a test, under a company name no other test uses. */
async function seedLead(label: string) {
  const email = uniqueEmail(label);
  const company = `Desk ${label} ${email.slice(0, email.indexOf('@')).slice(-8)} Ltd`;
  const name = 'Priya Natarajan';
  await withStoreAt(E2E_STORE_DIR, (store) =>
    store.createLead(
      { name, email, company, source: 'contact_form', notes: 'Could you automate our invoicing?\nWe use Xero.' },
      new Date(),
    ),
  );
  return { email, company, name };
}

const leadsSection = (page: Page) => page.locator('section[aria-labelledby="leads-title"]');

/** Searches the leads as the owner types, and answers the lead's card once it is the only one shown. */
async function find(page: Page, company: string) {
  const leads = leadsSection(page);
  await leads.getByRole('searchbox', { name: 'Search leads' }).fill(company);
  const card = leads.getByRole('article', { name: new RegExp(company) });
  await expect(leads.getByRole('article')).toHaveCount(1);
  await expect(card).toBeVisible();
  return card;
}

test.describe('on a 375 px phone', () => {
  const width = 375;
  test.use({ viewport: { width, height: 740 }, isMobile: true, hasTouch: true });

  test('the owner finds a lead by its company, marks it Replied, keeps a note, and both outlive a reload', async ({
    page,
  }) => {
    const { email, company, name } = await seedLead('phone');
    const note = 'Called back on Tuesday; wants a quote for Xero to HubSpot.';
    await logIn(page);
    // The list opens on New, with how many are New in sight.
    const leads = leadsSection(page);
    await expect(leads.getByRole('heading', { name: /^Leads \(\d[\d,]* new of \d/ })).toBeVisible();
    await expect(leads.getByRole('button', { name: /^New \d/ })).toHaveAttribute('aria-pressed', 'true');

    const card = await find(page, company);
    await expect(card).toContainText('Contact form');
    await expect(card).toContainText('Could you automate our invoicing?');
    // Reply opens the owner's mail program on a message to the prospect, quoting theirs.
    const reply = new URL((await card.getByRole('link', { name: `Reply to ${name}` }).getAttribute('href')) ?? '');
    expect(reply.protocol).toBe('mailto:');
    expect(decodeURIComponent(reply.pathname)).toBe(email);
    expect(reply.searchParams.get('subject')).toMatch(/^Re: your enquiry to /);
    expect(reply.searchParams.get('body')).toContain('> Could you automate our invoicing?\r\n> We use Xero.');

    const status = card.getByRole('group', { name: `Status of ${name}` });
    await status.getByRole('button', { name: 'Replied' }).click();
    await expect(status.getByRole('button', { name: 'Replied' })).toHaveAttribute('aria-pressed', 'true');
    await expect(status.getByRole('button', { name: 'New' })).toHaveAttribute('aria-pressed', 'false');
    await card.getByLabel('Private note').fill(note);
    await card.getByRole('button', { name: 'Save note' }).click();
    await expect(card.getByRole('status')).toHaveText('Note saved');
    expect((await overflow(page, width)).causes, 'what sticks out of the page').toEqual([]);
    // Stored, as the server keeps it.
    await expect.poll(async () => (await storedLead(email))?.status).toBe('replied');
    expect((await storedLead(email))?.note).toBe(note);

    await page.reload();
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
    // It has an answer now: no longer among the New leads, and there under Replied.
    await leadsSection(page)
      .getByRole('button', { name: /^Replied \d/ })
      .click();
    const again = await find(page, company);
    await expect(
      again.getByRole('group', { name: `Status of ${name}` }).getByRole('button', { name: 'Replied' }),
    ).toHaveAttribute('aria-pressed', 'true');
    await expect(again.getByLabel('Private note')).toHaveValue(note);
    const { causes, scrollWidth } = await overflow(page, width);
    expect(causes, 'what sticks out of the page').toEqual([]);
    expect(scrollWidth).toBeLessThanOrEqual(width);
    await expectNoViolations(page);
  });
});

test.describe('on a 1440 px desktop', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("the admin page is the owner's own, and no table is wider than its panel", async ({ page }) => {
    await seedLead('desktop');
    await logIn(page);
    await expect(leadsSection(page).getByRole('article').first()).toBeVisible();
    await expect(page.getByRole('heading', { name: /^Spam \(/ })).toBeVisible();
    // None of the public site's parts: its navigation, Get Started, footer and newsletter form.
    await expect(page.getByRole('contentinfo')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Get Started' })).toHaveCount(0);
    await expect(page.getByRole('form', { name: 'Newsletter signup' })).toHaveCount(0);
    // One bar: the site's name, the section menu, View site and Logout.
    const bar = page.getByRole('banner');
    await expect(bar.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Leads' })).toBeVisible();
    await expect(bar.getByRole('link', { name: 'View site' })).toBeVisible();
    await expect(bar.getByRole('button', { name: 'Logout' })).toBeVisible();

    const tables = page.locator('main table');
    expect(await tables.count(), 'tables on the page').toBeGreaterThan(0);
    const wider = await tables.evaluateAll((all) =>
      all.flatMap((table) => {
        // The panel: the nearest box around the table that would scroll or clip it.
        let panel = table.parentElement;
        while (panel && getComputedStyle(panel).overflowX === 'visible') panel = panel.parentElement;
        const box = panel ?? document.documentElement;
        const label = table.closest('[aria-label]')?.getAttribute('aria-label') ?? table.id;
        return table.getBoundingClientRect().width > box.clientWidth + 0.5
          ? [`${label}: ${Math.round(table.getBoundingClientRect().width)} px in ${box.clientWidth} px`]
          : [];
      }),
    );
    expect(wider, 'tables wider than their panel').toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1440);
    await expectNoViolations(page);
  });
});
