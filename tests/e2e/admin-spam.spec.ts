import { expect, test, type Page } from '@playwright/test';
import type { Store } from '../support/stores';
import type { SiteServer } from '../../scripts/harness/site-server.ts';
import { expectNoViolations } from '../support/axe';
import { withStoreAt } from '../support/e2e-env';
import { overflow } from '../support/overflow';
import { logIn } from '../support/admin-login';
import { ownStoreFolder, startServerAt, stopServerAt } from '../support/own-server';

/**
 * The owner looks through what was held as spam, finds a real message among it and says "Not
 * spam": the lead joins the leads and the team's e-mail goes out. The spec has a store of its own,
 * seeded here with two held leads, an ordinary one whose content could not be checked, and what
 * the honeypot and the proof of work refused, and a server of its own (no mail settings, so the
 * e-mails go to the local outbox folder).
 */
const WIDTH = 375;
const HELD = {
  name: 'Maximiliane Wolkenstein-Oberhollenzer',
  email: 'maximiliane.wolkenstein-oberhollenzer@a-rather-long-company-domain.example.com',
  company: 'Wolkenstein Hausverwaltung',
  notes: `Please call me about automating our rent reminders: https://example.com/${'a-long-path-segment-'.repeat(8)}`,
};
const OTHER = { name: 'Spam Bot', email: 'bot@spam.example', notes: 'Cheap pills, best prices, click here' };
const UNCHECKED = { name: 'Grace Hopper', email: 'grace@example.com' };

test.describe.configure({ mode: 'serial', timeout: 60_000 });

let folder = '';
let server: SiteServer | undefined;

/** Runs something against the spec's store, closing it afterwards. */
const withStore = <T>(work: (store: Store) => Promise<T>) => withStoreAt(folder, work);

test.beforeAll(async () => {
  folder = ownStoreFolder('admin-spam');
  const now = Date.now();
  await withStore(async (store) => {
    await store.createLead(
      {
        ...UNCHECKED,
        source: 'zoho_guide',
        contentCheck: { service: 'akismet', verdict: 'unchecked', error: 'timed out after 1.5 s' },
      },
      new Date(now - 3_600_000),
    );
    await store.createLead(
      {
        ...OTHER,
        source: 'contact_form',
        spam: { reasons: ['Akismet: spam', '7 links in the message (at most 3 allowed)'] },
        contentCheck: { service: 'akismet', verdict: 'spam' },
      },
      new Date(now - 120_000),
    );
    await store.createLead(
      {
        ...HELD,
        source: 'contact_form',
        page: '/contact',
        attribution: { utm_source: 'linkedin', utm_medium: 'social', utm_campaign: 'autumn' },
        spam: { reasons: ['Akismet: spam'] },
        contentCheck: { service: 'akismet', verdict: 'spam' },
      },
      new Date(now - 60_000),
    );
    await store.recordHoneypot('leads-create', new Date(now));
    for (let index = 0; index < 2; index += 1)
      await store.recordChallengeFailure('newsletter-subscribe', new Date(now));
  });
  server = await startServerAt(folder);
});

test.afterAll(async () => {
  await stopServerAt(server, folder);
});

async function expectNoSidewaysScroll(page: Page, where: string) {
  const { causes } = await overflow(page, WIDTH);
  expect(causes, `what sticks out ${where}`).toEqual([]);
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement?.scrollWidth ?? Number.POSITIVE_INFINITY,
    innerWidth: window.innerWidth,
  }));
  expect(innerWidth, `the window's width ${where}`).toBe(WIDTH);
  expect(scrollWidth, `the page's width ${where}`).toBeLessThanOrEqual(innerWidth);
}

/** A figure of the Spam section: its total, from the definition after its term. */
const figure = (page: Page, term: string) =>
  page.getByRole('term').filter({ hasText: term }).locator('xpath=following-sibling::dd[1]');

test.describe(`on a ${WIDTH} px phone`, () => {
  test.use({ viewport: { width: WIDTH, height: 740 }, isMobile: true, hasTouch: true });

  test('the owner reads the held leads and says "Not spam" to one: it joins the leads and its e-mail goes out', async ({
    page,
  }) => {
    await logIn(page, server?.origin);
    const spam = page.getByRole('region', { name: /^Spam/ });
    await expect(spam.getByRole('heading', { name: 'Spam (2 held)' })).toBeVisible();
    await expect(figure(page, 'Caught by the honeypot')).toHaveText('1');
    await expect(figure(page, 'Refused for their proof of work')).toHaveText('2');
    await expect(spam).toContainText('Footer newsletter sign-ups');

    const cards = spam.getByRole('list', { name: 'Held as spam' }).locator(':scope > li');
    await expect(cards).toHaveCount(2);
    const held = cards.first();
    for (const text of [HELD.name, HELD.email, HELD.company, HELD.notes, 'Page: /contact', 'Akismet: spam'])
      await expect(held).toContainText(text);
    await expect(cards.nth(1)).toContainText('7 links in the message (at most 3 allowed)');
    // Only the ordinary lead is among the leads, with a word that its content was not checked.
    const leads = page.getByRole('region', { name: /^Leads/ });
    await expect(leads.getByRole('heading', { name: 'Leads (1 new of 1)' })).toBeVisible();
    await expect(leads).toContainText('Akismet: not checked (timed out after 1.5 s)');
    await expect(leads).not.toContainText(HELD.name);
    await expectNoSidewaysScroll(page, 'with the held leads shown');
    await expectNoViolations(page);

    await held.getByRole('button', { name: `Not spam: ${HELD.name}` }).click();
    await expect(page.getByRole('region', { name: 'Notification' })).toContainText('Moved to the leads');
    await expect(spam.getByRole('heading', { name: 'Spam (1 held)' })).toBeVisible();
    await expect(cards).toHaveCount(1);
    await expect(leads.getByRole('heading', { name: 'Leads (2 new of 2)' })).toBeVisible();
    const released = leads.getByRole('list', { name: 'Leads' }).locator(':scope > li').filter({ hasText: HELD.name });
    await expect(released).toContainText('Released from spam');
    // The team's e-mail is written to the local outbox folder right after the answer (the list
    // may have been read a moment before that).
    await released.getByText(/^E-mails and webhook/).click();
    await expect(released.getByText(/^Team notifi/)).toBeVisible();
    await expect.poll(() => withStore((store) => store.countOutbox())).toEqual({ total: 1, pending: 0, dead: 0 });

    const outbox = page.getByRole('region', { name: /^Outbox/ });
    await outbox.getByRole('button', { name: 'Show the outbox' }).click();
    const notification = outbox
      .getByRole('list', { name: 'Outbox' })
      .locator(':scope > li')
      .filter({ hasText: 'Team notification' });
    await expect(notification).toHaveCount(1);
    await expect(notification).toContainText(`New lead: ${HELD.name} (${HELD.company})`);
    await expectNoSidewaysScroll(page, 'after the release, with the outbox open');
  });
});

test.describe('on a laptop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the held leads are a table with the reasons and plain form names; releasing the last one leaves the empty state', async ({
    page,
  }) => {
    await logIn(page, server?.origin);
    const spam = page.getByRole('region', { name: /^Spam/ });
    const table = spam.getByRole('table');
    await expect(table.getByRole('columnheader')).toHaveText([
      'Date',
      'Name',
      'E-mail',
      'Company',
      'Message',
      'Form',
      'Why',
      'Actions',
    ]);
    const row = table.getByRole('row', { name: new RegExp(OTHER.name) });
    await expect(row.getByRole('cell', { name: /^Akismet: spam/ })).toContainText('7 links in the message');
    await expect(row.getByRole('cell', { name: /^Contact form/ })).toBeVisible();
    await expectNoViolations(page);

    await row.getByRole('button', { name: `Not spam: ${OTHER.name}` }).click();
    await expect(spam.getByRole('heading', { name: 'Spam (0 held)' })).toBeVisible();
    await expect(spam.getByText('No spam held.')).toBeVisible();
    await expect(
      page.getByRole('region', { name: /^Leads \(/ }).getByRole('article', { name: new RegExp(OTHER.name) }),
    ).toContainText('Released from spam');
  });

  test('the owner deletes a lead after saying yes to the question: it leaves the list, the counts and the outbox', async ({
    page,
  }) => {
    await logIn(page, server?.origin);
    const leads = page.getByRole('region', { name: /^Leads \(/ });
    await expect(leads.getByRole('heading', { name: 'Leads (3 new of 3)' })).toBeVisible();
    const row = leads.getByRole('article', { name: new RegExp(OTHER.name) });
    // Its team notification went out on release; it is in the outbox until the lead goes.
    await expect.poll(() => withStore((store) => store.countOutbox())).toMatchObject({ total: 2, pending: 0 });
    const button = row.getByRole('button', { name: `Delete ${OTHER.name} <${OTHER.email}>` });

    const questions: string[] = [];
    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.dismiss();
    });
    await button.click();
    await expect.poll(() => questions).toHaveLength(1);
    expect(questions[0]).toBe(
      `Delete ${OTHER.name} <${OTHER.email}>? This erases the lead, its message and its e-mails and cannot be undone.`,
    );
    await expect(row).toBeVisible();
    expect(await withStore((store) => store.countLeads())).toBe(3);

    page.once('dialog', (dialog) => void dialog.accept());
    await button.click();
    await expect(page.getByRole('region', { name: 'Notification' })).toContainText('Lead deleted');
    await expect(leads.getByRole('heading', { name: 'Leads (2 new of 2)' })).toBeVisible();
    await expect(row).toHaveCount(0);
    expect(await withStore((store) => store.countLeads())).toBe(2);
    expect(await withStore((store) => store.countOutbox())).toMatchObject({ total: 1 });
    // The dashboard's total counts it no more (the all-time one, under Figures; Visits has a total of leads too).
    await expect(
      page
        .locator('#figures')
        .getByRole('term')
        .filter({ hasText: /^Leads$/ })
        .locator('xpath=following-sibling::dd[1]'),
    ).toHaveText('2');
  });
});
