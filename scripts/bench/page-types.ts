/** One page of each type, for the benchmarks and the audit. */
export interface PageType {
  name: string;
  route: string;
  /** A form is visible without scrolling, so its island loads with the page. */
  formAboveFold?: boolean;
  /** Not for search engines. */
  noindex?: boolean;
}

export const PAGE_TYPES: PageType[] = [
  { name: 'home', route: '/' },
  { name: 'sectors', route: '/sectors' },
  { name: 'sector', route: '/sectors/saas' },
  { name: 'mini-apps', route: '/mini-apps' },
  { name: 'mini-app', route: '/mini-apps/automated-invoice-generator' },
  { name: 'blog', route: '/blog' },
  { name: 'blog post', route: '/blog/what-to-automate-first' },
  { name: 'contact', route: '/contact', formAboveFold: true },
  { name: 'zoho', route: '/zoho', formAboveFold: true },
  { name: 'book', route: '/book', formAboveFold: true },
  { name: 'privacy', route: '/privacy-policy' },
  { name: 'newsletter', route: '/newsletter' },
  { name: 'newsletter issue', route: '/newsletter/three-automations-before-the-new-year' },
  // Unlisted pages people reach from an e-mail: public, but not for search engines.
  { name: 'guide', route: '/guides/zoho-google-workspace', noindex: true },
  { name: 'newsletter confirm', route: '/newsletter/confirm', noindex: true },
  { name: 'newsletter unsubscribe', route: '/newsletter/unsubscribe', noindex: true },
  { name: 'book manage', route: '/book/manage', noindex: true },
  // Lighthouse does not audit a response with status 404: the same page, served as the file it is.
  { name: '404', route: '/404.html', noindex: true },
  { name: 'admin login', route: '/admin/insights', formAboveFold: true, noindex: true },
];
