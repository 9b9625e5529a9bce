/**
 * Measures the JavaScript each page type loads before anyone interacts with it: the page is
 * loaded in Chromium at phone size, left idle, and every script it fetched or inlined is counted
 * (bytes and gzip bytes). Then the page is scrolled to the bottom to show what arrives later.
 *
 *   npm run bench:js             (builds first)
 */
import { chromium } from '@playwright/test';
import { gzipSync } from 'node:zlib';
import { startSiteServer } from '../harness/site-server.ts';
import { PAGE_TYPES } from './page-types.ts';

const server = await startSiteServer();

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const rows = [];
try {
  for (const { name, route } of PAGE_TYPES) {
    const page = await browser.newPage({ viewport: { width: 375, height: 740 }, isMobile: true });
    const fetched = new Map<string, Buffer>();
    page.on('response', async (response) => {
      if (response.request().resourceType() !== 'script') return;
      fetched.set(response.url(), await response.body().catch(() => Buffer.alloc(0)));
    });
    await page.goto(`${server.origin}${route}`, { waitUntil: 'networkidle' });
    await page.waitForTimeout(1500);
    const inline = await page.$$eval('script:not([src])', (scripts) =>
      scripts
        .filter((script) => script instanceof HTMLScriptElement && (!script.type || script.type === 'module'))
        .map((script) => script.textContent ?? ''),
    );
    const before = [...fetched.values(), ...inline.map((code) => Buffer.from(code))];
    const firstLoad = {
      raw: before.reduce((sum, code) => sum + code.byteLength, 0),
      gzip: before.reduce((sum, code) => sum + gzipSync(code).byteLength, 0),
    };
    const filesBefore = fetched.size;

    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 400) {
        window.scrollTo(0, y);
        await new Promise((resolve) => setTimeout(resolve, 60));
      }
    });
    await page.waitForLoadState('networkidle');
    const after =
      [...fetched.values()].reduce((sum, code) => sum + gzipSync(code).byteLength, 0) +
      inline.reduce((sum, code) => sum + gzipSync(Buffer.from(code)).byteLength, 0);
    rows.push({
      page: name,
      route,
      'scripts fetched': filesBefore,
      'first load KB': kb(firstLoad.raw),
      'first load KB gzip': kb(firstLoad.gzip),
      'after scrolling KB gzip': kb(after),
    });
    await page.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
console.log('\nJavaScript before the first interaction (375 px, idle), and after scrolling to the end\n');
console.table(rows);
