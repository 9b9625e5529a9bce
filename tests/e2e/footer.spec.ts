import { expect, test } from '@playwright/test';

test.describe('footer', () => {
  test('links the five sectors, the resources, the privacy policy, LinkedIn and the past issues', async ({ page }) => {
    await page.goto('/contact');
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('navigation', { name: 'Solutions' }).getByRole('link')).toHaveText([
      'Property Management',
      'Creative Agencies',
      'Restaurant Management',
      'SaaS/B2B',
      'Google/Zoho SMEs',
    ]);
    const sectorHrefs = await footer
      .getByRole('navigation', { name: 'Solutions' })
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(sectorHrefs).toEqual([
      '/sectors/property',
      '/sectors/creative',
      '/sectors/restaurant',
      '/sectors/saas',
      '/sectors/google-zoho',
    ]);
    await expect(footer.getByRole('navigation', { name: 'Resources' }).getByRole('link')).toHaveText([
      'Mini-Apps',
      'Blog',
      'Contact',
    ]);
    await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy-policy');
    await expect(footer.getByRole('link', { name: 'LinkedIn' })).toHaveAttribute(
      'href',
      /^https:\/\/www\.linkedin\.com\//,
    );
    await expect(footer.getByRole('heading', { name: 'Newsletter' })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Past issues' })).toHaveAttribute('href', '/newsletter');
  });

  test("shows the visitor's current year even when the build is older", async ({ page }) => {
    await page.clock.setFixedTime(new Date('2031-01-01T10:00:00Z'));
    await page.goto('/');
    await expect(page.getByRole('contentinfo').getByText(/© 2031 /)).toBeVisible();
  });
});
