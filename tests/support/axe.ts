/** axe on a page as it is now, for the specs that check accessibility. */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import type * as Axe from 'axe-core';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

declare global {
  interface Window {
    axe?: typeof Axe;
  }
}

/** The rules of WCAG 2.2 levels A and AA (axe tags each rule with the version that added it). */
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Frames that run no script (the admin's e-mail preview): axe cannot run inside one and would wait
 * on it for ever. What they show is an e-mail, not the page.
 */
const SCRIPTLESS_FRAMES = 'iframe[sandbox]:not([sandbox~="allow-scripts"])';

/** axe-core itself, the same build @axe-core/playwright injects. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe's WCAG 2.2 A/AA rules and expects no violation. A page without frames to look into (every
 * public page) gets axe-core run in it directly: @axe-core/playwright's `analyze()` runs axe in
 * every frame and then again in a new blank page to merge the frames' results, which took 2.5 to
 * 5 s a page here against 0.3 to 1 s for the same rules run once. A page with frames goes through
 * `analyze()`, which reads inside them.
 */
export async function expectNoViolations(page: Page) {
  const frames = await page.locator(`iframe:not(${SCRIPTLESS_FRAMES})`).count();
  const violations = frames > 0 ? await analyzeWithFrames(page) : await analyze(page);
  expect(violations).toEqual([]);
}

/** Each violation as `rule: where`, the targets of its nodes joined. */
const described = (violations: Axe.Result[]) =>
  violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);

async function analyze(page: Page): Promise<string[]> {
  // Evaluated through the browser's debugging protocol, which the page's Content-Security-Policy does not govern.
  if (!(await page.evaluate(() => window.axe !== undefined))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(
    async ({ tags, exclude }) => {
      if (!window.axe) throw new Error('axe-core did not load in the page');
      const results = await window.axe.run(
        { exclude: [exclude] },
        // Only violations are read: axe then skips gathering the details of every rule that passed.
        { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] },
      );
      return results.violations;
    },
    { tags: WCAG, exclude: SCRIPTLESS_FRAMES },
  );
  return described(violations);
}

async function analyzeWithFrames(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(WCAG)
    .exclude(SCRIPTLESS_FRAMES)
    .options({ resultTypes: ['violations'] })
    .analyze();
  return described(violations);
}
