/**
 * Every public page is whole when it has loaded: what it shows 5 s later (its islands hydrated,
 * its scripts run) is what it showed at its load event. A script may add behaviour, never content.
 */
import { expect, test, type Page } from '@playwright/test';
import { PAGE_TYPES } from '../../scripts/bench/page-types';

/**
 * The pages reached from an e-mail, with a token of the right form: the page waits for a press.
 * Without one it says at once that the link is not valid, which is its answer to the address.
 */
const TOKEN = '?token=v2.e2e-whole-page';
const PUBLIC = PAGE_TYPES.filter((type) => type.name !== 'admin login').map(({ name, route }) => ({
  name,
  route: route.startsWith('/newsletter/confirm') || route.startsWith('/newsletter/unsubscribe') ? route + TOKEN : route,
}));

interface Snapshot {
  main: string;
  footerLinks: string[];
  pictures: number;
  icon: string | null;
  manifest: string | null;
}

/** What the page shows: `main`'s text, the footer's links, its pictures, its icon and manifest links. */
function snapshot(): Snapshot {
  return {
    main: (document.querySelector('main')?.innerText ?? '').replace(/\s+/g, ' ').trim(),
    footerLinks: [...document.querySelectorAll('body > footer a[href]')].map(
      (link) => `${(link.textContent ?? '').replace(/\s+/g, ' ').trim()} -> ${link.getAttribute('href')}`,
    ),
    pictures: document.querySelectorAll('main img, main svg[role="img"]').length,
    icon: document.querySelector('link[rel="icon"]')?.getAttribute('href') ?? null,
    manifest: document.querySelector('link[rel="manifest"]')?.getAttribute('href') ?? null,
  };
}

/** Opens `route` with the snapshot taken in the page's own `load` listener, the first one to run. */
async function openAtLoad(page: Page, route: string) {
  await page.addInitScript(`addEventListener('load', () => { window.atLoad = (${snapshot.toString()})(); });`);
  await page.goto(route);
  return page.evaluate(() => (window as unknown as { atLoad: Snapshot }).atLoad);
}

test('every public page shows at its load event what it shows 5 s later', async ({ context }) => {
  const pages = await Promise.all(PUBLIC.map(() => context.newPage()));
  const atLoad = await Promise.all(PUBLIC.map(({ route }, index) => openAtLoad(pages[index] as Page, route)));
  await pages[0]?.waitForTimeout(5000);
  for (const [index, { name }] of PUBLIC.entries()) {
    const later = await (pages[index] as Page).evaluate(snapshot);
    expect.soft(atLoad[index], `${name}: at load as 5 s later`).toEqual(later);
    expect.soft(later.footerLinks.length, `${name}: the footer's links`).toBe(13);
    expect.soft(later.icon, `${name}: the icon`).toBe('/favicon.svg');
    expect.soft(later.manifest, `${name}: the manifest`).toBe('/manifest.webmanifest');
  }
  expect(atLoad.filter((shown) => shown.main.length > 0)).toHaveLength(PUBLIC.length);
});
