import { describe, expect, test } from 'vitest';
import { deferBelowFirstScreen, FIRST_SCREEN_TEXT, heldRuns, LATER_OPEN } from '../../src/integrations/first-screen';

/** Words of text, `length` characters long. */
const words = (length: number) =>
  'word '
    .repeat(Math.ceil(length / 5))
    .slice(0, length)
    .trim();

const page = (main: string, after = '<footer><p>Footer</p></footer><dialog><p>Dialog</p></dialog>') =>
  `<!doctype html><html><head><title>T</title></head><body><header><nav>Menu</nav></header>` +
  `<main id="main">${main}</main>${after}<script type="module" src="/x.js"></script></body></html>`;

/** The page as the browser reads it without JavaScript, and as the page's script makes it: each held run written back. */
const restored = (html: string) => html.replace(/<noscript data-later>([\s\S]*?)<\/noscript>/g, '$1');

describe('deferBelowFirstScreen', () => {
  test('keeps the header and main up to the block that crosses its first screen, and holds back what follows: sections, footer, dialog', () => {
    const first = `<section><h1>Title</h1><p>${words(FIRST_SCREEN_TEXT + 100)}</p></section>`;
    const second = `<section id="more"><p>${words(400)}</p></section>`;
    const third = '<section><p>Last</p></section>';
    const html = deferBelowFirstScreen(page(first + second + third));
    expect(heldRuns(html)).toEqual([
      `${second}${third}`,
      '<footer><p>Footer</p></footer><dialog><p>Dialog</p></dialog>',
    ]);
    expect(html).toContain(`<header><nav>Menu</nav></header><main id="main">${first}${LATER_OPEN}`);
    expect(restored(html)).toBe(page(first + second + third));
  });

  test('cuts inside a block that crosses the first screen, between its blocks', () => {
    const cards = Array.from(
      { length: 6 },
      (_, index) => `<article><h3>Card ${index}</h3><p>${words(250)}</p></article>`,
    );
    const main = `<section><h1>Title</h1><div class="grid">${cards.join('')}</div></section><section><p>After</p></section>`;
    const html = deferBelowFirstScreen(page(main));
    const runs = heldRuns(html);
    expect(runs).toHaveLength(3);
    // The card that crosses the first screen stays, with those before it; the cards after it are held back.
    const kept = cards.filter((card) => !runs[0]?.includes(card));
    expect(kept.length).toBeGreaterThan(1);
    expect(kept.length).toBeLessThan(cards.length);
    expect(runs[0]).toBe(cards.slice(kept.length).join(''));
    expect(runs[1]).toBe('<section><p>After</p></section>');
    expect(restored(html)).toBe(page(main));
  });

  test('keeps a list that crosses the first screen whole: a <noscript> may not stand among its items', () => {
    const items = Array.from({ length: 6 }, (_, index) => `<li>Item ${index} ${words(250)}</li>`).join('');
    const html = deferBelowFirstScreen(page(`<section><ul>${items}</ul><p>Next</p></section>`));
    expect(html).toContain(`<ul>${items}</ul>${LATER_OPEN}<p>Next</p></noscript>`);
  });

  test('keeps a long paragraph whole, and holds back what follows it', () => {
    const long = `<p>${words(FIRST_SCREEN_TEXT * 2)}</p>`;
    const html = deferBelowFirstScreen(page(`<article>${long}<p>Next</p></article>`));
    expect(heldRuns(html)[0]).toBe('<p>Next</p>');
    expect(html).toContain(`<article>${long}${LATER_OPEN}`);
  });

  test('holds back only what follows main when main is shorter than the first screen', () => {
    const main = '<section><h1>Contact</h1><p>Short</p></section>';
    const html = deferBelowFirstScreen(page(main));
    expect(heldRuns(html)).toEqual(['<footer><p>Footer</p></footer><dialog><p>Dialog</p></dialog>']);
    expect(html).toContain(`<main id="main">${main}</main>${LATER_OPEN}`);
  });

  test('writes a picture that waits for the paint, held back, as its image', () => {
    const picture =
      '<template data-after-paint><img src="/a.svg" alt=""></template><noscript><img src="/a.svg" alt=""></noscript>';
    const html = deferBelowFirstScreen(page('<p>Short</p>', `<footer>${picture}</footer>`));
    expect(heldRuns(html)).toEqual(['<footer><img src="/a.svg" alt=""></footer>']);
  });

  test.each([
    ['a script', '<footer><script>go()</script></footer>'],
    ['a <noscript> of its own', '<footer><noscript><p>Enable JavaScript</p></noscript></footer>'],
  ])('leaves a run that holds %s in place', (_what, footer) => {
    const html = page('<p>Short</p>', footer);
    expect(deferBelowFirstScreen(html)).toBe(html);
  });

  test('leaves the scripts after the footer in place', () => {
    const html = deferBelowFirstScreen(page('<p>Short</p>'));
    expect(html).toContain('</noscript><script type="module" src="/x.js"></script></body>');
  });

  test('leaves a page without main as it is', () => {
    const html = '<!doctype html><html><head></head><body><p>Login</p><footer>F</footer></body></html>';
    expect(deferBelowFirstScreen(html)).toBe(html);
  });
});
