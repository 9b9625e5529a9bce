import { describe, expect, test } from 'vitest';
import {
  absoluteUrl,
  assetUrl,
  blogPostingLd,
  breadcrumbLd,
  freeServiceLd,
  pagePath,
  pageTitle,
  serializeJsonLd,
} from '../../src/lib/seo';
import { readSiteConfig } from '../../src/site.config';

const site = readSiteConfig({ PUBLIC_SITE_URL: 'https://acme.example', PUBLIC_BRAND_NAME: 'Acme' });

describe('seo helpers', () => {
  test('titles carry the brand', () => {
    expect(pageTitle(site, 'Blog')).toBe('Blog · Acme');
    expect(pageTitle(site)).toMatch(/^Acme: /);
  });

  test('URLs are absolute on the configured origin', () => {
    expect(absoluteUrl(site, '/blog/post')).toBe('https://acme.example/blog/post');
  });

  test.each([
    ['/index.html', '/'],
    ['/', '/'],
    ['/sectors.html', '/sectors'],
    ['/sectors/saas.html', '/sectors/saas'],
    ['/sectors/saas', '/sectors/saas'],
    ['/sectors/saas/', '/sectors/saas'],
    ['/admin/insights.html', '/admin/insights'],
  ])('the page built for %s is linked as %s', (pathname, expected) => {
    expect(pagePath(pathname)).toBe(expected);
  });

  test("asset URLs follow a deploy preview's address; page URLs stay on the production origin", () => {
    const preview = readSiteConfig({
      PUBLIC_SITE_URL: 'https://acme.example',
      CONTEXT: 'deploy-preview',
      DEPLOY_PRIME_URL: 'https://deploy-preview-7--acme.netlify.app',
    });
    expect(assetUrl(preview, '/_astro/og.png')).toBe('https://deploy-preview-7--acme.netlify.app/_astro/og.png');
    expect(absoluteUrl(preview, '/blog')).toBe('https://acme.example/blog');
    expect(assetUrl(site, '/_astro/og.png')).toBe('https://acme.example/_astro/og.png');
  });

  test('breadcrumbs are numbered from 1 with absolute items', () => {
    const ld = breadcrumbLd(site, [
      { name: 'Home', path: '/' },
      { name: 'Blog', path: '/blog' },
    ]);
    expect(ld.itemListElement).toEqual([
      { '@type': 'ListItem', position: 1, name: 'Home', item: 'https://acme.example/' },
      { '@type': 'ListItem', position: 2, name: 'Blog', item: 'https://acme.example/blog' },
    ]);
  });

  test('the free service offer is priced 0 USD', () => {
    const ld = freeServiceLd(site, { name: 'Zoho', description: 'd', path: '/zoho', offerName: 'Guide' });
    expect(ld['@type']).toBe('Service');
    expect(ld.offers).toMatchObject({ '@type': 'Offer', price: '0', priceCurrency: 'USD' });
  });

  test('a blog posting has the properties search engines require', () => {
    const ld = blogPostingLd(site, {
      title: 'T',
      summary: 'S',
      path: '/blog/t',
      imageUrl: 'https://acme.example/i.png',
      published: new Date('2026-01-02'),
    });
    expect(ld).toMatchObject({
      '@type': 'BlogPosting',
      headline: 'T',
      datePublished: '2026-01-02T00:00:00.000Z',
      image: ['https://acme.example/i.png'],
    });
  });

  test('serialised JSON-LD cannot close its script element', () => {
    const json = serializeJsonLd({ name: '</script><script>alert(1)</script>' });
    expect(json).not.toContain('</script>');
    expect(JSON.parse(json)).toEqual({ name: '</script><script>alert(1)</script>' });
  });
});
