/**
 * A reader finds the past issues of the newsletter from the footer, reads one, follows a post it
 * features, and subscribes from the issue's page.
 */
import { expect, test } from '@playwright/test';
import { storedSubscriber, uniqueEmail } from '../support/e2e-env';

/** The example issue of content/newsletter. */
const ISSUE = {
  path: '/newsletter/three-automations-before-the-new-year',
  subject: 'Three small automations to set up before the new year',
  featured: ['/blog/automate-invoicing-small-business', '/blog/automated-appointment-scheduling'],
};

test.describe('past issues of the newsletter', () => {
  test('the footer leads to the list, which shows the issue and opens it', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Past issues' }).click();
    await expect(page).toHaveURL(/\/newsletter$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Past issues');
    const card = page.getByRole('region', { name: 'Issues' }).getByRole('article').filter({ hasText: ISSUE.subject });
    await expect(card).toHaveCount(1);
    await expect(card.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}$/);
    await card.getByRole('link', { name: ISSUE.subject }).click();
    await expect(page).toHaveURL(new RegExp(`${ISSUE.path}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(ISSUE.subject);
  });

  test('an issue shows its subject, date and letter, its featured posts as cards, and the way back', async ({
    page,
  }) => {
    await page.goto(ISSUE.path);
    await expect(page).toHaveTitle(new RegExp(`^${ISSUE.subject} · `));
    await expect(page.getByText(/^Sent [A-Z][a-z]+ \d{1,2}, \d{4}$/)).toBeVisible();
    await expect(
      page.getByRole('heading', { level: 2, name: '1. Get invoices paid before the holidays, not after' }),
    ).toBeVisible();
    const featured = page.getByRole('region', { name: 'Featured in this issue' }).getByRole('article');
    await expect(featured).toHaveCount(ISSUE.featured.length);
    expect(
      await featured.getByRole('link').evaluateAll((links) => links.map((link) => link.getAttribute('href'))),
    ).toEqual(ISSUE.featured);
    // Each card shows its post's cover (decorative: the title says it all).
    await expect(featured.locator('img')).toHaveCount(ISSUE.featured.length);
    await expect(featured.locator('img').first()).toBeVisible();

    await featured.first().getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`${ISSUE.featured[0]}$`));
    await page.goBack();

    await page.getByRole('main').getByRole('link', { name: 'All issues' }).last().click();
    await expect(page).toHaveURL(/\/newsletter$/);
  });

  test("subscribing from an issue's page stores the subscriber", async ({ page }) => {
    const email = uniqueEmail('issue');
    await page.goto(ISSUE.path);
    const form = page.getByRole('form', { name: 'Newsletter', exact: true });
    await form.getByLabel('First name').fill('Robot');
    await form.getByLabel('Last name').fill('Issue');
    await form.getByLabel('E-mail').fill(email);
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(
      page.getByRole('region', { name: 'Notification' }).getByText('Subscribed successfully!', { exact: true }),
    ).toBeVisible();
    expect(await storedSubscriber(email)).toMatchObject({ email, sources: ['newsletter_footer'] });
  });
});
