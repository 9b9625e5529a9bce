/**
 * What only a browser shows of the public pages: a picture loaded and laid out, the print
 * styles, an animation's length. What the built HTML holds is checked in tests/build/pages.test.ts.
 */
import { expect, test } from '@playwright/test';
import { SECTOR_SLUGS } from '../support/routes';

test('every sector page shows its picture, loaded and laid out', async ({ page }) => {
  for (const slug of SECTOR_SLUGS) {
    await page.goto(`/sectors/${slug}`);
    const image = page.getByRole('main').getByRole('img').first();
    // An SVG illustration is drawn by the page itself (it is the page's largest picture); a raster one is a WebP file.
    const drawn = await image.evaluate((element) =>
      element instanceof SVGSVGElement ? 'svg' : element instanceof HTMLImageElement ? element.currentSrc : '',
    );
    expect(drawn, slug).toMatch(new RegExp(`^(svg|.*/_astro/${slug}\\.[\\w-]+\\.webp)$`));
    await expect(image, slug).toHaveAccessibleName(/\S/);
    await expect(image, slug).toBeVisible();
    expect((await image.boundingBox())?.width, slug).toBeGreaterThan(0);
    if (drawn !== 'svg')
      await expect
        .poll(() =>
          image.evaluate(
            (element) => element instanceof HTMLImageElement && element.complete && element.naturalWidth > 0,
          ),
        )
        .toBe(true);
  }
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
