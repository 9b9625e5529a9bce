import { expect, test } from '@playwright/test';
import type { ApiMiniApp as MiniApp, ApiPost as Post, ApiSector as Sector } from '../../src/shared/api';
import { e2eOrigin, uniqueEmail } from '../support/e2e-env';
import { proofFrom } from '../support/proof-of-work';

test.describe('the /api serves what the pages show', () => {
  test('sectors: list and detail agree with the sector pages', async ({ request, page }) => {
    const response = await request.get('/api/sectors');
    expect(response.headers()['content-type']).toContain('application/json');
    const sectors = (await response.json()) as Sector[];
    expect(sectors.map((sector) => [sector.slug, sector.name])).toEqual([
      ['property', 'Property Management'],
      ['creative', 'Creative Agencies'],
      ['restaurant', 'Restaurant Management'],
      ['saas', 'SaaS/B2B'],
      ['google-zoho', 'Google/Zoho SMEs'],
    ]);
    for (const sector of sectors) {
      expect(await (await request.get(`/api/sectors/${sector.slug}`)).json()).toEqual(sector);
      await page.goto(`/sectors/${sector.slug}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(sector.name);
      // The page typesets quotes (’) and renders *emphasis*; the API keeps the editor's markdown.
      const firstParagraph = sector.description.split('\n\n')[0]?.replace(/\*/g, '') ?? '';
      const shown = (await page.locator('main .prose p').first().textContent())
        ?.replace(/[’‘]/g, "'")
        .replace(/[“”]/g, '"');
      expect(shown).toBe(firstParagraph);
      expect((await request.get(sector.imageUrl)).status()).toBe(200);
    }
  });

  test('mini-apps: every field shown on the mini-app pages', async ({ request, page }) => {
    const apps = (await (await request.get('/api/mini-apps')).json()) as MiniApp[];
    expect(apps).toHaveLength(13);
    for (const app of apps.slice(0, 4)) {
      await page.goto(`/mini-apps/${app.slug}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(app.name);
      await expect(page.locator('section[aria-labelledby="best-for-title"] li')).toHaveText(app.best_for);
      await expect(page.locator('section[aria-labelledby="benefits-title"] li')).toHaveText(app.key_benefits);
      await expect(page.locator('section[aria-labelledby="sectors-title"] li')).toHaveText(app.sectors);
    }
  });

  test('the sector filter works for every sector name, slashes included', async ({ request, page }) => {
    const sectors = (await (await request.get('/api/sectors')).json()) as Sector[];
    for (const sector of sectors) {
      const response = await request.get(`/api/mini-apps?sector=${encodeURIComponent(sector.name)}`);
      expect(response.status()).toBe(200);
      const related = (await response.json()) as MiniApp[];
      expect(related.length).toBeGreaterThan(0);
      for (const app of related) expect(app.sectors).toContain(sector.name);
      await page.goto(`/sectors/${sector.slug}`);
      await expect(page.locator('section[aria-labelledby="related-title"] article h3')).toHaveText(
        related.map((app) => app.name),
      );
    }
    expect(await (await request.get('/api/mini-apps?sector=Nowhere')).json()).toEqual([]);
  });

  test('blog: list, detail and markdown content agree with the posts', async ({ request, page }) => {
    const posts = (await (await request.get('/api/blog')).json()) as Post[];
    await page.goto('/blog');
    await expect(page.getByRole('main').locator('article h2')).toHaveText(posts.map((post) => post.title));
    const [post] = posts;
    expect(post).toBeDefined();
    if (!post) return;
    expect(await (await request.get(`/api/blog/${post.slug}`)).json()).toEqual(post);
    await page.goto(`/blog/${post.slug}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(post.title);
    await expect(page.locator('article time').first()).toHaveAttribute('datetime', post.publishedDate);
    const headings = [...post.content.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    await expect(page.locator('.prose h2')).toHaveText(headings as string[]);
  });

  test('privacy policy text is the page text', async ({ request, page }) => {
    const policy = (await (await request.get('/api/legal/privacypolicy')).json()) as { title: string; content: string };
    await page.goto('/privacy-policy');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(policy.title);
    const headings = [...policy.content.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    await expect(page.locator('.prose h2')).toHaveText(headings as string[]);
  });
});

for (const [path, message] of [
  ['/api/sectors/nowhere', 'Sector not found'],
  ['/api/mini-apps/nothing', 'Mini-app not found'],
  ['/api/blog/no-such-post', 'Blog post not found'],
] as const) {
  test(`${path} answers 404 JSON`, async ({ request }) => {
    const response = await request.get(path);
    expect(response.status()).toBe(404);
    expect(response.headers()['content-type']).toContain('application/json');
    expect(await response.json()).toEqual({ error: message });
  });
}

test('content responses can be cached by the CDN until the next deploy', async ({ request }) => {
  const response = await request.get('/api/sectors');
  expect(response.headers()['netlify-cdn-cache-control']).toContain('durable');
  expect(response.headers()['x-content-type-options']).toBe('nosniff');
});

test.describe('the newsletter sign-up answers at both of its paths', () => {
  for (const [path, names, source] of [
    ['/api/newsletter/subscribe', { firstName: 'Footer Person' }, 'website_footer'],
    ['/api/subscribers', { firstName: 'Blog', lastName: 'Reader' }, 'newsletter_footer'],
  ] as const) {
    test(`POST ${path} stores a sign-up`, async ({ request }) => {
      const response = await request.post(path, {
        data: { email: uniqueEmail('both-paths'), ...names, source, altcha: await proofFrom(e2eOrigin) },
      });
      expect(response.status()).toBe(201);
      expect(await response.json()).toEqual({ ok: true });
    });
  }

  test('each path checks its own form: only the blog form requires a last name', async ({ request }) => {
    const response = await request.post('/api/subscribers', {
      data: { email: uniqueEmail('both-paths'), firstName: 'Footer Person', source: 'newsletter_footer' },
    });
    expect(response.status()).toBe(422);
    expect((await response.json()).fields).toEqual({ lastName: 'Last name is required' });
  });

  test("each path takes its own form's source only", async ({ request }) => {
    const response = await request.post('/api/subscribers', {
      data: { email: uniqueEmail('both-paths'), firstName: 'Blog', lastName: 'Reader', source: 'zoho_guide' },
    });
    expect(response.status()).toBe(422);
    expect((await response.json()).fields).toEqual({ source: 'Source must be newsletter_footer' });
  });
});
