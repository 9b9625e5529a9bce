import { expect, test } from '@playwright/test';

const CASES = [
  { path: '/sectors/no-such-sector', heading: 'Sector Not Found', back: '/sectors' },
  { path: '/mini-apps/no-such-app', heading: 'Mini-App Not Found', back: '/mini-apps' },
  { path: '/blog/no-such-post', heading: 'Blog Post Not Found', back: '/blog' },
  { path: '/newsletter/no-such-issue', heading: 'Newsletter Issue Not Found', back: '/newsletter' },
  { path: '/no/such/page', heading: '404 Page Not Found', back: '/sectors' },
];

for (const { path, heading, back } of CASES) {
  test(`${path} answers 404 with "${heading}", a way back and noindex`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
    await expect(page.locator('link[rel="canonical"]')).toHaveCount(0);
    await expect(page.getByRole('main').locator(`a[href="${back}"]`)).toBeVisible();
  });
}
