/**
 * The honeypot: every form a visitor can send carries a field that people never see and
 * assistive technology never announces, and a submission that fills it gets the ordinary answer
 * while nothing is stored.
 */
import { expect, test } from '@playwright/test';
import { FORMS } from '../support/forms';
import { storedLeads, storedSubscriber, uniqueEmail } from '../support/e2e-env';
import { expectHiddenHoneypot } from '../support/honeypot';

const SPAM = 'http://spam.example';

test.describe('every form carries a hidden honeypot', () => {
  // Each route's forms are checked on the visit of every route (routes.spec.ts).
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
