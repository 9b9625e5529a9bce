/**
 * What browsers, phones and crawlers ask for without a page telling them: the favicon, the iOS
 * home-screen icon, the web app manifest and its icons, security.txt (RFC 9116), and a JSON
 * error for an /api path no function owns.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import sharp from 'sharp';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readSiteConfig } from '../../src/site.config';
import { DIST } from '../support/dist';

const site = readSiteConfig(process.env);
/**
 * The site's origin as the build wrote it (its canonical links): the build reads .env, which this
 * process does not, and a PORT or PUBLIC_SITE_URL there moves it.
 */
const builtOrigin = new URL(
  /<link rel="canonical" href="([^"]+)"/.exec(readFileSync(path.join(DIST, 'index.html'), 'utf8'))?.[1] ?? 'invalid:',
).origin;

async function fetchFile(request: APIRequestContext, path: string, type: RegExp): Promise<Buffer> {
  const response = await request.get(path, { maxRedirects: 0 });
  expect(response.status(), path).toBe(200);
  expect(response.headers()['content-type'], path).toMatch(type);
  return response.body();
}

async function sizeOf(png: Buffer): Promise<[number | undefined, number | undefined]> {
  const { format, width, height } = await sharp(png).metadata();
  expect(format).toBe('png');
  return [width, height];
}

test('/favicon.ico holds 16, 32 and 48 px images that decode', async ({ request }) => {
  const ico = await fetchFile(request, '/favicon.ico', /^image\/(x-icon|vnd\.microsoft\.icon)$/);
  expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
  const count = ico.readUInt16LE(4);
  const sizes: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const entry = 6 + 16 * index;
    const [width, height, length, offset] = [
      ico.readUInt8(entry),
      ico.readUInt8(entry + 1),
      ico.readUInt32LE(entry + 8),
      ico.readUInt32LE(entry + 12),
    ];
    expect(await sizeOf(ico.subarray(offset, offset + length))).toEqual([width, height]);
    sizes.push(width);
  }
  expect(sizes).toEqual([16, 32, 48]);
});

test('/apple-touch-icon.png is a 180 px opaque square', async ({ request }) => {
  const png = await fetchFile(request, '/apple-touch-icon.png', /^image\/png$/);
  expect(await sizeOf(png)).toEqual([180, 180]);
  // iOS shows transparency as black.
  expect((await sharp(png).stats()).isOpaque).toBe(true);
});

test('the head links the icons and the manifest; the manifest names the site and its icons decode at their sizes', async ({
  page,
  request,
}) => {
  // Browsers without SVG icons ask for /favicon.ico by themselves, so the page does not name it.
  await page.goto('/');
  const head = page.locator('head');
  await expect(head.locator('link[rel="icon"]')).toHaveCount(1);
  await expect(head.locator('link[rel="icon"][type="image/svg+xml"]')).toHaveAttribute('href', '/favicon.svg');
  await expect(head.locator('link[rel="apple-touch-icon"]')).toHaveAttribute('href', '/apple-touch-icon.png');
  await expect(head.locator('link[rel="manifest"]')).toHaveCount(1);
  const href = await head.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  await fetchFile(request, '/favicon.svg', /^image\/svg\+xml/);

  const manifest = JSON.parse(
    (await fetchFile(request, href ?? '', /^application\/manifest\+json/)).toString('utf8'),
  ) as {
    name: string;
    short_name: string;
    start_url: string;
    theme_color: string;
    icons: { src: string; sizes: string; type: string; purpose?: string }[];
  };
  expect(manifest).toMatchObject({ name: site.name, start_url: '/', theme_color: site.themeColor });
  expect(manifest.short_name.length).toBeLessThanOrEqual(12);
  expect(await head.locator('meta[name="theme-color"]').getAttribute('content')).toBe(manifest.theme_color);
  const pngs = manifest.icons.filter((icon) => icon.type === 'image/png');
  expect(pngs.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  expect(pngs.some((icon) => icon.purpose === 'maskable')).toBe(true);
  for (const icon of pngs) {
    const [width, height] = await sizeOf(await fetchFile(request, icon.src, /^image\/png$/));
    expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
  }
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the head names the SVG icon file', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('head link[rel="icon"][href="/favicon.svg"]')).toHaveCount(1);
  });
});

test('/.well-known/security.txt names the contact e-mail and expires within a year', async ({ request }) => {
  const text = (await fetchFile(request, '/.well-known/security.txt', /^text\/plain/)).toString('utf8');
  const field = (name: string) => new RegExp(`^${name}: (.+)$`, 'm').exec(text)?.[1];
  expect(field('Contact')).toBe(`mailto:${site.email}`);
  expect(field('Preferred-Languages')).toBe('en');
  expect(field('Canonical')).toBe(`${builtOrigin}/.well-known/security.txt`);
  const expires = Date.parse(field('Expires') ?? '');
  expect(field('Expires')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  expect(expires).toBeGreaterThan(Date.now() + 300 * 24 * 3600 * 1000);
  expect(expires).toBeLessThanOrEqual(Date.now() + 365 * 24 * 3600 * 1000);
});

for (const method of ['GET', 'POST'] as const) {
  test(`${method} /api/no-such-thing answers 404 with a JSON error`, async ({ request }) => {
    const response = await request.fetch('/api/no-such-thing', {
      method,
      data: method === 'POST' ? { email: 'a@example.com' } : undefined,
      maxRedirects: 0,
    });
    expect(response.status()).toBe(404);
    expect(response.headers()['content-type']).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ error: expect.any(String) });
  });
}
