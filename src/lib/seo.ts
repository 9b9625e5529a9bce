/**
 * Structured data (schema.org JSON-LD) and title helpers. Each builder returns a
 * plain object; the Seo component serialises it.
 */
import type { SiteConfig } from '../site.config';

export type JsonLd = Record<string, unknown>;

/** "Page · Brand", or the brand line alone on the home page. */
export function pageTitle(site: SiteConfig, title?: string): string {
  return title ? `${title} · ${site.name}` : `${site.name}: ${site.tagline}`;
}

/**
 * The public path of a page from the URL Astro gives it: the site's links name pages without a
 * slash or extension (/sectors/saas), while a build with `format: 'file'` hands pages
 * /sectors/saas.html (and /index.html for the home page), and `astro dev` /sectors/saas.
 */
export function pagePath(pathname: string): string {
  const path = pathname
    .replace(/\.html$/, '')
    .replace(/(^|\/)index$/, '$1')
    .replace(/(.)\/$/, '$1');
  return path || '/';
}

/** An absolute URL on this site. */
export function absoluteUrl(site: SiteConfig, path: string): string {
  return new URL(path, `${site.url}/`).href;
}

/** An absolute URL of a file of this build (an image): on the deploy being previewed, if it is one. */
export function assetUrl(site: SiteConfig, path: string): string {
  return new URL(path, `${site.assetsUrl}/`).href;
}

function postalAddress(site: SiteConfig): JsonLd {
  return {
    '@type': 'PostalAddress',
    streetAddress: site.address.street,
    addressLocality: site.address.locality,
    postalCode: site.address.postalCode,
    addressCountry: site.address.country,
  };
}

/** The firm itself, referenced by the other blocks through its @id. */
export function organizationLd(site: SiteConfig, logoUrl: string): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'ProfessionalService',
    '@id': `${site.url}/#organization`,
    name: site.name,
    description: site.tagline,
    url: `${site.url}/`,
    logo: logoUrl,
    image: logoUrl,
    email: site.email,
    address: postalAddress(site),
    sameAs: [site.linkedinUrl],
    areaServed: 'Worldwide',
  };
}

export interface Crumb {
  name: string;
  path: string;
}

export function breadcrumbLd(site: SiteConfig, crumbs: Crumb[]): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((crumb, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: crumb.name,
      item: absoluteUrl(site, crumb.path),
    })),
  };
}

export function blogPostingLd(
  site: SiteConfig,
  post: { title: string; summary: string; path: string; imageUrl: string; published: Date; updated?: Date },
): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: post.title,
    description: post.summary,
    image: [post.imageUrl],
    datePublished: post.published.toISOString(),
    dateModified: (post.updated ?? post.published).toISOString(),
    url: absoluteUrl(site, post.path),
    mainEntityOfPage: absoluteUrl(site, post.path),
    author: { '@type': 'Organization', name: site.name, url: `${site.url}/` },
    publisher: { '@id': `${site.url}/#organization`, '@type': 'Organization', name: site.name },
  };
}

/** A service with a free offer (the Zoho guide and first consultation). */
export function freeServiceLd(
  site: SiteConfig,
  service: { name: string; description: string; path: string; offerName: string },
): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'Service',
    name: service.name,
    description: service.description,
    serviceType: 'Business process automation',
    url: absoluteUrl(site, service.path),
    provider: {
      '@type': 'ProfessionalService',
      '@id': `${site.url}/#organization`,
      name: site.name,
      url: `${site.url}/`,
    },
    areaServed: 'Worldwide',
    offers: {
      '@type': 'Offer',
      name: service.offerName,
      price: '0',
      priceCurrency: 'USD',
      availability: 'https://schema.org/InStock',
      url: absoluteUrl(site, service.path),
    },
  };
}

/** JSON for a <script type="application/ld+json"> block: `<` is escaped so no text can close the script. */
export function serializeJsonLd(data: JsonLd): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
