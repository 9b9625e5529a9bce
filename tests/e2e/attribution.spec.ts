import { expect, test, type Page, type Request } from '@playwright/test';
import { storedLead, storedSubscriber, uniqueEmail } from '../support/e2e-env';

/** A visit that starts from a campaign link on another site. */
const LANDING = '/?utm_source=newsletter&utm_medium=email&utm_campaign=november&utm_content=hero';
const FIRST_TOUCH = {
  landingPage: LANDING,
  referrer: 'news.example.org',
  utm_source: 'newsletter',
  utm_medium: 'email',
  utm_campaign: 'november',
  utm_content: 'hero',
};

/** The next POST the page sends to an endpoint: observed on its way to the real server, which stores it. */
function nextPost(page: Page, endpoint: string): Promise<Request> {
  return page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === endpoint);
}

/** The visit BaseLayout's script keeps for the forms (src/lib/attribution.ts), or null. */
async function storedVisit(page: Page): Promise<unknown> {
  return JSON.parse((await page.evaluate(() => sessionStorage.getItem('visit'))) ?? 'null');
}

/** Lands from the campaign link, then reaches `path` through the site's own links, as a person would. */
async function arriveAndGoTo(page: Page, linkName: string, path: string) {
  await page.goto(LANDING, { referer: 'https://news.example.org/issues/12' });
  await page.getByRole('banner').getByRole('link', { name: linkName, exact: true }).first().click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
}

test.describe('every form sends the page it is on and the first touch of the visit', () => {
  test('the footer signup', async ({ page }) => {
    await arriveAndGoTo(page, 'Contact', '/contact');
    const form = page.getByRole('form', { name: 'Newsletter signup' });
    const email = uniqueEmail('touch-footer');
    await form.getByLabel('Name').fill('Ada Lovelace');
    await form.getByLabel('E-mail').fill(email);
    const posted = nextPost(page, '/api/newsletter/subscribe');
    await form.getByRole('button', { name: 'Subscribe' }).click();
    expect((await posted).postDataJSON()).toMatchObject({ page: '/contact', attribution: FIRST_TOUCH });
    await expect(page.getByRole('region', { name: 'Notification' })).toContainText('Subscribed successfully!');
    expect(await storedSubscriber(email)).toMatchObject({ consent: { page: '/contact' }, attribution: FIRST_TOUCH });
  });

  test('the newsletter form of a blog post', async ({ page }) => {
    await arriveAndGoTo(page, 'Blog', '/blog');
    await page
      .getByRole('main')
      .getByRole('link', { name: /What to automate first/i })
      .first()
      .click();
    await expect(page).toHaveURL(/\/blog\/what-to-automate-first$/);
    const form = page.getByRole('form', { name: 'Newsletter', exact: true });
    await form.getByLabel('First name').fill('Grace');
    await form.getByLabel('Last name').fill('Hopper');
    const email = uniqueEmail('touch-blog');
    await form.getByLabel('E-mail').fill(email);
    const posted = nextPost(page, '/api/subscribers');
    await form.getByRole('button', { name: 'Subscribe' }).click();
    expect((await posted).postDataJSON()).toMatchObject({
      page: '/blog/what-to-automate-first',
      attribution: FIRST_TOUCH,
    });
    await expect(page.getByRole('region', { name: 'Notification' })).toContainText('Subscribed successfully!');
    expect(await storedSubscriber(email)).toMatchObject({
      consent: { page: '/blog/what-to-automate-first' },
      attribution: FIRST_TOUCH,
    });
  });

  test('the Zoho guide form', async ({ page }) => {
    await arriveAndGoTo(page, 'Zoho Integration', '/zoho');
    const form = page.getByRole('form', { name: 'Request the Zoho guide' });
    await form.getByLabel('First name').fill('Katherine');
    await form.getByLabel('Last name').fill('Johnson');
    const email = uniqueEmail('touch-guide');
    await form.getByLabel('E-mail').fill(email);
    const posted = nextPost(page, '/api/leads/create');
    await form.getByRole('button', { name: 'Send me the guide' }).click();
    expect((await posted).postDataJSON()).toMatchObject({
      source: 'zoho_guide',
      page: '/zoho',
      attribution: FIRST_TOUCH,
    });
    await expect(form.getByRole('status')).toBeVisible();
    expect(await storedLead(email)).toMatchObject({ page: '/zoho', attribution: FIRST_TOUCH });
  });

  test('the contact form in the dialog, on the landing page itself', async ({ page }) => {
    await page.goto(LANDING, { referer: 'https://news.example.org/issues/12' });
    await page.getByRole('main').getByRole('button', { name: 'Contact Us' }).click();
    const form = page.getByRole('dialog', { name: 'Contact Us / Request Demo' }).getByRole('form');
    await form.getByLabel('Name').fill('Dorothy Vaughan');
    const email = uniqueEmail('touch-contact');
    await form.getByLabel('E-mail').fill(email);
    await form.getByLabel('How can we help?').fill('Our invoices take a day a week.');
    const posted = nextPost(page, '/api/leads/create');
    await form.getByRole('button', { name: 'Send message' }).click();
    expect((await posted).postDataJSON()).toMatchObject({
      source: 'contact_form',
      page: LANDING,
      attribution: FIRST_TOUCH,
    });
    await expect(form.getByRole('status')).toBeVisible();
    expect(await storedLead(email)).toMatchObject({ page: LANDING, attribution: FIRST_TOUCH });
  });
});

test.describe('the first touch', () => {
  test('of a direct visit is its landing page alone, and another tab starts its own', async ({ page, context }) => {
    await page.goto('/zoho');
    await expect.poll(() => storedVisit(page)).toEqual({ page: '/zoho', attribution: { landingPage: '/zoho' } });

    const other = await context.newPage();
    await other.goto('/blog?utm_source=linkedin', { referer: 'https://www.linkedin.com/' });
    await expect
      .poll(() => storedVisit(other))
      .toEqual({
        page: '/blog?utm_source=linkedin',
        attribution: { landingPage: '/blog?utm_source=linkedin', referrer: 'www.linkedin.com', utm_source: 'linkedin' },
      });
  });

  test('is recorded before the landing page has loaded, so a link followed at once keeps it', async ({ page }) => {
    await page.goto(LANDING, { referer: 'https://news.example.org/issues/12', waitUntil: 'domcontentloaded' });
    // The page's own script records it as the document is read, before its load event.
    expect(await storedVisit(page)).toEqual({ page: LANDING, attribution: FIRST_TOUCH });
    await page.getByRole('banner').getByRole('link', { name: 'Contact', exact: true }).first().click();
    await expect(page).toHaveURL(/\/contact$/);
    // The next page records itself; the first touch is the landing page's.
    expect(await storedVisit(page)).toEqual({ page: '/contact', attribution: FIRST_TOUCH });
  });

  test("never keeps an e-mailed link's token, and sets no cookie", async ({ page, context }) => {
    await page.goto('/newsletter/unsubscribe?token=not-a-real-token-but-long-enough&utm_source=mail');
    await page.getByRole('banner').getByRole('link', { name: 'Zoho Integration', exact: true }).first().click();
    const form = page.getByRole('form', { name: 'Request the Zoho guide' });
    await form.getByLabel('First name').fill('Mary');
    await form.getByLabel('Last name').fill('Jackson');
    await form.getByLabel('E-mail').fill(uniqueEmail('touch-token'));
    const posted = nextPost(page, '/api/leads/create');
    await form.getByRole('button', { name: 'Send me the guide' }).click();
    const body = (await posted).postDataJSON() as { attribution: unknown };
    expect(body.attribution).toEqual({ landingPage: '/newsletter/unsubscribe?utm_source=mail', utm_source: 'mail' });
    expect(JSON.stringify(body)).not.toContain('not-a-real-token');
    expect(await context.cookies()).toEqual([]);
  });
});
