/**
 * Every public page is a whole document as served: what a reader view or a crawler that runs no
 * script reads from the HTML holds what Chromium shows in `main` once the page's scripts have run,
 * and every link of the footer is in it. Reads dist/ through the local production server.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readability } from '@mozilla/readability';
import { chromium, type Browser } from '@playwright/test';
import { JSDOM, VirtualConsole } from 'jsdom';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../../scripts/harness/chromium';
import { startSiteServer, type SiteServer } from '../../scripts/harness/site-server';
import { PAGE_TYPES } from '../../scripts/bench/page-types';
import { BOOK_MANAGE_PAGE, BOOK_PAGE } from '../../src/shared/booking-api';
import { builtPages, DIST, servedPath } from '../support/dist';

/**
 * The share of `main`'s words a reader view must find. Prose pages are read whole; on the others
 * Readability leaves lists of cards and buttons out by design.
 */
const PROSE = new Set(['blog post', 'privacy']);
const SHARE = { prose: 0.9, other: 0.6 };
const PUBLIC = PAGE_TYPES.filter((type) => type.name !== 'admin login');
/**
 * Pages whose `main` is a status line and a button (a link's outcome, a page not found): there is
 * no article for a reader view to find, and none is looked for. Their footer is checked all the same.
 */
const STATUS_PAGES = new Set(['newsletter confirm', 'newsletter unsubscribe', '404']);
const READABLE = PUBLIC.filter((type) => !STATUS_PAGES.has(type.name));

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? [];

/** How many of `shown`'s words, counted with their repeats, `found` holds too. */
function shared(shown: string[], found: string[]): number {
  const left = new Map<string, number>();
  for (const word of found) left.set(word, (left.get(word) ?? 0) + 1);
  let count = 0;
  for (const word of shown) {
    const remaining = left.get(word) ?? 0;
    if (remaining === 0) continue;
    left.set(word, remaining - 1);
    count += 1;
  }
  return count;
}

/** The page as served, parsed without running a script: what a crawler or a reader view gets. */
async function served(url: string) {
  const html = await (await fetch(url)).text();
  // jsdom reports the CSS it does not parse (Tailwind's layers): not the page's fault.
  return new JSDOM(html, { url, virtualConsole: new VirtualConsole() }).window.document;
}

const footerLinks = (links: { href: string; text: string }[]) =>
  links.map(({ href, text }) => `${text.replace(/\s+/g, ' ').trim()} -> ${href}`).sort();

let server: SiteServer;
let browser: Browser;
let store: string;

beforeAll(async () => {
  store = mkdtempSync(path.join(tmpdir(), 'whole-pages-'));
  server = await startSiteServer({ LOCAL_STORE_DIR: store });
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(store, { recursive: true, force: true });
});

/**
 * `main`'s text as shown, without what the page reads from the API once it runs (marked
 * `data-live`: the open times, a booking), which no HTML as served can hold.
 */
function mainTextWithoutLive(main: HTMLElement): string {
  const live = [...main.querySelectorAll<HTMLElement>('[data-live]')];
  for (const part of live) part.hidden = true;
  const text = main.innerText;
  for (const part of live) part.hidden = false;
  return text;
}

async function loadShown(route: string) {
  const page = await browser.newPage({ viewport: { width: 412, height: 915 } });
  try {
    await page.goto(`${server.origin}${route}`, { waitUntil: 'networkidle' });
    return {
      main: words(await page.locator('main').evaluate(mainTextWithoutLive)),
      footerLinks: await page
        .locator('body > footer a[href]')
        .evaluateAll((links) =>
          links.map((link) => ({ href: link.getAttribute('href') ?? '', text: link.textContent ?? '' })),
        ),
    };
  } finally {
    await page.close();
  }
}

const shown = new Map<string, ReturnType<typeof loadShown>>();

/** What Chromium shows of the page at `route` once its scripts have run: loaded once for both tests of the page. */
function shownIn(route: string) {
  const known = shown.get(route) ?? loadShown(route);
  shown.set(route, known);
  return known;
}

describe.each(READABLE)('the $name page ($route)', ({ name, route }) => {
  test(`gives a reader view ${PROSE.has(name) ? '90' : '60'} % of the words shown in main once scripts have run`, async () => {
    const { main } = await shownIn(route);
    const article = new Readability(await served(`${server.origin}${route}`)).parse();
    const found = shared(main, words(article?.textContent ?? ''));
    console.log(`${name}: Readability finds ${found} of the ${main.length} words shown in main`);
    expect(main.length).toBeGreaterThan(20);
    expect(found / main.length).toBeGreaterThanOrEqual(PROSE.has(name) ? SHARE.prose : SHARE.other);
  });
});

describe.each(PUBLIC)('the $name page ($route)', ({ route }) => {
  test('serves every link its footer shows once scripts have run', async () => {
    const { footerLinks: shown } = await shownIn(route);
    const document = await served(`${server.origin}${route}`);
    const linksServed = [...document.querySelectorAll('body > footer a[href]')].map((link) => ({
      href: link.getAttribute('href') ?? '',
      text: link.textContent ?? '',
    }));
    expect(shown.length).toBeGreaterThan(5);
    expect(footerLinks(linksServed)).toEqual(footerLinks(shown));
  });
});

test('only the booking pages leave a part to the API (data-live): every other page is whole without one', () => {
  const live = builtPages()
    .filter((file) => /\sdata-live[\s=>]/.test(readFileSync(path.join(DIST, file), 'utf8')))
    .map(servedPath);
  expect(live.sort()).toEqual([BOOK_PAGE, BOOK_MANAGE_PAGE]);
});
