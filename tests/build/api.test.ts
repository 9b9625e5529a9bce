/**
 * The /api serves what the pages show: its JSON, from the local production server, against the
 * built pages in dist/. And the newsletter sign-up answers at both of its paths.
 */
import { describe, expect, inject, test } from 'vitest';
import type { ApiMiniApp as MiniApp, ApiPost as Post, ApiSector as Sector } from '../../src/shared/api-responses';
import { builtPage, textsOf } from '../support/built-page';
import { uniqueEmail } from '../support/e2e-env';
import { proofFrom } from '../support/solved-proofs';

const origin = inject('siteOrigin');

/** The JSON the server answers `GET path` with, after checking it is JSON. */
async function apiGet<T>(path: string): Promise<T> {
  const response = await fetch(`${origin}${path}`);
  expect(response.headers.get('content-type'), path).toContain('application/json');
  return response.json();
}

/** The `## ` headings of a markdown text. */
const headingsOf = (markdown: string) => [...markdown.matchAll(/^## (.+)$/gm)].map((match) => match[1]);

describe('the /api serves what the pages show', () => {
  test('sectors: list and detail agree with the sector pages', async () => {
    const sectors = await apiGet<Sector[]>('/api/sectors');
    expect(sectors.map((sector) => [sector.slug, sector.name])).toEqual([
      ['property', 'Property Management'],
      ['creative', 'Creative Agencies'],
      ['restaurant', 'Restaurant Management'],
      ['saas', 'SaaS/B2B'],
      ['google-zoho', 'Google/Zoho SMEs'],
    ]);
    for (const sector of sectors) {
      expect(await apiGet(`/api/sectors/${sector.slug}`)).toEqual(sector);
      const page = builtPage(`/sectors/${sector.slug}`);
      expect(textsOf(page, 'h1')).toEqual([sector.name]);
      // The page typesets quotes (’) and renders *emphasis*; the API keeps the editor's markdown.
      const firstParagraph = sector.description.split('\n\n')[0]?.replace(/\*/g, '') ?? '';
      const shown = page.querySelector('main .prose p')?.textContent?.replace(/[’‘]/g, "'").replace(/[“”]/g, '"');
      expect(shown).toBe(firstParagraph);
      expect((await fetch(new URL(sector.imageUrl, origin))).status, sector.imageUrl).toBe(200);
    }
  });

  test('mini-apps: every field shown on the mini-app pages', async () => {
    const apps = await apiGet<MiniApp[]>('/api/mini-apps');
    expect(apps).toHaveLength(13);
    for (const app of apps) {
      const page = builtPage(`/mini-apps/${app.slug}`);
      expect(textsOf(page, 'h1'), app.slug).toEqual([app.name]);
      expect(textsOf(page, 'section[aria-labelledby="best-for-title"] li'), app.slug).toEqual(app.best_for);
      expect(textsOf(page, 'section[aria-labelledby="benefits-title"] li'), app.slug).toEqual(app.key_benefits);
      expect(textsOf(page, 'section[aria-labelledby="sectors-title"] li'), app.slug).toEqual(app.sectors);
    }
  });

  test('the sector filter works for every sector name, slashes included', async () => {
    const sectors = await apiGet<Sector[]>('/api/sectors');
    for (const sector of sectors) {
      const response = await fetch(`${origin}/api/mini-apps?sector=${encodeURIComponent(sector.name)}`);
      expect(response.status).toBe(200);
      const related: MiniApp[] = await response.json();
      expect(related.length).toBeGreaterThan(0);
      for (const app of related) expect(app.sectors).toContain(sector.name);
      expect(
        textsOf(builtPage(`/sectors/${sector.slug}`), 'section[aria-labelledby="related-title"] article h3'),
      ).toEqual(related.map((app) => app.name));
    }
    expect(await apiGet('/api/mini-apps?sector=Nowhere')).toEqual([]);
  });

  test('blog: list, detail and markdown content agree with the posts', async () => {
    const posts = await apiGet<Post[]>('/api/blog');
    expect(textsOf(builtPage('/blog'), 'main article h2')).toEqual(posts.map((post) => post.title));
    const [post] = posts;
    expect(post).toBeDefined();
    if (!post) return;
    expect(await apiGet(`/api/blog/${post.slug}`)).toEqual(post);
    const page = builtPage(`/blog/${post.slug}`);
    expect(textsOf(page, 'h1')).toEqual([post.title]);
    expect(page.querySelector('article time')?.getAttribute('datetime')).toBe(post.publishedDate);
    expect(textsOf(page, '.prose h2')).toEqual(headingsOf(post.content));
  });

  test('privacy policy text is the page text', async () => {
    const policy = await apiGet<{ title: string; content: string }>('/api/legal/privacypolicy');
    const page = builtPage('/privacy-policy');
    expect(textsOf(page, 'h1')).toEqual([policy.title]);
    expect(textsOf(page, '.prose h2')).toEqual(headingsOf(policy.content));
  });
});

describe('content answers', () => {
  test.each([
    ['/api/sectors/nowhere', 'Sector not found'],
    ['/api/mini-apps/nothing', 'Mini-app not found'],
    ['/api/blog/no-such-post', 'Blog post not found'],
  ])('%s answers 404 JSON', async (path, message) => {
    const response = await fetch(`${origin}${path}`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toEqual({ error: message });
  });

  test('can be cached by the CDN until the next deploy', async () => {
    const response = await fetch(`${origin}/api/sectors`);
    expect(response.headers.get('netlify-cdn-cache-control')).toContain('durable');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

/** Posts `data` as JSON to `path` on the server. */
const post = (path: string, data: object) =>
  fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(data),
  });

describe('the newsletter sign-up answers at both of its paths', () => {
  test.each([
    { path: '/api/newsletter/subscribe', names: { firstName: 'Footer Person' }, source: 'website_footer' },
    { path: '/api/subscribers', names: { firstName: 'Blog', lastName: 'Reader' }, source: 'newsletter_footer' },
  ])('POST $path stores a sign-up', async ({ path, names, source }) => {
    const response = await post(path, {
      email: uniqueEmail('both-paths'),
      ...names,
      source,
      altcha: await proofFrom(origin),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ ok: true });
  });

  test('each path checks its own form: only the blog form requires a last name', async () => {
    const response = await post('/api/subscribers', {
      email: uniqueEmail('both-paths'),
      firstName: 'Footer Person',
      source: 'newsletter_footer',
    });
    expect(response.status).toBe(422);
    expect((await response.json()).fields).toEqual({ lastName: 'Last name is required' });
  });

  test("each path takes its own form's source only", async () => {
    const response = await post('/api/subscribers', {
      email: uniqueEmail('both-paths'),
      firstName: 'Blog',
      lastName: 'Reader',
      source: 'zoho_guide',
    });
    expect(response.status).toBe(422);
    expect((await response.json()).fields).toEqual({ source: 'Source must be newsletter_footer' });
  });
});
