/** Logging in on the admin page, as the owner does, for the e2e specs that need the dashboard. */
import { expect, type Page } from '@playwright/test';
import { E2E_ADMIN_PASSWORD } from './e2e-env';

/** Opens /admin/insights on `origin` (the run's server when empty) and logs in; waits for the dashboard. */
export async function logIn(page: Page, origin = '') {
  await page.goto(`${origin}/admin/insights`);
  const form = page.getByRole('form', { name: 'Admin login' });
  await form.getByLabel('Password').fill(E2E_ADMIN_PASSWORD);
  await form.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
}
