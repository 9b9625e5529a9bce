/**
 * The CSS a page's first paint needs (criticalRules): the rules of the whole stylesheet that its
 * markup uses, for src/integrations/first-paint.ts to write into the page.
 */
import { selectAll, selectOne } from 'css-select';
import { DomUtils, parseDocument } from 'htmlparser2';
import postcss, { AtRule, type Declaration, type Root, type Rule } from 'postcss';

/**
 * Selectors of states no one sees in the first paint: pointer and keyboard states, the backdrop
 * of a closed dialog. The whole stylesheet, which has them, is applied before anyone can hover,
 * tab or open anything.
 */
const LATER_STATE = /(?<!\\):(?:hover|focus|focus-visible|focus-within|active)\b|(?<!\\)::backdrop/;
/** A pseudo-element: its rule applies when its element is on the page. */
const PSEUDO_ELEMENT = /(?<!\\)::?(?:before|after|placeholder|marker)\b/g;
/**
 * The marker of a `<summary>`, which Tailwind's `marker:` styles beside each `::marker`: its rule
 * applies where the page has one (`ul ::-webkit-details-marker` is a summary in a list,
 * `ul::-webkit-details-marker` a list that is one).
 */
const DETAILS_MARKER = /(^|[\s>+~])?::-webkit-details-marker\b/g;
/**
 * The parts of form controls that a stylesheet can reach, each with the elements that have them:
 * Tailwind's reset styles them all, a page needs only those of the controls it has.
 */
const CONTROL_PARTS: [RegExp, string][] = [
  [
    /^::-webkit-(?:date|datetime|calendar)[\w-]*$/,
    'input[type^=date],input[type=time],input[type=month],input[type=week]',
  ],
  [/^::file-selector-button$/, 'input[type=file]'],
  [/^::-webkit-search-[\w-]+$/, 'input[type=search]'],
  [/^::-webkit-(?:inner|outer)-spin-button$/, 'input[type=number]'],
  [/^::placeholder$/, '[placeholder]'],
];
/** Selectors of what no first paint shows: a selection, Firefox's focus and invalid-input states. */
const NEVER_AT_FIRST = /^(?:::selection|:-moz-focusring|:-moz-ui-invalid)\b/;

/**
 * Markup the first paint does not draw: a closed dialog, which the whole stylesheet styles before
 * anyone can open it, and what is there only without JavaScript. (A hidden element and a
 * template are kept: a page's script may show them at load.)
 */
const NOT_RENDERED = 'dialog:not([open]), noscript';

type Page = ReturnType<typeof parseDocument>;

/**
 * Whether a selector can match an element of the page. A selector the matcher cannot read (a
 * pseudo-class of a state, such as `:popover-open`) counts as matching: a rule too many costs
 * bytes, a rule too few a page drawn wrong until the stylesheet comes.
 */
function matches(selector: string, page: Page): boolean {
  if (NEVER_AT_FIRST.test(selector)) return false;
  const part = CONTROL_PARTS.find(([pattern]) => pattern.test(selector));
  const element = part
    ? part[1]
    : selector
        .replace(DETAILS_MARKER, (_, combinator?: string) =>
          combinator === undefined ? ':is(summary)' : `${combinator}summary`,
        )
        .replace(PSEUDO_ELEMENT, '')
        .trim() || '*';
  try {
    return selectOne(element, page) !== null;
  } catch {
    return true;
  }
}

/** Whether a declaration is one of the theme's values (Tailwind's `@layer theme { :root, :host { … } }`). */
function isThemeValue(decl: Declaration): boolean {
  const layer = decl.parent?.parent;
  return layer instanceof AtRule && layer.name === 'layer' && layer.params === 'theme';
}

/**
 * Each `var(--name)` and `var(--name, fallback)` in `value` given to `replace`, which returns
 * what stands in its place, or undefined to keep it (its fallback is still read).
 */
function replaceVars(value: string, replace: (name: string) => string | undefined): string {
  let result = '';
  let from = 0;
  for (let start = value.indexOf('var(', from); start !== -1; start = value.indexOf('var(', from)) {
    let depth = 0;
    let comma = -1;
    let end = start + 3;
    for (; end < value.length; end += 1) {
      const char = value[end];
      if (char === '(') depth += 1;
      else if (char === ')' && --depth === 0) break;
      else if (char === ',' && depth === 1 && comma === -1) comma = end;
    }
    const name = value.slice(start + 4, comma === -1 ? end : comma).trim();
    const fallback = comma === -1 ? '' : `,${replaceVars(value.slice(comma + 1, end), replace)}`;
    result += value.slice(from, start) + (replace(name) ?? `var(${name}${fallback})`);
    from = end + 1;
  }
  return result + value.slice(from);
}

/**
 * Writes the theme's values in place of the `var()`s that read them (`calc(var(--spacing)*4)`
 * becomes `calc(.25rem*4)`), where nothing else sets them: not another rule, not the markup's
 * `style` attributes. The page is drawn the same, and the browser has less to do before its first
 * paint: about a fifth less CSS to parse, and no variable to look up and parse again for each
 * element its rules match. The whole stylesheet keeps them for what the page's scripts draw later.
 */
function inlineThemeValues(root: Root, html: string): void {
  const theme = new Map<string, string>();
  const setElsewhere = new Set<string>();
  root.walkDecls(/^--/, (decl) => {
    if (isThemeValue(decl)) theme.set(decl.prop, decl.value);
    else setElsewhere.add(decl.prop);
  });
  for (const name of theme.keys()) if (setElsewhere.has(name) || html.includes(`${name}:`)) theme.delete(name);
  const resolve = (value: string, seen: Set<string>): string =>
    replaceVars(value, (name) => {
      const themed = theme.get(name);
      return themed === undefined || seen.has(name) ? undefined : resolve(themed, new Set([...seen, name]));
    });
  root.walkDecls((decl) => {
    if (!isThemeValue(decl) && decl.value.includes('var(')) decl.value = resolve(decl.value, new Set());
  });
}

/** The rules that only give custom properties their values: Tailwind's theme and property defaults. */
const isVariableBlock = (rule: Rule) => rule.nodes.every((node) => node.type === 'decl' && node.prop.startsWith('--'));

/**
 * Drops the theme's and the property defaults' custom properties that no kept rule reads, and the
 * registrations (`@property`) of those.
 */
function pruneVariables(root: Root): void {
  const blocks: Rule[] = [];
  const read = new Set<string>();
  const reads = (value: string) => [...value.matchAll(/var\((--[\w-]+)/g)].map(([, name]) => name ?? '');
  root.walkRules((rule) => {
    if (isVariableBlock(rule)) blocks.push(rule);
    else rule.walkDecls((decl) => reads(decl.value).forEach((name) => read.add(name)));
  });
  // A kept value can read another variable (--default-font-family reads --font-sans).
  for (let grown = true; grown;) {
    grown = false;
    for (const block of blocks)
      block.walkDecls((decl) => {
        if (!read.has(decl.prop)) return;
        for (const name of reads(decl.value))
          if (!read.has(name)) {
            read.add(name);
            grown = true;
          }
      });
  }
  for (const block of blocks)
    block.walkDecls((decl) => {
      if (!read.has(decl.prop)) decl.remove();
    });
  root.walkAtRules('property', (registration) => {
    if (!read.has(registration.params.trim())) registration.remove();
  });
}

/** Removes the rules and blocks the pruning left empty, inner ones first (a layer's name stays, as it sets the order). */
function dropEmpty(root: Root): void {
  for (let removed = true; removed;) {
    removed = false;
    root.walk((node) => {
      if ((node.type === 'rule' || (node.type === 'atrule' && node.name !== 'layer')) && node.nodes?.length === 0) {
        node.remove();
        removed = true;
      }
    });
  }
}

/** Drops the animations no kept rule runs (a dialog's, a toast's). */
function pruneKeyframes(root: Root): void {
  const run = new Set<string>();
  root.walkDecls(/^animation(?:-name)?$/, (decl) => decl.value.split(/[\s,]+/).forEach((word) => run.add(word)));
  root.walkAtRules(/keyframes$/, (rule) => {
    if (!run.has(rule.params)) rule.remove();
  });
}

/**
 * The rules of `css` that the first paint of `html` needs: those whose selectors match the markup
 * it draws, without pointer and keyboard states, transitions, print rules, and the custom
 * properties nothing reads (the theme's values are written where they are read).
 *
 * Tailwind's own custom properties (`--tw-shadow`, `--tw-border-style`) keep their registrations
 * (`@property`, with a starting value) and their fallback for browsers without those, which sets
 * them on every element and pseudo-element inside an `@supports` that only such browsers meet. A
 * browser that met the fallback too would style each element with a score of variables of its own:
 * in Chromium, with the fallback for all browsers, styling a sector page before its first paint
 * took 11.5 ms, and 6.8 ms with the registrations (medians of 5 runs).
 */
export function criticalRules(css: string, html: string): string {
  // The matcher does not look into a template, as a browser does not; a page's script may put
  // its content on the page at load, so it is read as any other markup.
  const page = parseDocument(html.replace(/<(\/?)template\b/g, '<$1template-content'));
  for (const element of selectAll(NOT_RENDERED, page)) DomUtils.removeElement(element);
  const root = postcss.parse(css);
  // Tailwind's licence banner stays in the whole stylesheet, which every page loads.
  root.walkComments((comment) => void comment.remove());
  root.walkAtRules('media', (rule) => {
    if (/\bprint\b|\(hover:\s*hover\)/.test(rule.params)) rule.remove();
  });
  root.walkRules((rule) => {
    if (rule.parent?.type === 'atrule' && 'name' in rule.parent && /keyframes$/.test(String(rule.parent.name))) return;
    const kept = rule.selectors.filter((selector) => !LATER_STATE.test(selector) && matches(selector, page));
    if (kept.length === 0) rule.remove();
    else rule.selectors = kept;
  });
  // A transition animates a change, and the first paint changes nothing: the whole stylesheet
  // brings them before anything does.
  root.walkDecls(/^(?:transition(?:-[a-z-]+)?|--tw-duration|--tw-ease)$/, (decl) => void decl.remove());
  inlineThemeValues(root, html);
  pruneVariables(root);
  pruneKeyframes(root);
  dropEmpty(root);
  return root.toString();
}
