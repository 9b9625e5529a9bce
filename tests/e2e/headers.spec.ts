import { expect, test } from '@playwright/test';
import { e2eOrigin, uniqueEmail } from '../support/e2e-env';
import { proofFrom } from '../support/proof-of-work';

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
  expect(headers['permissions-policy']).toContain('camera=()');
  expect(headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
  // Netlify sends its own on every custom domain; a second would be a duplicate browsers ignore.
  expect(headers['strict-transport-security']).toBeUndefined();
});

test('the CMS page lets its login pop-up answer it, and is never cached', async ({ request }) => {
  for (const url of ['/admin/cms/', '/admin/cms/config.yml']) {
    const headers = (await request.get(url)).headers();
    expect(headers['cross-origin-opener-policy'], url).toBe('same-origin-allow-popups');
    expect(headers['cache-control'], url).toBe('no-store');
    expect(headers['x-robots-tag'], url).toContain('noindex');
  }
});

test("the CMS's bundle is revalidated, not fetched again on every visit", async ({ request }) => {
  const response = await request.get('/admin/cms/decap/decap-cms.js');
  expect(response.status()).toBe(200);
  expect(response.headers()['cache-control']).not.toContain('no-store');
  expect(response.headers()['x-robots-tag']).toContain('noindex');
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

/** What every function answer carries, whatever its status (functions/_lib/platform/http.ts). */
const FUNCTION_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

test.describe('answers to a POST carry the security headers', () => {
  const json = { 'content-type': 'application/json' };
  const cases = [
    {
      label: 'a lead stored (201)',
      url: '/api/leads/create',
      status: 201,
      headers: json,
      data: async () => ({
        name: 'Header Check',
        email: uniqueEmail('headers'),
        source: 'contact_form',
        altcha: await proofFrom(e2eOrigin),
      }),
    },
    {
      label: 'a body that is not JSON (400)',
      url: '/api/subscribers',
      status: 400,
      headers: json,
      data: () => '{"email":',
    },
    {
      label: 'invalid fields (422)',
      url: '/api/newsletter/subscribe',
      status: 422,
      headers: json,
      data: () => ({ email: 'not-an-address', source: 'website_footer' }),
    },
    // Refused before the attempt is counted, so the run's admin tests keep their five tries.
    {
      label: 'an admin login that is not JSON (415)',
      url: '/api/admin/login',
      status: 415,
      headers: { 'content-type': 'text/plain' },
      data: () => 'password',
    },
  ];
  for (const { label, url, status, headers, data } of cases) {
    test(`POST ${url}: ${label}`, async ({ request }) => {
      const response = await request.post(url, { headers, data: await data() });
      expect(response.status()).toBe(status);
      expect(response.headers()).toMatchObject(FUNCTION_HEADERS);
    });
  }
});

test.describe('404 answers carry the security headers', () => {
  for (const [method, url, type] of [
    ['GET', '/no-such-page', 'text/html'],
    ['GET', '/blog/no-such-post', 'text/html'],
    ['GET', '/sectors/no-such-sector', 'text/html'],
    ['GET', '/mini-apps/no-such-app', 'text/html'],
    ['GET', '/api/no-such-endpoint', 'application/json'],
    ['POST', '/api/no-such-endpoint', 'application/json'],
  ] as const) {
    test(`${method} ${url}`, async ({ request }) => {
      const response = await request.fetch(url, { method, ...(method === 'POST' ? { data: {} } : {}) });
      expect(response.status()).toBe(404);
      const headers = response.headers();
      expect(headers['content-type']).toContain(type);
      expect(headers).toMatchObject(STATIC_HEADERS);
      expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(headers['permissions-policy']).toContain('camera=()');
    });
  }
});
