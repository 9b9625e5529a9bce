/**
 * A form's button is live from the start: pressed as soon as the page has loaded, before anyone
 * could have reached for the form and so before its island has run, it shows the form's messages.
 */
import { expect, test } from '@playwright/test';
import { islandRan } from '../support/forms';

test('Subscribe under a blog post, pressed at load on an empty form, shows the three messages', async ({ page }) => {
  await page.goto('/blog/what-to-automate-first');
  const form = page.getByRole('form', { name: 'Newsletter', exact: true });
  expect(await islandRan(form), 'the form has not run before anyone reaches for it').toBe(false);
  await form.getByRole('button', { name: 'Subscribe' }).click();
  await expect(form.getByText('First name is required')).toBeVisible();
  await expect(form.getByText('Last name is required')).toBeVisible();
  await expect(form.getByText('Please enter a valid email address')).toBeVisible();
  expect(new URL(page.url()).search, 'the browser sent nothing itself').toBe('');
});

test('Subscribe in the footer, pressed at load on an empty form, shows its messages', async ({ page }) => {
  await page.goto('/sectors/saas');
  const form = page.getByRole('form', { name: 'Newsletter signup' });
  expect(await islandRan(form), 'the footer is far below the first screen').toBe(false);
  await form.getByRole('button', { name: 'Subscribe' }).click();
  await expect(form.getByText('Name is required')).toBeVisible();
  await expect(form.getByText('Please enter a valid email address')).toBeVisible();
  expect(new URL(page.url()).search, 'the browser sent nothing itself').toBe('');
});

test('Send me the guide on the Zoho page, pressed at load on an empty form, asks for each field', async ({ page }) => {
  await page.goto('/zoho');
  const form = page.getByRole('form', { name: 'Request the Zoho guide' });
  await form.getByRole('button', { name: 'Send me the guide' }).click();
  // The browser checks the fields first, as the specification asks: the first empty one is named.
  const first = form.getByLabel('First name');
  await expect(first).toBeFocused();
  expect(await first.evaluate((input: HTMLInputElement) => input.validationMessage)).not.toBe('');
  for (const label of ['First name', 'Last name', 'E-mail'])
    expect(await form.getByLabel(label).evaluate((input: HTMLInputElement) => input.validity.valueMissing)).toBe(true);
  expect(new URL(page.url()).search, 'the browser sent nothing itself').toBe('');
});
