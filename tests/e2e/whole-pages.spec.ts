/**
 * Every public page is whole when it has loaded: what it shows once its scripts have run (the
 * network quiet, the islands that hydrate unasked hydrated) is what it showed at its load event.
 * A script may add behaviour, never content. What the built HTML holds (the footer's links, the
 * icon and the manifest) is checked in tests/build/pages.test.ts.
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

/**
 * What the page shows: `main`'s text, the footer's links, its pictures, its icon and manifest links.
 * `main` is read without what the page reads from the API once it runs (marked `data-live`: the
 * open times, a booking), which no HTML as served can hold.
 */
function snapshot(): Snapshot {
  const live = [...document.querySelectorAll<HTMLElement>('main [data-live]')];
  for (const part of live) part.hidden = true;
  const main = (document.querySelector('main')?.innerText ?? '').replace(/\s+/g, ' ').trim();
  for (const part of live) part.hidden = false;
  return {
    main,
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

/**
 * Until the page's scripts have done what they do on their own: no request for 500 ms (the
 * islands that hydrate unasked have their scripts), then a moment the main thread is idle (they
 * have run). The other islands wait for a person: a reach, an event.
 */
async function settled(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
}

test('every public page shows at its load event what it shows once its scripts have run', async ({ context }) => {
  const pages = await Promise.all(PUBLIC.map(() => context.newPage()));
  const atLoad = await Promise.all(PUBLIC.map(({ route }, index) => openAtLoad(pages[index] as Page, route)));
  await Promise.all(pages.map(settled));
  for (const [index, { name }] of PUBLIC.entries()) {
    const later = await (pages[index] as Page).evaluate(snapshot);
    expect.soft(atLoad[index], `${name}: at load as once its scripts have run`).toEqual(later);
  }
  expect(atLoad.filter((shown) => shown.main.length > 0)).toHaveLength(PUBLIC.length);
});
