import { describe, expect, test } from 'vitest';
import { criticalRules } from '../../src/integrations/critical-css';
import {
  compressedSize,
  FIRST_ROUND_TRIP_BYTES,
  prepareForFirstPaint,
  type Sources,
} from '../../src/integrations/first-paint';

/** A stylesheet shaped as Tailwind 4 writes one: layers, registered properties, variants. */
const CSS = [
  '@layer properties{@supports (((-webkit-hyphens:none))){*,:before,:after{--tw-border-style:solid;--tw-shadow:0 0 #0000}}}',
  '@layer theme{:root,:host{--color-ink-900:#0b1a33;--color-unused:#123456;--font-sans:ui-sans-serif;--default-font-family:var(--font-sans)}}',
  '@layer base{html{font-family:var(--default-font-family)}table{border-collapse:collapse}::-webkit-datetime-edit{padding:0}::placeholder{opacity:1}::selection{background:red}}',
  '@layer utilities{.border{border-style:var(--tw-border-style);border-width:1px}.text-ink{color:var(--color-ink-900)}',
  '.unused{color:red}:where(.space-y-4>:not(:last-child)){margin-block-start:1rem}',
  '@media (hover:hover){.hover\\:underline:hover{text-decoration-line:underline}}.focus\\:ring:focus{outline:0}',
  '.after\\:block:after{display:block}.open\\:fade:is([open],:popover-open){animation:fade 1s}',
  '.transition{transition-property:color,--tw-gradient-from;transition-duration:var(--tw-duration,.15s)}.duration-150{--tw-duration:.15s;transition-duration:.15s}',
  '.marker\\:teal *::-webkit-details-marker{color:teal}.marker\\:teal::-webkit-details-marker{color:teal}',
  '.dialog-only{margin:auto}@media (width>=40rem){.sm\\:flex{display:flex}}@media print{.print\\:hidden{display:none}}}',
  '@keyframes fade{0%{opacity:0}}@keyframes unused{to{opacity:1}}',
  '@property --tw-border-style{syntax:"*";inherits:false;initial-value:solid}',
  '@property --tw-shadow{syntax:"*";inherits:false;initial-value:0 0 #0000}',
].join('');

const PAGE = `<!doctype html><html><head></head><body>
  <p class="border text-ink sm:flex after:block hover:underline focus:ring transition duration-150">Text</p>
  <ul class="space-y-4 marker:teal"><li>a</li><li>b</li></ul>
  <template data-outcome><details class="open:fade">x</details></template>
  <dialog><div class="dialog-only">closed</div></dialog>
  <noscript><div class="unused">only without JavaScript</div></noscript>
</body></html>`;

describe('criticalRules', () => {
  const css = criticalRules(CSS, PAGE);

  test.each([
    ['a utility the markup uses', '.text-ink{'],
    ['a breakpoint of it', '@media (width>=40rem){.sm\\:flex{'],
    ['a rule Tailwind wraps in :where(), matched through it', ':where(.space-y-4>:not(:last-child))'],
    ['a pseudo-element of a used class', '.after\\:block:after{'],
    ['markup a script takes out of a template at load', '.open\\:fade'],
    ['the animation that markup runs', '@keyframes fade'],
    [
      'the reset of an element on the page, with the theme value it reads written in',
      'html{font-family:ui-sans-serif}',
    ],
    ['a theme value written where it is read', '.text-ink{color:#0b1a33}'],
    [
      'the property defaults, for browsers that cannot register properties',
      '@layer properties{@supports (((-webkit-hyphens:none))){*,:before,:after{--tw-border-style:solid}}}',
    ],
    ['the registration of a property a kept rule reads', '@property --tw-border-style{'],
  ])('keeps %s', (_what, kept) => {
    expect(css).toContain(kept);
  });

  test.each([
    ['a class no element has', '.unused'],
    ['a class only a closed dialog has', '.dialog-only'],
    ['the reset of an element the page lacks', 'table{'],
    ['property defaults nothing reads', '--tw-shadow'],
    ['hover styles', 'hover'],
    ['focus styles', ':focus'],
    ['print styles', '@media print'],
    ['the registration of a property nothing reads', '@property --tw-shadow'],
    ['theme values nothing reads', '--color-unused'],
    ['theme values, once written where they are read', '--font-sans'],
    ['an animation nothing runs', '@keyframes unused'],
    ['the parts of controls the page does not have', '-webkit-datetime-edit'],
    ['the placeholder style, with no placeholder on the page', '::placeholder'],
    ["the marker of a summary, with no summary on the page (Tailwind's marker: writes one)", '-webkit-details-marker'],
    ['the selection colour', '::selection'],
    ['transitions, and the rules that only set them', 'transition'],
    ['a rule left empty', '.duration-150'],
  ])('drops %s', (_what, dropped) => {
    expect(css).not.toContain(dropped);
  });
});

test('criticalRules keeps the marker of a summary where the page has one', () => {
  const css = '.marker\\:teal *::-webkit-details-marker{color:teal}.marker\\:teal::-webkit-details-marker{color:teal}';
  const page = '<ul class="marker:teal"><li><details><summary>More</summary>Text</details></li></ul>';
  expect(criticalRules(css, page)).toBe('.marker\\:teal *::-webkit-details-marker{color:teal}');
  expect(criticalRules(css, '<details><summary class="marker:teal">More</summary></details>')).toBe(
    '.marker\\:teal::-webkit-details-marker{color:teal}',
  );
});

describe("criticalRules writes the theme's values where they are read", () => {
  const theme =
    '@layer theme{:root,:host{--spacing:.25rem;--color-brand:#0f766e;--color-accent:var(--color-brand);--radius:1rem}}';
  const rules = (css: string, markup = '<p class="a b c">x</p>') =>
    criticalRules(`${theme}@layer utilities{${css}}`, `<!doctype html><html><body>${markup}</body></html>`);

  test.each([
    ['in a calculation', '.a{padding:calc(var(--spacing)*4)}', '.a{padding:calc(.25rem*4)}'],
    ['through another theme value', '.a{color:var(--color-accent)}', '.a{color:#0f766e}'],
    ['with a fallback, which goes', '.a{color:var(--color-brand,red)}', '.a{color:#0f766e}'],
    [
      'inside a function',
      '.a{border-color:color-mix(in oklab,var(--color-brand) 10%,transparent)}',
      '.a{border-color:color-mix(in oklab,#0f766e 10%,transparent)}',
    ],
    [
      "in the fallback of a variable that is not the theme's",
      '.a{color:var(--tw-text,var(--color-brand))}',
      '.a{color:var(--tw-text,#0f766e)}',
    ],
  ])('%s', (_what, css, expected) => {
    expect(rules(css)).toContain(expected);
  });

  test('a value another rule sets stays a variable, with its theme value', () => {
    const css = rules('.a{border-radius:var(--radius)}.b{--radius:0}');
    expect(css).toContain('.a{border-radius:var(--radius)}');
    expect(css).toContain('--radius:1rem');
  });

  test("a value the markup's style attribute sets stays a variable", () => {
    const css = rules('.a{color:var(--color-brand)}', '<p class="a" style="--color-brand:#000">x</p>');
    expect(css).toContain('.a{color:var(--color-brand)}');
    expect(css).toContain('--color-brand:#0f766e');
  });

  test('a theme value nothing reads any more is dropped', () => {
    expect(rules('.a{padding:var(--spacing)}')).not.toContain('--spacing');
  });
});

const STYLESHEET = '/_astro/site.css';
const RUNTIME = '(()=>{class f extends HTMLElement{};customElements.define("astro-island",f)})();';
const LOADER = '<script type="module">document.querySelector(`template#after-paint`)</script>';
const MENU = '<script type="module">document.getElementById(`menu-toggle`)</script>';
const sources: Sources = {
  stylesheet: () => '.text-ink{color:#0b1a33}.unused{color:red}',
  scriptFile: (script) => (script.includes('astro-island') ? '/_astro/runtime.js' : '/_astro/page.js'),
};

/** A built page: its policy lists other pages' hashes too, as Astro writes it. */
function builtPage(body: string, loader = LOADER): string {
  return `<!doctype html><html><head><meta http-equiv="content-security-policy" content="default-src 'self'; script-src 'self' 'sha256-other='; style-src 'self' 'sha256-other2=';"><link rel="stylesheet" href="${STYLESHEET}">${loader}</head><body><p class="text-ink">${body}</p><script>${RUNTIME}</script>${MENU}<script type="application/ld+json">{}</script></body></html>`;
}

describe('prepareForFirstPaint', () => {
  test('a page that fits the first round trip carries its CSS, and loads the stylesheet, then its scripts, after it paints', () => {
    const page = prepareForFirstPaint(builtPage('Hello'), sources);
    expect(page).toContain('<style>.text-ink{color:#0b1a33}</style>');
    expect(page).toContain(`<noscript><link rel="stylesheet" href="${STYLESHEET}"></noscript>`);
    expect(page).toContain(
      `<template id="after-paint"><link rel="stylesheet" href="${STYLESHEET}"><script src="/_astro/runtime.js"></script><script type="module" src="/_astro/page.js"></script></template></head>`,
    );
    expect(page).not.toContain('customElements.define');
    expect(page).not.toContain('menu-toggle');
    expect(page, 'the script that loads the rest').toContain(LOADER);
    expect(page, 'structured data').toContain('<script type="application/ld+json">{}</script>');
    expect(page.replace(/<template[\s\S]*?<\/template>|<noscript>[\s\S]*?<\/noscript>/g, '')).not.toContain(
      '<link rel="stylesheet"',
    );
  });

  test("the policy lists the hashes of the page's own scripts and styles, and no others", () => {
    const page = prepareForFirstPaint(builtPage('Hello'), sources);
    const policy = /content-security-policy" content="([^"]*)"/.exec(page)?.[1] ?? '';
    expect(policy).not.toContain('sha256-other');
    // The loader, the JSON-LD block and the critical CSS.
    expect(policy.match(/'sha256-[^']+'/g)).toHaveLength(3);
    expect(policy).toContain("default-src 'self'");
  });

  test('a page past the first round trip keeps its stylesheet link; its scripts still wait for the paint', () => {
    // Text that does not compress: the page is past the budget whatever the CSS.
    let noise = '';
    for (let index = 0; compressedSize(noise) < FIRST_ROUND_TRIP_BYTES; index += 1)
      noise += `${(index * 2654435761) % 4294967296} `;
    const page = prepareForFirstPaint(builtPage(noise), sources);
    expect(page).toContain(`<link rel="stylesheet" href="${STYLESHEET}">`);
    expect(page).not.toContain('<noscript>');
    expect(page).toContain(
      '<template id="after-paint"><script src="/_astro/runtime.js"></script><script type="module" src="/_astro/page.js"></script></template>',
    );
  });

  test('a page without the script that adds the template is left as it is', () => {
    const html = builtPage('Hello', '');
    expect(prepareForFirstPaint(html, sources)).toBe(html);
  });
});
