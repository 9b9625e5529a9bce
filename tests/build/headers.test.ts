/**
 * The headers the local production server sends, as Netlify would from netlify.toml and the
 * functions: security headers on pages, functions and 404s, and caching by kind of file.
 */
import { describe, expect, inject, test } from 'vitest';
import { builtPage } from '../support/built-page';
import { proofFrom } from '../support/solved-proofs';
import { uniqueEmail } from '../support/e2e-env';

const origin = inject('siteOrigin');

const STATIC_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
};

/** The headers of the answer to `GET path`, by lower-case name. */
async function headersOf(path: string): Promise<Record<string, string>> {
  return Object.fromEntries((await fetch(`${origin}${path}`)).headers);
}

describe('security headers', () => {
  test('pages carry the security headers and a frame-ancestors policy', async () => {
    const headers = await headersOf('/sectors');
    expect(headers).toMatchObject(STATIC_HEADERS);
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['permissions-policy']).toContain('camera=()');
    expect(headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    // Netlify sends its own on every custom domain; a second would be a duplicate browsers ignore.
    expect(headers['strict-transport-security']).toBeUndefined();
  });

  test.each(['/admin/cms/', '/admin/cms/config.yml'])(
    'the CMS page lets its login pop-up answer it, and is never cached: %s',
    async (path) => {
      const headers = await headersOf(path);
      expect(headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
      expect(headers['cache-control']).toBe('no-store');
      expect(headers['x-robots-tag']).toContain('noindex');
    },
  );

  test("the CMS's bundle is revalidated, not fetched again on every visit", async () => {
    const response = await fetch(`${origin}/admin/cms/decap/decap-cms.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).not.toContain('no-store');
    expect(response.headers.get('x-robots-tag')).toContain('noindex');
  });

  test('fingerprinted assets are cached for a year, immutably', async () => {
    const stylesheet = builtPage('/').querySelector('link[rel="stylesheet"]')?.getAttribute('href');
    expect(stylesheet).toMatch(/^\/_astro\//);
    const headers = await headersOf(stylesheet ?? '');
    expect(headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(headers['x-content-type-options']).toBe('nosniff');
  });

  test('the admin page is never cached or indexed', async () => {
    const headers = await headersOf('/admin/insights');
    expect(headers['x-robots-tag']).toContain('noindex');
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  test('function responses set their own security headers', async () => {
    const headers = await headersOf('/api/sectors');
    expect(headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' });
    expect(headers['content-security-policy']).toContain("default-src 'none'");
  });
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

const json = 'application/json';

describe('answers to a POST carry the security headers', () => {
  test.each([
    {
      label: 'a lead stored (201)',
      url: '/api/leads/create',
      status: 201,
      type: json,
      body: async () =>
        JSON.stringify({
          name: 'Header Check',
          email: uniqueEmail('headers'),
          source: 'contact_form',
          altcha: await proofFrom(origin),
        }),
    },
    {
      label: 'a body that is not JSON (400)',
      url: '/api/subscribers',
      status: 400,
      type: json,
      body: () => '{"email":',
    },
    {
      label: 'invalid fields (422)',
      url: '/api/newsletter/subscribe',
      status: 422,
      type: json,
      body: () => JSON.stringify({ email: 'not-an-address', source: 'website_footer' }),
    },
    // Refused before the attempt is counted, so the admin's tries are not spent.
    {
      label: 'an admin login that is not JSON (415)',
      url: '/api/admin/login',
      status: 415,
      type: 'text/plain',
      body: () => 'password',
    },
  ])('POST $url: $label', async ({ url, status, type, body }) => {
    const response = await fetch(`${origin}${url}`, {
      method: 'POST',
      headers: { 'content-type': type },
      body: await body(),
    });
    expect(response.status).toBe(status);
    expect(Object.fromEntries(response.headers)).toMatchObject(FUNCTION_HEADERS);
  });
});

describe('404 answers carry the security headers', () => {
  test.each([
    ['GET', '/no-such-page', 'text/html'],
    ['GET', '/blog/no-such-post', 'text/html'],
    ['GET', '/sectors/no-such-sector', 'text/html'],
    ['GET', '/mini-apps/no-such-app', 'text/html'],
    ['GET', '/api/no-such-endpoint', json],
    ['POST', '/api/no-such-endpoint', json],
  ])('%s %s', async (method, url, type) => {
    const response = await fetch(`${origin}${url}`, {
      method,
      ...(method === 'POST' ? { headers: { 'content-type': json }, body: '{}' } : {}),
    });
    expect(response.status).toBe(404);
    const headers = Object.fromEntries(response.headers);
    expect(headers['content-type']).toContain(type);
    expect(headers).toMatchObject(STATIC_HEADERS);
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['permissions-policy']).toContain('camera=()');
  });
});
