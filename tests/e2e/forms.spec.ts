import { expect, test, type Page } from '@playwright/test';
import { islandRan } from '../support/forms';
import { brokenOrigin, storedLead, storedLeads, storedSubscriber, uniqueEmail } from '../support/e2e-env';

const POST = '/blog/what-to-automate-first';

/**
 * Holds each submission to an endpoint until the test lets it go, so the submitting state can be
 * seen. A gate, not a delay: on a slow machine a delay can run out before the test looks.
 */
async function holdSubmissions(page: Page, path: string) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**${path}`, async (route) => {
    await gate;
    await route.continue();
  });
  return release;
}

function blogForm(page: Page) {
  return page.getByRole('form', { name: 'Newsletter', exact: true });
}

test.describe('newsletter form on a blog post', () => {
  test('shows the validation messages and sends nothing while they stand', async ({ page }) => {
    let posted = false;
    page.on('request', (request) => {
      if (request.url().includes('/api/subscribers')) posted = true;
    });
    await page.goto(POST);
    const form = blogForm(page);
    await form.getByLabel('E-mail').fill('not-an-address');
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(form.getByText('First name is required')).toBeVisible();
    await expect(form.getByText('Last name is required')).toBeVisible();
    await expect(form.getByText('Please enter a valid email address')).toBeVisible();
    await expect(form.getByLabel('First name')).toHaveAttribute('aria-invalid', 'true');
    expect(posted).toBe(false);
  });

  /**
   * The blog post with its newsletter form's script held back until the test lets it go, so that a
   * press or a keystroke lands before the island has run, as a first tap does on a slow phone. The
   * hold is a gate, not a delay: a slow machine cannot let the script in early.
   */
  async function postWithHeldForm(page: Page) {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/_astro/NewsletterSignup.*.js', async (route) => {
      await gate;
      await route.continue();
    });
    await page.goto(POST);
    return { form: blogForm(page), release };
  }

  test('a first press of Subscribe made while the form is still loading is not lost', async ({ page }) => {
    const { form, release } = await postWithHeldForm(page);
    const subscribe = form.getByRole('button', { name: 'Subscribe' });
    await expect(subscribe).toBeEnabled();
    await subscribe.click();
    expect(await islandRan(form), 'pressed before the island ran').toBe(false);
    release();
    await expect(form.getByText('First name is required')).toBeVisible();
    await expect(form.getByText('Last name is required')).toBeVisible();
    await expect(form.getByText('Please enter a valid email address')).toBeVisible();
    // The browser made no send of its own: the page is where it was.
    expect(new URL(page.url()).search).toBe('');
  });

  test('Enter in a field while the form is still loading sends it once it has come', async ({ page }) => {
    const { form, release } = await postWithHeldForm(page);
    await form.getByLabel('First name').focus();
    await page.keyboard.press('Enter');
    expect(await islandRan(form), 'pressed before the island ran').toBe(false);
    release();
    await expect(form.getByText('First name is required')).toBeVisible();
    await expect(form.getByText('Please enter a valid email address')).toBeVisible();
  });

  test('what is typed while the form is still loading is kept once it has come', async ({ page }) => {
    const { form, release } = await postWithHeldForm(page);
    await form.getByLabel('First name').fill('Grace');
    await form.getByLabel('E-mail').fill('not-an-address');
    expect(await islandRan(form), 'typed before the island ran').toBe(false);
    release();
    await expect.poll(() => islandRan(form)).toBe(true);
    await expect(form.getByLabel('First name')).toHaveValue('Grace');
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(form.getByText('Last name is required')).toBeVisible();
    await expect(form.getByText('First name is required')).toHaveCount(0);
    await expect(form.getByText('Please enter a valid email address')).toBeVisible();
  });

  test('subscribes: "Subscribing...", a success toast, an empty form and the record stored', async ({ page }) => {
    const email = uniqueEmail('blog');
    const release = await holdSubmissions(page, '/api/subscribers');
    await page.goto(POST);
    const form = blogForm(page);
    await form.getByLabel('First name').fill('Zoë');
    await form.getByLabel('Last name').fill('1234');
    await form.getByLabel('E-mail').fill(`  ${email.toUpperCase()} `);
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(form.getByRole('button', { name: 'Subscribing...' })).toBeDisabled();
    release();

    const toast = page.getByRole('region', { name: 'Notification' }).getByRole('listitem');
    // The specification's title and description, word for word, then the line about confirming.
    await expect(toast.getByText('Subscribed successfully!', { exact: true })).toBeVisible();
    await expect(toast).toContainText(
      'Thank you for subscribing to our newsletter. Please check your inbox and confirm with the link we sent you.',
    );
    await expect(form.getByLabel('First name')).toHaveValue('');
    await expect(form.getByLabel('E-mail')).toHaveValue('');
    await expect(form.getByRole('button', { name: 'Subscribe' })).toBeEnabled();

    expect(await storedSubscriber(email)).toMatchObject({
      email,
      firstName: 'Zoë',
      lastName: '1234',
      sources: ['newsletter_footer'],
    });
  });
});

test.describe('footer signup', () => {
  test('sends the full name as firstName with source website_footer', async ({ page }) => {
    const email = uniqueEmail('footer');
    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'Newsletter signup' });
    await form.getByLabel('Name').fill('Ada Lovelace');
    await form.getByLabel('E-mail').fill(email);
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByRole('region', { name: 'Notification' })).toContainText('Subscribed successfully!');
    await expect(form.getByLabel('Name')).toHaveValue('');
    const record = await storedSubscriber(email);
    expect(record).toMatchObject({ firstName: 'Ada Lovelace', sources: ['website_footer'] });
    expect(record?.lastName).toBeUndefined();
  });

  test('sent from the keyboard, the focus is back on Subscribe once it is done, not lost to the page', async ({
    page,
  }) => {
    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'Newsletter signup' });
    await form.getByLabel('Name').fill('Ada Lovelace');
    await form.getByLabel('E-mail').fill(uniqueEmail('keyboard'));
    const button = form.getByRole('button', { name: 'Subscribe' });
    await expect.poll(() => islandRan(form)).toBe(true);
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('region', { name: 'Notification' })).toContainText('Subscribed successfully!');
    await expect(button).toBeFocused();
  });

  test('a connection lost after the form loaded still gets its failure toast, and the next success its own', async ({
    page,
    context,
  }) => {
    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'Newsletter signup' });
    await form.getByLabel('Name').fill('Ada Lovelace');
    await form.getByLabel('E-mail').fill(uniqueEmail('offline'));
    // The form has run, and the toaster with it, before the connection drops.
    await expect.poll(() => islandRan(form)).toBe(true);
    await expect(page.locator('astro-island[component-export="Toaster"]:not([ssr])')).toHaveCount(1);
    await context.setOffline(true);
    await form.getByRole('button', { name: 'Subscribe' }).click();
    const region = page.getByRole('region', { name: 'Notification' });
    await expect(region).toContainText('Subscription failed');
    await expect(form.getByLabel('Name')).toHaveValue('Ada Lovelace');
    await context.setOffline(false);
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(region).toContainText('Subscribed successfully!');
  });

  test('a toaster whose script could not be fetched comes with the next toast', async ({ page }) => {
    let blocked = true;
    let refused = 0;
    let failedHydrations = 0;
    page.on('console', (message) => {
      if (/Error hydrating \S*\/Toaster\./.test(message.text())) failedHydrations += 1;
    });
    // The toaster's script only: the page's stylesheet may carry the same name (Toaster.*.css),
    // and refusing it too made a third refusal that a poll for two only missed when it looked early.
    await page.route(
      (url) => /\/Toaster\.[\w-]+\.js$/.test(url.pathname),
      async (route) => {
        if (!blocked) return route.continue();
        refused += 1;
        return route.abort('internetdisconnected');
      },
    );
    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'Newsletter signup' });
    await form.getByLabel('Name').fill('Ada Lovelace');
    await form.getByLabel('E-mail').fill(uniqueEmail('toaster'));
    await expect.poll(() => islandRan(form)).toBe(true);
    // Astro's loader tries twice, a second apart; both fail. Once it has reported the island as not
    // hydrated, the hydration is over and the next toast starts a new one, which may fetch again.
    await expect.poll(() => refused, { timeout: 10_000 }).toBe(2);
    await expect.poll(() => failedHydrations).toBe(1);
    blocked = false;
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByRole('region', { name: 'Notification' })).toContainText('Subscribed successfully!');
  });

  test('says "Name is required" and checks the address before sending', async ({ page }) => {
    await page.goto('/');
    const form = page.getByRole('form', { name: 'Newsletter signup' });
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(form.getByText('Name is required')).toBeVisible();
    await expect(form.getByText('Please enter a valid email address')).toBeVisible();
  });
});

test.describe('when the server cannot store', () => {
  test('the newsletter shows the failure toast and keeps what was typed', async ({ page }) => {
    await page.goto(`${brokenOrigin}${POST}`);
    const form = blogForm(page);
    await form.getByLabel('First name').fill('Grace');
    await form.getByLabel('Last name').fill('Hopper');
    await form.getByLabel('E-mail').fill('grace@example.com');
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/subscribers');
    await form.getByRole('button', { name: 'Subscribe' }).click();
    // The submission, with its proof of work, reached the server, whose store failed.
    expect((await answered).status()).toBe(503);
    const toast = page.getByRole('region', { name: 'Notification' }).getByRole('listitem');
    await expect(toast).toContainText('Subscription failed');
    await expect(toast).toContainText('There was an error subscribing to the newsletter. Please try again.');
    // The error tone: the theme's danger-700, #b42318.
    await expect(toast).toHaveCSS('background-color', 'rgb(180, 35, 24)');
    await expect(form.getByLabel('First name')).toHaveValue('Grace');
    await expect(form.getByLabel('Last name')).toHaveValue('Hopper');
    await expect(form.getByLabel('E-mail')).toHaveValue('grace@example.com');
  });

  test('the Zoho guide form shows its failure alert and keeps what was typed', async ({ page }) => {
    await page.goto(`${brokenOrigin}/zoho`);
    const form = page.getByRole('form', { name: 'Request the Zoho guide' });
    await form.getByLabel('First name').fill('Grace');
    await form.getByLabel('Last name').fill('Hopper');
    await form.getByLabel('E-mail').fill('grace@example.com');
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/leads/create');
    await form.getByRole('button', { name: 'Send me the guide' }).click();
    expect((await answered).status()).toBe(503);
    await expect(form.getByRole('alert')).toHaveText('There was an error processing your request. Please try again.');
    await expect(form.getByLabel('E-mail')).toHaveValue('grace@example.com');
  });
});

test.describe('Zoho guide form', () => {
  test('asks the browser to require every field, with an e-mail input', async ({ page }) => {
    await page.goto('/zoho');
    const form = page.getByRole('form', { name: 'Request the Zoho guide' });
    await form.scrollIntoViewIfNeeded();
    for (const label of ['First name', 'Last name', 'E-mail'])
      await expect(form.getByLabel(label)).toHaveAttribute('required', '');
    await expect(form.getByLabel('E-mail')).toHaveAttribute('type', 'email');
    await form.getByRole('button', { name: 'Send me the guide' }).click();
    expect(await form.getByLabel('First name').evaluate((input: HTMLInputElement) => input.validity.valueMissing)).toBe(
      true,
    );
  });

  test('its answer is put into live regions that were on the page, empty, before it was sent', async ({ page }) => {
    await page.goto('/zoho');
    const form = page.getByRole('form', { name: 'Request the Zoho guide' });
    const status = await form.locator('[role="status"]').elementHandle({ timeout: 2000 });
    const alert = await form.locator('[role="alert"]').elementHandle({ timeout: 2000 });
    expect(await status?.textContent()).toBe('');
    expect(await alert?.textContent()).toBe('');
    await page.route('**/api/leads/create', (route) => route.abort());
    await form.getByLabel('First name').fill('Dorothy');
    await form.getByLabel('Last name').fill('Vaughan');
    await form.getByLabel('E-mail').fill(uniqueEmail('guide-live'));
    await form.getByRole('button', { name: 'Send me the guide' }).click();
    await expect(form.getByRole('alert')).toBeVisible();
    expect(await alert?.evaluate((region) => [region.isConnected, region.textContent])).toEqual([
      true,
      'There was an error processing your request. Please try again.',
    ]);
    await page.unroute('**/api/leads/create');
    await form.getByRole('button', { name: 'Send me the guide' }).click();
    await expect(form.getByRole('status')).toBeVisible();
    expect(await status?.evaluate((region) => [region.isConnected, region.textContent])).toEqual([
      true,
      'Thank you for subscribing! Your guide will be sent to your email.',
    ]);
    expect(await alert?.textContent()).toBe('');
  });

  test('stores a lead with the full name and shows the success alert', async ({ page }) => {
    const email = uniqueEmail('guide');
    await page.goto('/zoho');
    const form = page.getByRole('form', { name: 'Request the Zoho guide' });
    await form.getByLabel('First name').fill('Katherine');
    await form.getByLabel('Last name').fill('Johnson');
    await form.getByLabel('E-mail').fill(email);
    await form.getByRole('button', { name: 'Send me the guide' }).click();
    await expect(form.getByRole('status')).toHaveText(
      'Thank you for subscribing! Your guide will be sent to your email.',
    );
    await expect(form.getByLabel('First name')).toHaveValue('');
    expect(await storedLead(email)).toMatchObject({ name: 'Katherine Johnson', source: 'zoho_guide' });
  });

  test('takes the longest first and last names its fields accept', async ({ page }) => {
    const email = uniqueEmail('guide-long');
    await page.goto('/zoho');
    const form = page.getByRole('form', { name: 'Request the Zoho guide' });
    // Typed past the limit: each field keeps its first 100 characters.
    await form.getByLabel('First name').fill('F'.repeat(150));
    await form.getByLabel('Last name').fill('L'.repeat(150));
    await form.getByLabel('E-mail').fill(email);
    await form.getByRole('button', { name: 'Send me the guide' }).click();
    await expect(form.getByRole('status')).toHaveText(
      'Thank you for subscribing! Your guide will be sent to your email.',
    );
    expect(await storedLead(email)).toMatchObject({ name: `${'F'.repeat(100)} ${'L'.repeat(100)}` });
  });
});

test.describe('a submission retried after a failure', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  test('sends the same Idempotency-Key, so a request stored before its answer was lost is stored once', async ({
    page,
  }) => {
    const email = uniqueEmail('retry');
    const keys: string[] = [];
    let loseAnswer = true;
    await page.route('**/api/leads/create', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (!loseAnswer) return route.continue();
      // The server stores the lead, but its answer never reaches the browser.
      loseAnswer = false;
      await route.fetch();
      await route.fulfill({
        status: 503,
        json: { error: 'The service is temporarily unavailable. Please try again in a moment.' },
      });
    });
    await page.goto('/zoho');
    const form = page.getByRole('form', { name: 'Request the Zoho guide' });
    await form.getByLabel('First name').fill('Dorothy');
    await form.getByLabel('Last name').fill('Vaughan');
    await form.getByLabel('E-mail').fill(email);
    await form.getByRole('button', { name: 'Send me the guide' }).click();
    await expect(form.getByRole('alert')).toBeVisible();
    await form.getByRole('button', { name: 'Send me the guide' }).click();
    await expect(form.getByRole('status')).toBeVisible();
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toBe(keys[0]);
    expect(await storedLeads(email)).toHaveLength(1);

    // The same values sent again after a success are a new submission.
    await form.getByLabel('First name').fill('Dorothy');
    await form.getByLabel('Last name').fill('Vaughan');
    await form.getByLabel('E-mail').fill(email);
    await form.getByRole('button', { name: 'Send me the guide' }).click();
    await expect.poll(() => keys.length).toBe(3);
    await expect(form.getByLabel('E-mail')).toHaveValue('');
    expect(keys[2]).toMatch(UUID);
    expect(keys[2]).not.toBe(keys[0]);
    expect(await storedLeads(email)).toHaveLength(2);
  });

  test('with changed values sends a new key', async ({ page }) => {
    const keys: string[] = [];
    await page.route('**/api/subscribers', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      await route.fulfill({
        status: 503,
        json: { error: 'The service is temporarily unavailable. Please try again in a moment.' },
      });
    });
    await page.goto(POST);
    const form = blogForm(page);
    await form.getByLabel('First name').fill('Mary');
    await form.getByLabel('Last name').fill('Jackson');
    await form.getByLabel('E-mail').fill(uniqueEmail('changed'));
    for (const [index, lastName] of ['Jackson', 'Jackson', 'Winston Jackson'].entries()) {
      await form.getByLabel('Last name').fill(lastName);
      await form.getByRole('button', { name: 'Subscribe' }).click();
      await expect.poll(() => keys.length).toBe(index + 1);
      await expect(form.getByRole('button', { name: 'Subscribe' })).toBeEnabled();
    }
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[1]);
  });
});

test.describe('contact form', () => {
  test('in the dialog, a message becomes a lead with source contact_form', async ({ page }) => {
    const email = uniqueEmail('contact');
    await page.goto('/');
    await page.getByRole('main').getByRole('button', { name: 'Contact Us' }).click();
    const dialog = page.getByRole('dialog', { name: 'Contact Us / Request Demo' });
    const form = dialog.getByRole('form', { name: 'Contact form' });
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByText('Name is required')).toBeVisible();
    await form.getByLabel('Name').fill('<img src=x onerror=alert(1)>');
    await form.getByLabel('E-mail').fill(email);
    await form.getByLabel('Company').fill('Acme Ltd');
    await form.getByLabel('How can we help?').fill('We send 80 invoices a month by hand.');
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByRole('status')).toContainText('within 24 hours');
    // Sent, the focus is back on the button rather than lost to the page.
    await expect(form.getByRole('button', { name: 'Send message' })).toBeFocused();
    // Closed and opened again, the dialog shows the form, not the answer to the last message.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await page.getByRole('main').getByRole('button', { name: 'Contact Us' }).click();
    await expect(dialog).toBeVisible();
    await expect(form.getByRole('status')).toHaveCount(0);
    expect(await storedLead(email)).toMatchObject({
      name: '<img src=x onerror=alert(1)>',
      company: 'Acme Ltd',
      notes: 'We send 80 invoices a month by hand.',
      source: 'contact_form',
    });
  });
});

test.describe('toasts', () => {
  test('F8 moves focus to the notification area before any toast has been shown', async ({ page }) => {
    await page.goto('/blog');
    await page.keyboard.press('F8');
    const area = page.getByRole('region', { name: 'Notification' }).locator('ol');
    await expect(area).toBeFocused();
    // Focused from the keyboard, it shows where the focus went: a ring inside its edges, which
    // are those of the screen on a phone.
    const ring = await area.evaluate((element) => {
      const style = getComputedStyle(element);
      return { style: style.outlineStyle, width: style.outlineWidth, offset: style.outlineOffset };
    });
    expect(ring).toEqual({ style: 'solid', width: '3px', offset: '-4px' });
  });

  test('show one at a time, and F8 moves focus to the notification area', async ({ page }) => {
    await page.goto(POST);
    const form = blogForm(page);
    for (const attempt of [1, 2]) {
      await form.getByLabel('First name').fill(`Try ${attempt}`);
      await form.getByLabel('Last name').fill('Twice');
      await form.getByLabel('E-mail').fill(uniqueEmail(`toast${attempt}`));
      await form.getByRole('button', { name: 'Subscribe' }).click();
      await expect(form.getByLabel('First name')).toHaveValue('');
    }
    const region = page.getByRole('region', { name: 'Notification' });
    await expect(region.getByRole('listitem')).toHaveCount(1);
    await page.keyboard.press('F8');
    await expect(region.locator('ol')).toBeFocused();
  });
});
