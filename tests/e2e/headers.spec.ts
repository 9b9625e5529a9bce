import { expect, test } from '@playwright/test';

const STATIC_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
};

test('pages carry the security headers and a frame-ancestors policy', async ({ request }) => {
  const response = await request.get('/sectors');
  const headers = response.headers();
  expect(headers).toMatchObject(STATIC_HEADERS);
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['strict-transport-security']).toMatch(/max-age=\d+/);
  expect(headers['permissions-policy']).toContain('camera=()');
});

test('fingerprinted assets are cached for a year, immutably', async ({ request, page }) => {
  await page.goto('/');
  const stylesheet = await page.locator('link[rel="stylesheet"]').first().getAttribute('href');
  expect(stylesheet).toMatch(/^\/_astro\//);
  const response = await request.get(stylesheet ?? '');
  expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(response.headers()['x-content-type-options']).toBe('nosniff');
});

test('the admin page is never cached or indexed', async ({ request }) => {
  const headers = (await request.get('/admin/insights')).headers();
  expect(headers['x-robots-tag']).toContain('noindex');
  expect(headers['cache-control']).toBe('no-store');
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
});

test('function responses set their own security headers', async ({ request }) => {
  const headers = (await request.get('/api/sectors')).headers();
  expect(headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' });
  expect(headers['content-security-policy']).toContain("default-src 'none'");
});
