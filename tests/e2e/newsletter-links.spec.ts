import { expect, test, type Page } from '@playwright/test';
import { NEWSLETTER_PATHS } from '../../src/shared/pages';

/** Every request the page sends to the newsletter endpoints. */
function newsletterPosts(page: Page): string[] {
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/newsletter/')) posts.push(`${request.method()} ${request.url()}`);
  });
  return posts;
}

test.describe('a newsletter link opened without its token', () => {
  test('the confirm page says the link is not valid, moves focus to it and sends nothing', async ({ page }) => {
    const posts = newsletterPosts(page);
    await page.goto(NEWSLETTER_PATHS.confirm);
    await expect(page.getByRole('heading', { level: 1, name: 'Confirm your subscription' })).toBeVisible();
    const alert = page.getByRole('alert');
    await expect(alert.getByRole('heading', { name: 'This confirmation link is not valid' })).toBeFocused();
    await expect(alert).toContainText('Open the link from the e-mail again');
    expect(posts).toEqual([]);
  });

  test('the unsubscribe page waits for the button, then says the link is not valid and sends nothing', async ({
    page,
  }) => {
    const posts = newsletterPosts(page);
    await page.goto(NEWSLETTER_PATHS.unsubscribe);
    await expect(page.getByRole('heading', { level: 1, name: 'Unsubscribe from the newsletter' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    const alert = page.getByRole('alert');
    await expect(alert.getByRole('heading', { name: 'This unsubscribe link is not valid' })).toBeFocused();
    await expect(alert.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);
    expect(posts).toEqual([]);
  });
});
