import { expect, test } from '@playwright/test';
import { GUIDE_PATHS } from '../../src/shared/pages';
import { uniqueEmail } from '../support/e2e-env';
import { mailsTo } from '../support/e2e-outbox';

const GUIDE = GUIDE_PATHS.zoho_guide;

test.describe('the guide sent to Zoho guide leads', () => {
  test('a request on /zoho gets an e-mail whose link opens the guide', async ({ page }) => {
    const email = uniqueEmail('guide-mail');
    await page.goto('/zoho');
    const form = page.getByRole('form', { name: 'Request the Zoho guide' });
    await form.getByLabel('First name').fill('Katherine');
    await form.getByLabel('Last name').fill('Johnson');
    await form.getByLabel('E-mail').fill(email);
    await form.getByRole('button', { name: 'Send me the guide' }).click();
    await expect(form.getByRole('status')).toBeVisible();

    await expect.poll(async () => (await mailsTo(email)).length).toBe(1);
    const [mail] = await mailsTo(email);
    const text = mail?.text ?? '';
    const guideLink = new RegExp(`https?://[^\\s/]+${GUIDE}\\b`).exec(text)?.[0];
    expect(guideLink, text).toBeDefined();
    await page.goto(guideLink ?? '');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Connecting Zoho and Google Workspace');
  });

  test('reads as a guide, and its button opens the print dialog', async ({ page }) => {
    // The print dialog itself is the browser's: the page's part is to ask for it.
    await page.addInitScript(() => {
      window.print = () => document.documentElement.setAttribute('data-print-requested', 'true');
    });
    await page.goto(GUIDE);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Connecting Zoho and Google Workspace');
    await expect(page.getByRole('heading', { level: 2, name: /Checklist/ })).toBeVisible();
    const print = page.getByRole('button', { name: 'Save as PDF / Print' });
    await print.click();
    await expect(page.locator('html')).toHaveAttribute('data-print-requested', 'true');
  });

  test('keeps the place of its print button while the script that shows it loads', async ({ browser }) => {
    // On a phone the button wraps under the date: were its place left empty until the script ran,
    // the guide's text would move down when it appeared.
    const heights = [];
    for (const javaScriptEnabled of [false, true]) {
      const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(GUIDE);
      const print = page.getByRole('button', { name: 'Save as PDF / Print', includeHidden: true });
      if (javaScriptEnabled) await expect(print).toBeVisible();
      else await expect(print).toBeHidden();
      heights.push(await page.locator('article > header').evaluate((header) => header.getBoundingClientRect().height));
      await context.close();
    }
    expect(heights[0]).toBeGreaterThan(0);
    expect(heights[0]).toBe(heights[1]);
  });

  test('prints without the site around it, with the address of every outside link', async ({ page }) => {
    await page.goto(GUIDE);
    await expect(page.getByRole('button', { name: 'Save as PDF / Print' })).toBeVisible();
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('banner')).toBeHidden();
    await expect(page.getByRole('contentinfo')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Save as PDF / Print' })).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    const outside = page.getByRole('main').locator('.prose a[href^="https://"]').first();
    const href = await outside.getAttribute('href');
    expect(await outside.evaluate((link) => getComputedStyle(link, '::after').content)).toBe(`" (${href})"`);
    const contact = page.getByRole('link', { name: 'Contact us' });
    expect(await contact.evaluate((link) => getComputedStyle(link, '::after').content)).toMatch(
      /^" \(https?:\/\/[^/]+\/contact\)"$/,
    );
    const heading = page.getByRole('heading', { level: 2 }).first();
    expect(await heading.evaluate((element) => getComputedStyle(element).breakAfter)).toBe('avoid');

    const pdf = await page.pdf({ format: 'A4' });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
