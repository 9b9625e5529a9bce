/**
 * The pictures of the admin page in docs/admin.md, made again from the production build: a store
 * seeded with 300 worked leads, 300 subscribers and 30 days of visits, served by the local server,
 * photographed in Chromium on a 375 px phone (the Leads section, as the owner opens it) and on a
 * 1440 px desktop (the top of the page, then the Visits section).
 *
 *   npm run docs:pictures      (builds first; writes docs/images/admin-*.png)
 */
import { chromium, type Browser } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../harness/chromium.ts';
import { PROJECT_ROOT } from '../harness/project.ts';
import { startSiteServer } from '../harness/site-server.ts';
import { seedStore } from './seed-store.ts';

const PASSWORD = 'pictures admin password';
const OUT = path.join(PROJECT_ROOT, 'docs', 'images');

/** Logs in on a page of this size and shows `section`, once its figures are in. */
async function photograph(
  browser: Browser,
  origin: string,
  {
    name,
    width,
    height,
    mobile,
    section,
  }: { name: string; width: number; height: number; mobile: boolean; section: string },
) {
  const context = await browser.newContext({
    viewport: { width, height },
    deviceScaleFactor: mobile ? 2 : 1,
    isMobile: mobile,
    hasTouch: mobile,
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  await page.goto(`${origin}/admin/insights#${section}`);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  // Every section's figures are in: the leads, the Visits tables and the charts.
  await page.getByRole('article').first().waitFor();
  await page.getByRole('region', { name: 'Top pages' }).waitFor();
  await page.locator('.uplot canvas').first().waitFor();
  await page.locator(`#${section}`).evaluate((element) => element.scrollIntoView());
  const file = path.join(OUT, `${name}.png`);
  await page.screenshot({ path: file });
  await context.close();
  console.log(`Wrote ${path.relative(PROJECT_ROOT, file)} (${width}×${height}).`);
}

const folder = mkdtempSync(path.join(tmpdir(), 'admin-pictures-'));
try {
  const env = { LOCAL_STORE_DIR: folder };
  await seedStore({ subscribers: 300, leads: 300, worked: true, visitDays: 30, env });
  const server = await startSiteServer({
    ...env,
    ADMIN_PASSWORD: PASSWORD,
    SESSION_SECRET: 'pictures-session-secret-0123456789abcdef',
    WEEKLY_REPORT: 'off',
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    await photograph(browser, server.origin, {
      name: 'admin-phone',
      width: 375,
      height: 812,
      mobile: true,
      section: 'leads',
    });
    await photograph(browser, server.origin, {
      name: 'admin-desktop',
      width: 1440,
      height: 900,
      mobile: false,
      section: 'leads',
    });
    await photograph(browser, server.origin, {
      name: 'admin-desktop-visits',
      width: 1440,
      height: 900,
      mobile: false,
      section: 'visits',
    });
  } finally {
    await browser.close();
    await server.stop();
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
