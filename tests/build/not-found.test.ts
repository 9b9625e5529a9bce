/** A URL that names no page answers 404 with a page that says so, a way back, and noindex. */
import { expect, inject, test } from 'vitest';
import { parseHtml, textsOf } from '../support/built-page';

const origin = inject('siteOrigin');

test.each([
  { path: '/sectors/no-such-sector', heading: 'Sector Not Found', back: '/sectors' },
  { path: '/mini-apps/no-such-app', heading: 'Mini-App Not Found', back: '/mini-apps' },
  { path: '/blog/no-such-post', heading: 'Blog Post Not Found', back: '/blog' },
  { path: '/newsletter/no-such-issue', heading: 'Newsletter Issue Not Found', back: '/newsletter' },
  { path: '/no/such/page', heading: '404 Page Not Found', back: '/sectors' },
])('$path answers 404 with "$heading", a way back and noindex', async ({ path, heading, back }) => {
  const response = await fetch(`${origin}${path}`);
  expect(response.status).toBe(404);
  const page = parseHtml(await response.text());
  expect(textsOf(page, 'h1')).toEqual([heading]);
  expect(page.querySelector('meta[name="robots"]')?.getAttribute('content')).toMatch(/noindex/);
  expect(page.querySelectorAll('link[rel="canonical"]')).toHaveLength(0);
  const way = page.querySelector(`main a[href="${back}"]`);
  expect(way?.textContent).toMatch(/\S/);
  expect(way?.closest('[hidden]')).toBeNull();
});
