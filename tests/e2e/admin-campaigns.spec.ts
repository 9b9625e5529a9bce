import { expect, test, type Page } from '@playwright/test';
import type { SiteServer } from '../../scripts/harness/site-server.ts';
import { expectNoViolations } from '../support/axe';
import { CAMPAIGNS, seedCampaigns } from '../support/campaigns';
import { withStoreAt } from '../support/e2e-env';
import { overflow } from '../support/overflow';
import { logIn } from '../support/admin-login';
import type { CampaignRow } from '../../src/shared/api-responses';
import { ownStoreFolder, startServerAt, stopServerAt } from '../support/own-server';

/**
 * The owner reads which campaigns brought leads and sign-ups: the 20 that brought most, the
 * others in one row, and all of them page by page with a search. The spec has a store of its own,
 * seeded with 33 campaigns, four of them with values of 100 characters and no place to break a
 * line (the most the store keeps), and a server of its own.
 */
const WIDTH = 375;
const long = (name: string, index: number) => `${name}-${index}-`.padEnd(100, 'x');
const longRow = (index: number, leads: number, subscribers: number): CampaignRow => ({
  source: long('source', index),
  medium: long('medium', index),
  campaign: long('campaign', index),
  leads,
  subscribers,
});
/** The first of them brings most leads; three are among the others. */
const ROWS = [longRow(0, 5, 0), ...CAMPAIGNS, longRow(1, 0, 1), longRow(2, 0, 1), longRow(3, 0, 1)];

test.describe.configure({ mode: 'serial', timeout: 60_000 });

let folder = '';
let server: SiteServer | undefined;

test.beforeAll(async () => {
  folder = ownStoreFolder('admin-campaigns');
  await withStoreAt(folder, (store) => seedCampaigns(store, ROWS, new Date()));
  server = await startServerAt(folder);
});

test.afterAll(async () => {
  await stopServerAt(server, folder);
});

const campaignsSection = (page: Page) => page.getByRole('region', { name: 'By campaign' });

test.describe('on a laptop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the table shows the 20 campaigns with most leads and a row for the others; all of them page by page and by search', async ({
    page,
  }) => {
    await logIn(page, server?.origin);
    const section = campaignsSection(page);
    const table = section.getByRole('region', { name: 'Leads and newsletter sign-ups by campaign' });
    const rows = table.getByRole('row');
    // A header row, 20 campaigns and the others.
    await expect(rows).toHaveCount(22);
    await expect(rows.nth(1)).toContainText(long('campaign', 0));
    await expect(rows.nth(2)).toHaveAccessibleName('alpha LinkedIn social 3 0');
    await expect(rows.last()).toHaveAccessibleName('Other campaigns (13) 9 4');
    await expectNoViolations(page);

    const show = section.getByRole('button', { name: 'Show all campaigns' });
    await expect(show).toHaveAttribute('aria-expanded', 'false');
    await show.click();
    await expect(section.getByRole('button', { name: 'Hide all campaigns' })).toHaveAttribute('aria-expanded', 'true');
    await expect(section.getByRole('status')).toHaveText('33 campaigns');
    const all = section.getByRole('region', { name: 'All campaigns' });
    await expect(all.getByRole('row')).toHaveCount(21);
    const pages = section.getByRole('navigation', { name: 'All campaigns pages' });
    await expect(pages).toContainText('Page 1 of 2');
    await pages.getByRole('button', { name: 'Next' }).click();
    await expect(pages).toContainText('Page 2 of 2');
    await expect(all.getByRole('row')).toHaveCount(14);
    await expect(all).toContainText(long('campaign', 3));
    await expect(all.getByRole('row').last()).toHaveAccessibleName('zulu Podcast audio 0 1');

    const search = section.getByRole('search', { name: 'Campaigns' });
    await search.getByLabel('Search by source, medium or campaign').fill('FILLER-2');
    await search.getByRole('button', { name: 'Search' }).click();
    await expect(section.getByRole('status')).toHaveText('5 campaigns match “FILLER-2”');
    await expect(all.getByRole('row')).toHaveCount(6);
    await expect(all.getByRole('row').nth(1)).toHaveAccessibleName('filler-20 partner-site referral 1 0');
    await expect(pages).toHaveCount(0);

    await search.getByLabel('Search by source, medium or campaign').fill('medium-2-');
    await search.getByRole('button', { name: 'Search' }).click();
    await expect(section.getByRole('status')).toHaveText('1 campaign matches “medium-2-”');
    await search.getByLabel('Search by source, medium or campaign').fill('no such campaign');
    await search.getByRole('button', { name: 'Search' }).click();
    await expect(section.getByText('No campaign’s source, medium or name holds “no such campaign”.')).toBeVisible();
    await expectNoViolations(page);
  });
});

test.describe(`on a ${WIDTH} px phone`, () => {
  test.use({ viewport: { width: WIDTH, height: 740 }, isMobile: true, hasTouch: true });

  /** Nothing pushes the page sideways: it is exactly as wide as the screen. */
  async function expectFits(page: Page, where: string) {
    const { causes } = await overflow(page, WIDTH);
    expect(causes, `what sticks out ${where}`).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `the page's width ${where}`).toBe(WIDTH);
  }

  test('campaigns with 100-character values fit the screen, in the table and in the list of all', async ({ page }) => {
    await logIn(page, server?.origin);
    const section = campaignsSection(page);
    const cards = section.getByRole('list', { name: 'Leads and newsletter sign-ups by campaign' });
    await expect(cards.getByRole('listitem')).toHaveCount(21);
    await expect(cards.getByRole('listitem').last()).toContainText('Other campaigns (13)');
    await expectFits(page, 'with the top campaigns');

    await section.getByRole('button', { name: 'Show all campaigns' }).click();
    const pages = section.getByRole('navigation', { name: 'All campaigns pages' });
    await pages.getByRole('button', { name: 'Next' }).click();
    await expect(pages).toContainText('Page 2 of 2');
    const all = section.getByRole('list', { name: 'All campaigns' });
    await expect(all).toContainText(long('medium', 3));
    await expectFits(page, 'with all campaigns, page 2');
    await expectNoViolations(page);
  });
});
