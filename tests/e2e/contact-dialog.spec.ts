import { expect, test, type Page } from '@playwright/test';
import { storedLead, uniqueEmail } from '../support/e2e-env';
import { DESKTOP, testOnOnePage } from '../support/one-page';

/** Opening and closing the dialog changes nothing a next load keeps: those tests share their worker's page. */
const onOnePage = testOnOnePage({ ...DESKTOP, viewport: { width: 1280, height: 800 } });

const dialogOf = (page: Page) => page.getByRole('dialog', { name: 'Contact Us / Request Demo' });

const OPENERS = [
  { page: '/', name: 'Contact Us' },
  { page: '/', name: 'Get Started' },
  { page: '/mini-apps', name: 'Request Demo of Glossary Builder' },
  { page: '/mini-apps/client-service-chatbot', name: 'Request Demo' },
  { page: '/sectors/restaurant', name: 'Schedule a Consultation' },
];

onOnePage.describe('contact dialog', () => {
  for (const opener of OPENERS) {
    onOnePage(
      `opens from "${opener.name}" on ${opener.page} and closes with Escape, returning focus`,
      async ({ onePage: page }) => {
        await page.goto(opener.page);
        const button = page.getByRole('button', { name: opener.name, exact: true }).first();
        await button.click();
        const dialog = dialogOf(page);
        await expect(dialog).toBeVisible();
        await expect(dialog.getByRole('heading', { name: 'Contact Us / Request Demo' })).toBeVisible();
        await expect(dialog.getByText(/within 24 hours/).first()).toBeVisible();
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
        await expect(button).toBeFocused();
      },
    );
  }

  onOnePage('the close button closes it and focus returns to the opener', async ({ onePage: page }) => {
    await page.goto('/');
    const opener = page.getByRole('main').getByRole('button', { name: 'Contact Us' });
    await opener.click();
    await dialogOf(page).getByRole('button', { name: 'Close' }).click();
    await expect(dialogOf(page)).toBeHidden();
    await expect(opener).toBeFocused();
  });

  onOnePage('keeps keyboard focus inside while open', async ({ onePage: page }) => {
    await page.goto('/');
    await page.getByRole('main').getByRole('button', { name: 'Contact Us' }).click();
    const dialog = dialogOf(page);
    for (let step = 0; step < 8; step += 1) {
      await page.keyboard.press('Tab');
      const inside = await dialog.evaluate(
        (element) => element.contains(document.activeElement) || document.activeElement === document.body,
      );
      expect(inside).toBe(true);
    }
  });

  onOnePage('opened with the keyboard, it works without a mouse', async ({ onePage: page }) => {
    await page.goto('/sectors/saas');
    const opener = page.getByRole('button', { name: 'Schedule a Consultation' }).first();
    await opener.focus();
    await page.keyboard.press('Enter');
    await expect(dialogOf(page)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(opener).toBeFocused();
  });
});

test.describe('contact dialog on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('a sent message is answered where the person can see it', async ({ page }) => {
    const email = uniqueEmail('dialog-phone');
    await page.goto('/');
    await page.getByRole('main').getByRole('button', { name: 'Contact Us' }).click();
    const dialog = dialogOf(page);
    await dialog.getByLabel('Name').fill('Mary Jackson');
    await dialog.getByLabel('E-mail').fill(email);
    await dialog.getByLabel('How can we help?').fill('Our invoices are typed by hand twice a week.');
    await dialog.getByRole('button', { name: 'Send message' }).click();
    const answer = dialog.getByRole('status');
    await expect(answer).toHaveText(
      'Thank you! Your message is on its way. We reply to every message within 24 hours.',
    );
    // Seen, not only announced: the whole message inside the dialog's scrolling area and the screen.
    await expect(answer).toBeInViewport({ ratio: 1 });
    expect(await storedLead(email)).toMatchObject({ name: 'Mary Jackson', source: 'contact_form' });
  });
});
