import { expect, test } from '@playwright/test';
import { NEWSLETTER_PATHS } from '../../src/shared/pages';
import { expectNoViolations } from '../support/axe';
import { e2eOrigin } from '../support/e2e-env';
import { linkTo, mailsTo } from '../support/e2e-outbox';
import { proofFrom } from '../support/solved-proofs';
import { POSTS_WITH_TABLE } from '../support/routes';

test.describe('no WCAG 2.2 A/AA violation', () => {
  // Every route as it loads is checked on its visit in routes.spec.ts; here, the states a person opens.
  test('with the contact dialog open', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('main').getByRole('button', { name: 'Contact Us' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoViolations(page);
  });

  test('with the mobile menu open', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/blog');
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeVisible();
    await expectNoViolations(page);
  });

  for (const slug of POSTS_WITH_TABLE) {
    test(`on /blog/${slug} on a 320 px phone, where a table may scroll inside its box`, async ({ page }) => {
      await page.setViewportSize({ width: 320, height: 640 });
      await page.goto(`/blog/${slug}`);
      await expectNoViolations(page);
    });
  }

  test('with every form showing its validation errors and a toast on screen', async ({ page }) => {
    await page.goto('/blog/what-to-automate-first');
    const newsletter = page.getByRole('form', { name: 'Newsletter', exact: true });
    await newsletter.scrollIntoViewIfNeeded();
    await newsletter.getByRole('button', { name: 'Subscribe' }).click();
    await expect(newsletter.getByText('First name is required')).toBeVisible();
    const footer = page.getByRole('form', { name: 'Newsletter signup' });
    await footer.scrollIntoViewIfNeeded();
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    await expect(footer.getByText('Name is required')).toBeVisible();
    await page.getByRole('button', { name: 'Get Started' }).first().click();
    const contact = page.getByRole('dialog').getByRole('form', { name: 'Contact form' });
    await contact.getByRole('button', { name: 'Send message' }).click();
    await expect(contact.getByText('Please tell us a little about what you need')).toBeVisible();
    await expectNoViolations(page);
    await page.keyboard.press('Escape');
    await newsletter.getByLabel('First name').fill('Ada');
    await newsletter.getByLabel('Last name').fill('Lovelace');
    await newsletter.getByLabel('E-mail').fill(`axe.${Date.now()}@example.com`);
    await newsletter.getByRole('button', { name: 'Subscribe' }).click();
    const toast = page.getByRole('region', { name: 'Notification' }).getByRole('listitem');
    await expect(toast).toBeVisible();
    // Checked once it has finished sliding and fading in: mid-animation, its text is not yet at full contrast.
    await toast.evaluate((element) =>
      Promise.all(element.getAnimations({ subtree: true }).map((animation) => animation.finished)),
    );
    await expectNoViolations(page);
  });

  test('with the newsletter link pages showing their outcome', async ({ page, request }) => {
    const email = `axe.optin.${Date.now()}@example.com`;
    const subscribed = await request.post('/api/newsletter/subscribe', {
      data: { email, firstName: 'Ada Lovelace', source: 'website_footer', altcha: await proofFrom(e2eOrigin) },
    });
    expect(subscribed.ok()).toBe(true);
    await expect.poll(async () => (await mailsTo(email)).length).toBe(1);
    const [mail] = await mailsTo(email);
    if (!mail) throw new Error(`no e-mail to ${email}`);
    await page.goto(linkTo(mail, NEWSLETTER_PATHS.confirm));
    await expectNoViolations(page);
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Your subscription is confirmed' })).toBeFocused();
    await expectNoViolations(page);
    await page.goto(linkTo(mail, NEWSLETTER_PATHS.unsubscribe));
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeFocused();
    await expectNoViolations(page);
  });

  test('with the guide form showing its result', async ({ page }) => {
    await page.goto('/zoho');
    const form = page.getByRole('form', { name: 'Request the Zoho guide' });
    await form.scrollIntoViewIfNeeded();
    await form.getByLabel('First name').fill('Ada');
    await form.getByLabel('Last name').fill('Lovelace');
    await form.getByLabel('E-mail').fill(`axe.guide.${Date.now()}@example.com`);
    await form.getByRole('button', { name: 'Send me the guide' }).click();
    await expect(form.getByRole('status')).toBeVisible();
    await expectNoViolations(page);
  });
});

test.describe('with forced colours (Windows High Contrast)', () => {
  test.use({ forcedColors: 'active' });

  /** The width of an element's top border, as drawn. */
  const border = (locator: import('@playwright/test').Locator) =>
    locator.evaluate((element) => Number.parseFloat(getComputedStyle(element).borderTopWidth));

  test('fields, buttons and the contact dialog keep an edge once their shadows are gone', async ({ page }) => {
    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'Contact form' });
    await form.scrollIntoViewIfNeeded();
    for (const control of [
      form.getByLabel('E-mail'),
      form.getByLabel('How can we help?'),
      form.getByRole('button', { name: 'Send message' }),
    ])
      expect(
        await border(control),
        await control.evaluate((element) => element.outerHTML.slice(0, 80)),
      ).toBeGreaterThan(0);
    await page.getByRole('banner').getByRole('button', { name: 'Get Started' }).click();
    const dialog = page.getByRole('dialog', { name: 'Contact Us / Request Demo' });
    await expect(dialog).toBeVisible();
    expect(await border(dialog)).toBeGreaterThan(0);
  });
});
