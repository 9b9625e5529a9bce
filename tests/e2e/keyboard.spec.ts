import { expect } from '@playwright/test';
import { DESKTOP, testOnOnePage } from '../support/one-page';

/** Tabbing changes nothing a next load keeps: each test loads its page afresh on its worker's page. */
const test = testOnOnePage(DESKTOP);

/** Tabs through the whole page; every visible control must be reached, each with a visible focus ring. */
for (const route of ['/', '/zoho', '/blog/what-to-automate-first', '/contact']) {
  test(`every control on ${route} is reachable by keyboard with visible focus`, async ({ onePage: page }) => {
    await page.goto(route);
    const expected = await page.evaluate(
      () =>
        [
          ...document.querySelectorAll<HTMLElement>(
            'a[href], button, input, textarea, select, [tabindex]:not([tabindex="-1"])',
          ),
        ].filter(
          (element) =>
            element.tabIndex >= 0 &&
            !element.closest('[aria-hidden="true"], [hidden], dialog:not([open])') &&
            !(element as HTMLButtonElement).disabled &&
            element.getClientRects().length > 0,
        ).length,
    );
    const reached = new Set<string>();
    for (let step = 0; step < expected + 5; step += 1) {
      await page.keyboard.press('Tab');
      const focus = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        if (!element || element === document.body) return null;
        const style = getComputedStyle(element);
        const visible = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
        return {
          key: `${element.tagName}:${element.getAttribute('href') ?? ''}:${element.textContent?.trim().slice(0, 30) ?? ''}:${element.id}:${[...(element.parentElement?.children ?? [])].indexOf(element)}:${element.getBoundingClientRect().top + window.scrollY}`,
          visible,
        };
      });
      if (!focus) continue;
      expect(focus.visible, `no visible focus on ${focus.key}`).toBe(true);
      reached.add(focus.key);
    }
    expect(reached.size).toBeGreaterThanOrEqual(expected);
  });
}

test('the contact dialog works from the keyboard alone', async ({ onePage: page }) => {
  await page.goto('/');
  const opener = page.getByRole('main').getByRole('button', { name: 'Contact Us' });
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Contact Us / Request Demo' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Tab');
  expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});
