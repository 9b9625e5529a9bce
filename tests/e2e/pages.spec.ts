import { expect, test } from '@playwright/test';
import { MINI_APP_SLUGS, POST_SLUGS, SECTOR_SLUGS } from '../support/routes';

function jsonLd(page: import('@playwright/test').Page) {
  return page
    .locator('script[type="application/ld+json"]')
    .allTextContents()
    .then((blocks) => blocks.map((block) => JSON.parse(block) as Record<string, unknown>));
}

test.describe('home', () => {
  test('has the hero, its two calls to action, three sectors, three mini-apps and a consultation call', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Automate Work. Amplify Impact.');
    await expect(page.getByRole('link', { name: 'Explore Sectors' })).toHaveAttribute('href', '/sectors');
    await expect(page.getByRole('main').getByRole('button', { name: 'Contact Us' })).toBeVisible();
    const sectors = page.locator('section[aria-labelledby="sectors-title"] article');
    await expect(sectors).toHaveCount(3);
    await expect(sectors.getByRole('heading')).toHaveText([
      'Property Management',
      'Creative Agencies',
      'Restaurant Management',
    ]);
    await expect(page.locator('section[aria-labelledby="apps-title"] article')).toHaveCount(3);
    await expect(page.getByRole('button', { name: 'Schedule a Consultation' })).toBeVisible();
    const types = (await jsonLd(page)).map((block) => block['@type']);
    expect(types).toContain('ProfessionalService');
  });
});

test.describe('sectors', () => {
  test('the list shows all five sectors with their exact names', async ({ page }) => {
    await page.goto('/sectors');
    await expect(page.getByRole('main').locator('article h2')).toHaveText([
      'Property Management',
      'Creative Agencies',
      'Restaurant Management',
      'SaaS/B2B',
      'Google/Zoho SMEs',
    ]);
  });

  for (const slug of SECTOR_SLUGS) {
    test(`/sectors/${slug} shows its description, image, consultation button, related mini-apps and breadcrumbs`, async ({
      page,
    }) => {
      await page.goto(`/sectors/${slug}`);
      const image = page.getByRole('main').getByRole('img').first();
      // An SVG illustration is drawn by the page itself (it is the page's largest picture); a raster one is a WebP file.
      const drawn = await image.evaluate((element) =>
        element instanceof SVGSVGElement ? 'svg' : element instanceof HTMLImageElement ? element.currentSrc : '',
      );
      expect(drawn).toMatch(new RegExp(`^(svg|.*/_astro/${slug}\\.[\\w-]+\\.webp)$`));
      await expect(image).toHaveAccessibleName(/\S/);
      await expect(image).toBeVisible();
      expect((await image.boundingBox())?.width).toBeGreaterThan(0);
      if (drawn !== 'svg')
        await expect
          .poll(() =>
            image.evaluate(
              (element) => element instanceof HTMLImageElement && element.complete && element.naturalWidth > 0,
            ),
          )
          .toBe(true);
      await expect(page.locator('main .prose p').first()).not.toBeEmpty();
      await expect(page.getByRole('button', { name: 'Schedule a Consultation' }).first()).toBeVisible();
      expect(await page.locator('section[aria-labelledby="related-title"] article').count()).toBeGreaterThan(0);
      const types = (await jsonLd(page)).map((block) => block['@type']);
      expect(types).toContain('BreadcrumbList');
    });
  }
});

test.describe('mini-apps', () => {
  test('the list shows all thirteen, each linking to its page with a Request Demo button', async ({ page }) => {
    await page.goto('/mini-apps');
    const cards = page.getByRole('main').locator('article');
    await expect(cards).toHaveCount(13);
    for (const slug of MINI_APP_SLUGS)
      await expect(page.locator(`main article a[href="/mini-apps/${slug}"]`)).toHaveCount(1);
    await expect(cards.getByRole('button', { name: /^Request Demo/ })).toHaveCount(13);
  });

  test('a mini-app page has its overview, best-for list, key benefits, sectors and Request Demo', async ({ page }) => {
    await page.goto('/mini-apps/automated-invoice-generator');
    for (const heading of ['Overview', 'Best for', 'Key benefits', 'Sectors'])
      await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Request Demo' }).first()).toBeVisible();
    await expect(page.locator('section[aria-labelledby="sectors-title"] a[href^="/sectors/"]').first()).toBeVisible();
  });
});

test.describe('blog', () => {
  test('lists every post with image, title, summary and "5 min read"', async ({ page }) => {
    await page.goto('/blog');
    const cards = page.getByRole('main').locator('article');
    await expect(cards).toHaveCount(POST_SLUGS.length);
    for (const card of await cards.all()) {
      // The cover: drawn by the page for the first cards, an image file for later ones.
      await expect(card.locator('svg, img').first()).toHaveAttribute('width', /\d+/);
      await expect(card.getByText('5 min read')).toBeVisible();
      await expect(card.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}$/);
    }
  });

  test('a post renders its markdown with a date, share links, back link and structured data', async ({ page }) => {
    await page.goto(`/blog/${POST_SLUGS[0]}`);
    await expect(page.locator('article time').first()).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}$/);
    expect(await page.locator('.prose h2').count()).toBeGreaterThan(1);
    await expect(page.getByRole('link', { name: /Share on LinkedIn/ })).toHaveAttribute(
      'href',
      /^https:\/\/www\.linkedin\.com\/sharing\/share-offsite\/\?url=https?%3A%2F%2F/,
    );
    await expect(page.getByRole('link', { name: /Share on X/ })).toHaveAttribute(
      'href',
      /^https:\/\/x\.com\/intent\/post\?url=/,
    );
    await expect(page.getByRole('link', { name: 'Back to blog' }).first()).toHaveAttribute('href', '/blog');
    const posting = (await jsonLd(page)).find((block) => block['@type'] === 'BlogPosting');
    expect(posting).toMatchObject({
      headline: expect.any(String),
      datePublished: expect.any(String),
      image: [expect.stringMatching(/^https?:\/\//)],
    });
  });
});

test.describe('contact, zoho and privacy', () => {
  test('contact promises a reply within 24 hours and shows e-mail and address', async ({ page }) => {
    await page.goto('/contact');
    await expect(
      page
        .getByRole('main')
        .getByText(/within 24 hours/)
        .first(),
    ).toBeVisible();
    await expect(page.getByRole('main').locator('a[href^="mailto:"]').first()).toBeVisible();
    // As a British address is written: the postal code after the town.
    await expect(page.getByRole('main').locator('address')).toHaveText(
      /^\s*12 Canal Street, Suite 4\s*Manchester M1 3HE\s*$/,
    );
    // The details beside the form promise what every other reply promise on the site does, no less.
    await expect(page.getByRole('main').locator('dt:has-text("Response time") + dd')).toHaveText('Within 24 hours');
  });

  test('home and Zoho say the same of the 15-20 hours saved', async ({ page }) => {
    const claim = async (path: string) => {
      await page.goto(path);
      const figure = page.getByRole('main').locator('dd', { hasText: /^15-20 h/ });
      await expect(figure).toHaveCount(1);
      return figure.locator('xpath=preceding-sibling::dt').innerText();
    };
    expect(await claim('/')).toBe(await claim('/zoho'));
  });

  test('zoho claims 15-20 hours per week and 50+ apps, with a free offer in its structured data', async ({ page }) => {
    await page.goto('/zoho');
    await expect(
      page
        .getByRole('main')
        .getByText(/15-20 hours/)
        .first(),
    ).toBeVisible();
    await expect(
      page
        .getByRole('main')
        .getByText(/50\+ apps/)
        .first(),
    ).toBeVisible();
    const service = (await jsonLd(page)).find((block) => block['@type'] === 'Service');
    expect(service?.offers).toMatchObject({ price: '0', priceCurrency: 'USD' });
  });

  test('the privacy policy is rendered from markdown', async ({ page }) => {
    await page.goto('/privacy-policy');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy Policy');
    expect(await page.locator('.prose h2').count()).toBeGreaterThan(3);
  });
});

test('a printed blog post is the article: no sign-up form, share buttons or links back', async ({ page }) => {
  await page.goto('/blog/what-to-automate-first');
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  for (const part of [
    page.getByText('Back to blog'),
    page.getByRole('link', { name: /LinkedIn/, includeHidden: true }),
    page.getByText('Get the next article by e-mail'),
  ]) {
    expect(await part.count()).toBeGreaterThan(0);
    for (const one of await part.all()) await expect(one).toBeHidden();
  }
});

test('the home hero animation stops by itself within 5 seconds (WCAG 2.2.2)', async ({ page }) => {
  await page.goto('/');
  const counts = await page
    .locator('svg path[stroke-dasharray]')
    .evaluateAll((paths) => paths.map((path) => getComputedStyle(path).animationIterationCount));
  expect(counts.length).toBeGreaterThan(0);
  for (const count of counts) expect(Number(count) * 1.6).toBeLessThanOrEqual(5);
});
