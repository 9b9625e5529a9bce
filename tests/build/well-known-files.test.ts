/**
 * What browsers, phones and crawlers ask for without a page telling them: the favicon, the iOS
 * home-screen icon, the web app manifest and its icons, security.txt (RFC 9116), and a JSON
 * error for an /api path no function owns. Asked of the local production server; the head's
 * links are read from the built home page, as a browser without JavaScript reads them.
 */
import sharp from 'sharp';
import { describe, expect, inject, test } from 'vitest';
import { readSiteConfig } from '../../src/site.config';
import { builtPage, parseHtml } from '../support/built-page';

const origin = inject('siteOrigin');
const site = readSiteConfig(process.env);
const home = builtPage('/');
/**
 * The site's origin as the build wrote it (its canonical links): the build reads .env, which this
 * process does not, and a PORT or PUBLIC_SITE_URL there moves it.
 */
const builtOrigin = new URL(home.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? 'invalid:').origin;

/** The file served at `path`, with no redirect, after checking its status and type. */
async function fetchFile(path: string, type: RegExp): Promise<Buffer> {
  const response = await fetch(`${origin}${path}`, { redirect: 'manual' });
  expect(response.status, path).toBe(200);
  expect(response.headers.get('content-type'), path).toMatch(type);
  return Buffer.from(await response.arrayBuffer());
}

async function sizeOf(png: Buffer): Promise<[number | undefined, number | undefined]> {
  const { format, width, height } = await sharp(png).metadata();
  expect(format).toBe('png');
  return [width, height];
}

interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  theme_color: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
}

describe('icons', () => {
  test('/favicon.ico holds 16, 32 and 48 px images that decode', async () => {
    const ico = await fetchFile('/favicon.ico', /^image\/(x-icon|vnd\.microsoft\.icon)$/);
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

  test('/apple-touch-icon.png is a 180 px opaque square', async () => {
    const png = await fetchFile('/apple-touch-icon.png', /^image\/png$/);
    expect(await sizeOf(png)).toEqual([180, 180]);
    // iOS shows transparency as black.
    expect((await sharp(png).stats()).isOpaque).toBe(true);
  });

  test('the head links one icon, the SVG one, and the apple-touch icon, as served without JavaScript', async () => {
    // Browsers without SVG icons ask for /favicon.ico by themselves, so the page does not name it.
    const head = home.head;
    expect(head.querySelectorAll('link[rel="icon"]')).toHaveLength(1);
    expect(head.querySelector('link[rel="icon"][type="image/svg+xml"]')?.getAttribute('href')).toBe('/favicon.svg');
    expect(head.querySelector('link[rel="apple-touch-icon"]')?.getAttribute('href')).toBe('/apple-touch-icon.png');
    await fetchFile('/favicon.svg', /^image\/svg\+xml/);
    // The page as served, not only the file built, names it without a script.
    const served = parseHtml(await (await fetch(`${origin}/`)).text());
    expect(served.querySelectorAll('head link[rel="icon"][href="/favicon.svg"]')).toHaveLength(1);
  });

  test('the head links the manifest; the manifest names the site and its icons decode at their sizes', async () => {
    const links = home.head.querySelectorAll('link[rel="manifest"]');
    expect(links).toHaveLength(1);
    const href = links[0]?.getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const text = (await fetchFile(href ?? '', /^application\/manifest\+json/)).toString('utf8');
    const manifest: Manifest = JSON.parse(text);
    expect(manifest).toMatchObject({ name: site.name, start_url: '/', theme_color: site.themeColor });
    expect(manifest.short_name.length).toBeLessThanOrEqual(12);
    expect(home.head.querySelector('meta[name="theme-color"]')?.getAttribute('content')).toBe(manifest.theme_color);
    const pngs = manifest.icons.filter((icon) => icon.type === 'image/png');
    expect(pngs.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(pngs.some((icon) => icon.purpose === 'maskable')).toBe(true);
    for (const icon of pngs) {
      const [width, height] = await sizeOf(await fetchFile(icon.src, /^image\/png$/));
      expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
    }
  });
});

test('/.well-known/security.txt names the contact e-mail and expires within a year', async () => {
  const text = (await fetchFile('/.well-known/security.txt', /^text\/plain/)).toString('utf8');
  const field = (name: string) => new RegExp(`^${name}: (.+)$`, 'm').exec(text)?.[1];
  expect(field('Contact')).toBe(`mailto:${site.email}`);
  expect(field('Preferred-Languages')).toBe('en');
  expect(field('Canonical')).toBe(`${builtOrigin}/.well-known/security.txt`);
  const expires = Date.parse(field('Expires') ?? '');
  expect(field('Expires')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  expect(expires).toBeGreaterThan(Date.now() + 300 * 24 * 3600 * 1000);
  expect(expires).toBeLessThanOrEqual(Date.now() + 365 * 24 * 3600 * 1000);
});

test.each(['GET', 'POST'])('%s /api/no-such-thing answers 404 with a JSON error', async (method) => {
  const response = await fetch(`${origin}/api/no-such-thing`, {
    method,
    redirect: 'manual',
    ...(method === 'POST'
      ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'a@example.com' }) }
      : {}),
  });
  expect(response.status).toBe(404);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await response.json()).toEqual({ error: expect.any(String) });
});
