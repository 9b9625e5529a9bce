/** The forms' honeypot as people, keyboards and assistive technology meet it, for the specs that check it. */
import { expect, type Locator, type Page } from '@playwright/test';

/** Checks the form's honeypot: one text input named "website", off-screen, out of the tab order and of the accessibility tree. */
export async function expectHiddenHoneypot(page: Page, form: Locator) {
  const honeypot = form.locator('input[name="website"]');
  await expect(honeypot).toHaveCount(1);
  await expect(honeypot).toHaveAttribute('type', 'text');
  await expect(honeypot).toHaveAttribute('tabindex', '-1');
  await expect(honeypot).toHaveAttribute('autocomplete', 'off');
  // Assistive technology: not in the accessibility tree, though it is in the form.
  await expect(form.getByRole('textbox', { name: 'Website' })).toHaveCount(0);
  await expect(form.getByRole('textbox', { name: 'Website', includeHidden: true })).toHaveCount(1);
  // People: drawn wholly outside the page, to the left, where no scrolling reaches.
  const box = await honeypot.boundingBox();
  expect(box, 'the honeypot is not rendered at all').not.toBeNull();
  const scrollX = await page.evaluate(() => window.scrollX);
  expect((box?.x ?? 0) + scrollX + (box?.width ?? 0)).toBeLessThanOrEqual(0);
}
