import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import {
  classNames,
  renameClasses,
  renameInStylesheet,
  shortClasses,
  shortNames,
  stylesheetClasses,
  unescapeCss,
  type SiteFiles,
} from '../../src/integrations/short-classes';

/** A stylesheet as Tailwind 4 writes one, escapes and variants included. */
const CSS = [
  '@layer utilities{.px-4{padding-inline:1rem}.sm\\:px-6{padding-inline:1.5rem}.w-\\[calc\\(100\\%-2rem\\)\\]{width:calc(100% - 2rem)}',
  '.text-ink-900{color:#0b1a33}.flex{display:flex}.inline-flex{display:inline-flex}.menu-closed{opacity:1}.bg-danger-700{background:red}.shadow-sm{box-shadow:0 1px}.bg-brand-700{background:teal}.mt-1{margin-top:.25rem}.m-2{margin:.5rem}',
  '.group-hover\\:underline:is(:where(.group):hover *){text-decoration-line:underline}',
  '[data-tip="a.b .px-4"]{color:red}.rounded-xl{border-radius:.75rem}}',
  '@keyframes fade{12.5%{opacity:.5}}',
].join('');

const ISLAND = [
  'import{jsx as e}from"./jsx-runtime.AAAAAAAA.js";',
  'const t="rounded-xl px-4 text-ink-900";',
  'export function F(o){return e("p",{className:o.bad?"bg-danger-700 px-4":t,children:o.text})}',
  'export const S=`rounded-xl ${"x"} sm:px-6`;',
  // Text, not classes: a selector, a piece of a name, a CSS value a script sets.
  'document.querySelector(".menu-closed");const w=`m-${4}`;document.body.style.display="inline-flex";',
  'export const M="Write shadow-sm in a sentence";const b="bg-brand-"+o.tone;',
].join('');

const PAGE = `<!doctype html><html><head><link rel="stylesheet" href="/_astro/site.BBBBBBBB.css"></head><body>
<div class="flex px-4 sm:px-6 w-[calc(100%-2rem)] group m-2 mt-1"><a class='group-hover:underline text-ink-900'>x</a></div>
<p class="rounded-xl px-4 text-ink-900">y</p><p class="menu-closed shadow-sm bg-brand-700">z</p>
<astro-island component-url="/_astro/island.CCCCCCCC.js" props="{&quot;className&quot;:[0,&quot;mt-1&quot;]}"></astro-island>
<script type="module">document.body.classList.toggle("text-ink-900 px-4",true)</script>
<script type="application/ld+json">{"name":"sm:px-6"}</script>
</body></html>`;

const site = (): SiteFiles => ({
  pages: new Map([['index.html', PAGE]]),
  stylesheets: new Map([['site.css', CSS]]),
  scripts: new Map([['island.js', ISLAND]]),
});

describe('reading a stylesheet', () => {
  test('names its classes as the markup writes them, not what a quoted attribute value holds', () => {
    expect([...stylesheetClasses(CSS)].sort()).toEqual(
      [
        'bg-brand-700',
        'bg-danger-700',
        'flex',
        'group',
        'group-hover:underline',
        'inline-flex',
        'm-2',
        'menu-closed',
        'mt-1',
        'px-4',
        'rounded-xl',
        'shadow-sm',
        'sm:px-6',
        'text-ink-900',
        'w-[calc(100%-2rem)]',
      ].sort(),
    );
  });

  test('reads both kinds of escape', () => {
    expect(unescapeCss('sm\\:px-6')).toBe('sm:px-6');
    expect(unescapeCss('\\31 0')).toBe('10');
  });
});

describe('classNames', () => {
  const names = classNames(site());

  test('renames the classes the markup and scripts use only as classes, the most used shortest', () => {
    // text-ink-900 is written 4 times (48 bytes), rounded-xl 3 times (30 bytes).
    expect(names.get('text-ink-900')).toBe('A');
    expect(names.get('rounded-xl')).toBe('B');
    expect([...names.keys()].sort()).toEqual(
      ['bg-danger-700', 'group-hover:underline', 'px-4', 'rounded-xl', 'text-ink-900', 'w-[calc(100%-2rem)]'].sort(),
    );
  });

  test.each([
    ['one lowercase word, which a script may use for anything', 'flex'],
    ['a CSS value a script may set', 'inline-flex'],
    ['a class a script looks for with a selector', 'menu-closed'],
    ['a class a script writes as text', 'shadow-sm'],
    ['a class a script may build from pieces', 'bg-brand-700'],
    ['a class a template may build from pieces', 'm-2'],
    ['a class in data (JSON-LD)', 'sm:px-6'],
  ])('keeps %s', (_, name) => {
    expect(names.has(name)).toBe(false);
  });

  test('keeps a class that an attribute other than class names (an island’s props)', () => {
    const withProps = site();
    withProps.pages.set('index.html', PAGE.replace('[0,&quot;mt-1&quot;]', '[0,&quot;px-4&quot;]'));
    expect(classNames(withProps).has('px-4')).toBe(false);
  });

  test('gives short names that are shortest first and start with a capital', () => {
    const first = [...shortNames()].slice(0, 28);
    expect(first.slice(0, 3)).toEqual(['A', 'B', 'C']);
    expect(first.slice(26)).toEqual(['Aa', 'Ab']);
    expect(new Set(shortNames()).size).toBe(26 + 26 * 62 + 26 * 62 * 62);
  });
});

describe('renameClasses', () => {
  const names = classNames(site());
  const renamed = renameClasses(site(), names);
  const page = renamed.pages.get('index.html') ?? '';
  const css = renamed.stylesheets.get('site.css') ?? '';
  const island = renamed.scripts.get('island.js') ?? '';
  const short = (name: string) => names.get(name) ?? name;

  test('renames alike in the markup, the stylesheet and the scripts', () => {
    const list = `${short('rounded-xl')} ${short('px-4')} ${short('text-ink-900')}`;
    expect(page).toContain(`<p class="${list}">`);
    expect(island).toContain(`const t="${list}"`);
    expect(island).toContain(`"${short('bg-danger-700')} ${short('px-4')}"`);
    expect(css).toContain(`.${short('px-4')}{padding-inline:1rem}`);
    expect(css).toContain(`.${short('w-[calc(100%-2rem)]')}{width:`);
    expect(css).toContain(`.${short('group-hover:underline')}:is(:where(.group):hover *)`);
    expect(page).toContain(`document.body.classList.toggle("${short('text-ink-900')} ${short('px-4')}",true)`);
  });

  test('keeps the quotes of a single-quoted class attribute', () => {
    expect(page).toContain(`<a class='${short('group-hover:underline')} ${short('text-ink-900')}'>`);
  });

  test('leaves text, selectors, keyframes and data as they were', () => {
    expect(island).toContain('document.querySelector(".menu-closed")');
    expect(island).toContain('`m-${4}`');
    expect(island).toContain('"Write shadow-sm in a sentence"');
    expect(island).toContain('`rounded-xl ${"x"} sm:px-6`'.replace('rounded-xl', short('rounded-xl')));
    expect(css).toContain('[data-tip="a.b .px-4"]');
    expect(css).toContain('@keyframes fade{12.5%{opacity:.5}}');
    expect(page).toContain('<script type="application/ld+json">{"name":"sm:px-6"}</script>');
    expect(page).toContain('<p class="menu-closed shadow-sm bg-brand-700">');
  });

  test('leaves a script it cannot parse as it was, and keeps every class it names', () => {
    const broken = site();
    broken.scripts.set('island.js', `${ISLAND} const broken = "px-4" +;`);
    const kept = classNames(broken);
    expect(kept.has('px-4')).toBe(false);
    expect(renameClasses(broken, kept).scripts.get('island.js')).toBe(broken.scripts.get('island.js'));
  });

  test('hashes a page’s changed script again in its Content-Security-Policy', () => {
    const policy = `<meta http-equiv="content-security-policy" content="script-src 'self' 'sha256-old='">`;
    const withPolicy = site();
    withPolicy.pages.set('index.html', PAGE.replace('<head>', `<head>${policy}`));
    const script = `document.body.classList.toggle("${short('text-ink-900')} ${short('px-4')}",true)`;
    const hash = createHash('sha256').update(script).digest('base64');
    const renamedPage = renameClasses(withPolicy, names).pages.get('index.html') ?? '';
    expect(renamedPage).toContain(`'sha256-${hash}'`);
    expect(renamedPage).not.toContain("'sha256-old='");
  });

  test('leaves a library’s own classes (outside a cascade layer) and a page’s styles as they are', () => {
    const withLibrary = site();
    withLibrary.stylesheets.set('chart.css', '.u-legend{margin:auto}');
    withLibrary.scripts.set('chart.js', 'export const l="u-legend";');
    withLibrary.pages.set('page.html', '<style>.rounded-xl>b{color:red}</style><p class="u-legend rounded-xl">z</p>');
    const kept = classNames(withLibrary);
    expect(kept.has('u-legend')).toBe(false);
    expect(kept.has('rounded-xl')).toBe(false);
    expect(renameClasses(withLibrary, kept).pages.get('page.html')).toBe(withLibrary.pages.get('page.html'));
  });

  test('renames nothing a stylesheet does not have a rule for', () => {
    expect(renameInStylesheet('.a-b{color:red}', new Map([['x-y', 'A']]))).toBe('.a-b{color:red}');
  });
});

describe('the integration', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'short-classes-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test('renames the classes in the built files and gives the stylesheets and scripts new names', async () => {
    mkdirSync(path.join(root, '_astro'));
    writeFileSync(path.join(root, 'index.html'), PAGE);
    writeFileSync(path.join(root, '_astro', 'site.BBBBBBBB.css'), CSS);
    writeFileSync(path.join(root, '_astro', 'island.CCCCCCCC.js'), ISLAND);
    writeFileSync(path.join(root, '_astro', 'jsx-runtime.AAAAAAAA.js'), 'export const jsx=()=>null;');
    writeFileSync(path.join(root, '_astro', 'logo.DDDDDDDD.svg'), '<svg/>');
    writeFileSync(path.join(root, '_headers'), '/\n  Link: </_astro/site.BBBBBBBB.css>; rel=preload\n');
    const logged: string[] = [];
    const logger = { info: (message: string) => logged.push(message) };
    const hook = shortClasses().hooks['astro:build:done'] as unknown as (options: object) => Promise<void>;
    await hook({ dir: pathToFileURL(`${root}/`), logger });

    const files = readdirSync(path.join(root, '_astro')).sort();
    const digest = /^site\.BBBBBBBB\.([\w-]{8})\.css$/.exec(files.find((file) => file.startsWith('site.')) ?? '')?.[1];
    expect(digest).toBeDefined();
    expect(files).toEqual(
      [
        `island.CCCCCCCC.${digest}.js`,
        `jsx-runtime.AAAAAAAA.${digest}.js`,
        'logo.DDDDDDDD.svg',
        `site.BBBBBBBB.${digest}.css`,
      ].sort(),
    );
    const page = readFileSync(path.join(root, 'index.html'), 'utf8');
    expect(page).toContain(`href="/_astro/site.BBBBBBBB.${digest}.css"`);
    expect(page).toContain(`component-url="/_astro/island.CCCCCCCC.${digest}.js"`);
    const names = classNames(site());
    expect(page).toContain(
      `<p class="${['rounded-xl', 'px-4', 'text-ink-900'].map((name) => names.get(name)).join(' ')}">`,
    );
    const island = readFileSync(path.join(root, '_astro', `island.CCCCCCCC.${digest}.js`), 'utf8');
    expect(island).toContain(`from"./jsx-runtime.AAAAAAAA.${digest}.js"`);
    expect(readFileSync(path.join(root, '_headers'), 'utf8')).toContain(`</_astro/site.BBBBBBBB.${digest}.css>`);
    expect(logged.join('\n')).toMatch(/^6 classes renamed; /);
  });
});
