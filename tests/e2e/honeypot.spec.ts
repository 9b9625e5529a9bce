/**
 * The honeypot: every form a visitor can send carries a field that people never see and
 * assistive technology never announces, and a submission that fills it gets the ordinary answer
 * while nothing is stored.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { FORMS } from '../support/forms';
import { storedLeads, storedSubscriber, uniqueEmail } from '../support/e2e-env';
import { ALL_ROUTES } from '../support/routes';

const SPAM = 'http://spam.example';

/** Checks the form's honeypot: one text input named "website", off-screen, out of the tab order and of the accessibility tree. */
async function expectHiddenHoneypot(page: Page, form: Locator) {
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

test.describe('every form carries a hidden honeypot', () => {
  for (const route of [...ALL_ROUTES, '/no-such-page']) {
    test(`on ${route}`, async ({ page }) => {
      await page.goto(route);
      // The forms a visitor can send (the admin's own login, drawn once its island runs, aside);
      // the contact dialog's is checked open, below.
      const forms = page.locator('form:not([aria-label="Admin login"])').filter({ visible: true });
      const names: string[] = [];
      for (const form of await forms.all()) {
        const name = (await form.getAttribute('aria-label')) ?? '(unnamed form)';
        names.push(name);
        await test.step(name, () => expectHiddenHoneypot(page, form));
      }
      // Every page has at least the footer signup.
      expect(names).toContain('Newsletter signup');
    });
  }

  test('in the contact dialog', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('main').getByRole('button', { name: 'Contact Us' }).click();
    const form = page
      .getByRole('dialog', { name: 'Contact Us / Request Demo' })
      .getByRole('form', { name: 'Contact form' });
    await expect(form).toBeVisible();
    await expectHiddenHoneypot(page, form);
  });
});

test.describe('a filled honeypot', () => {
  for (const form of FORMS) {
    test(`in ${form.name} gets the ordinary answer and nothing is stored`, async ({ page }) => {
      const email = uniqueEmail('honeypot');
      const locator = await form.open(page);
      for (const [label, value] of Object.entries(form.fields(email)))
        await locator.getByLabel(label, { exact: true }).fill(value);
      // A bot fills every input it finds, the one people never see included.
      await locator.locator('input[name="website"]').fill(SPAM, { force: true });
      const sent = page.waitForRequest(
        (request) => request.method() === 'POST' && new URL(request.url()).pathname === form.endpoint,
      );
      await locator.getByRole('button', { name: form.button }).click();
      expect((await sent).postDataJSON()).toMatchObject({ email, website: SPAM });
      await expect(form.success(page, locator)).toBeVisible();
      await expect(page.getByRole('alert')).toHaveCount(0);
      expect(await storedSubscriber(email)).toBeUndefined();
      expect(await storedLeads(email)).toEqual([]);
    });
  }
});
