/**
 * The one configuration module: brand, URLs, navigation, contact details and embeds.
 * Every value comes from a PUBLIC_* environment variable (see .env.example) with a
 * placeholder default, so a fresh clone builds and runs with no configuration.
 */

type Env = Record<string, string | undefined>;

/** An absolute http(s) URL, or undefined when the value is empty or not a URL. */
function optionalUrl(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  try {
    const url = new URL(trimmed);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The port `npm start` serves the build on when PORT names none. */
export const DEFAULT_PORT = 4321;

/**
 * A port as PORT may name one: a whole number from 1 to 65535, or undefined. The local server
 * (scripts/serve) listens on it and the build writes it into the site's local address, so both
 * read it here.
 */
export function localPort(value: string | undefined): number | undefined {
  const trimmed = value?.trim() ?? '';
  const port = Number(trimmed);
  return /^[0-9]+$/.test(trimmed) && port >= 1 && port <= 65535 ? port : undefined;
}

/** The locale the admin page writes dates and numbers in when PUBLIC_SITE_LOCALE names none. */
export const DEFAULT_LOCALE = 'en-GB';

/**
 * A locale as PUBLIC_SITE_LOCALE may name one, a BCP 47 tag (`en-GB`, `en-US`, `fr-FR`), in its
 * canonical spelling; undefined when it is empty, malformed (`en_GB`) or one this runtime's Intl
 * knows nothing of, which would otherwise fall back silently to whatever locale the browser has.
 */
function locale(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  try {
    return Intl.DateTimeFormat.supportedLocalesOf(trimmed)[0];
  } catch {
    return undefined;
  }
}

function text(value: string | undefined, fallback: string): string {
  return value?.trim() || fallback;
}

/**
 * Countries whose addresses put the postal code after the town (`Manchester M1 3HE`, `Dublin D02
 * X285`); most others, continental Europe's among them, put it before (`10115 Berlin`).
 */
const POSTAL_CODE_AFTER_TOWN = new Set(['AU', 'CA', 'GB', 'IE', 'IN', 'NZ', 'US', 'ZA']);

function postalAddress(street: string, locality: string, postalCode: string, country: string) {
  const town = POSTAL_CODE_AFTER_TOWN.has(country.toUpperCase())
    ? `${locality} ${postalCode}`
    : `${postalCode} ${locality}`;
  return {
    street,
    locality,
    postalCode,
    country,
    /** The address as it is written in its country, a line each: the street, then the town with its postal code. */
    lines: [street, town] as const,
  };
}

/** Reads the site configuration from an environment; exported for astro.config.mjs and tests. */
export function readSiteConfig(env: Env) {
  // On Netlify, URL is the site's main address; an explicit PUBLIC_SITE_URL wins. Locally, the
  // address `npm start` serves the build on: the PORT set when it is built, DEFAULT_PORT otherwise.
  const url =
    optionalUrl(env.PUBLIC_SITE_URL) ??
    optionalUrl(env.URL) ??
    new URL(`http://localhost:${localPort(env.PORT) ?? DEFAULT_PORT}/`).href;
  // A deploy preview or branch deploy is built with its own address in DEPLOY_PRIME_URL.
  const previewUrl =
    env.CONTEXT === 'deploy-preview' || env.CONTEXT === 'branch-deploy' ? optionalUrl(env.DEPLOY_PRIME_URL) : undefined;
  return {
    /** Brand name shown in the header, titles and structured data. */
    name: text(env.PUBLIC_BRAND_NAME, 'Loopwork'),
    /** A short line that says what the firm does. */
    tagline: text(env.PUBLIC_BRAND_TAGLINE, 'AI and no-code automation for small and medium businesses'),
    /** Absolute origin of the production site, used for canonical links, the sitemap and feeds. */
    url: url.replace(/\/$/, ''),
    /**
     * Absolute origin of the build's own files (link-preview images, the logo in structured
     * data): the deploy's address on a deploy preview or branch deploy, so a changed image shows
     * there; the production origin otherwise. Canonical URLs never use it.
     */
    assetsUrl: (previewUrl ?? url).replace(/\/$/, ''),
    /**
     * The language and region the admin page writes dates and numbers in: `en-GB` writes "2 Nov
     * 2026", "2 Nov, 15:05" and "1,234"; `en-US` "Nov 2, 2026" and "Nov 2, 3:05 PM".
     */
    locale: locale(env.PUBLIC_SITE_LOCALE) ?? DEFAULT_LOCALE,
    /** Where people can write to the firm. */
    email: text(env.PUBLIC_CONTACT_EMAIL, 'hello@loopwork.example'),
    /** Postal address, shown on the contact page, in the e-mails' footer and in structured data. */
    address: postalAddress(
      text(env.PUBLIC_ADDRESS_STREET, '12 Canal Street, Suite 4'),
      text(env.PUBLIC_ADDRESS_LOCALITY, 'Manchester'),
      text(env.PUBLIC_ADDRESS_POSTAL_CODE, 'M1 3HE'),
      text(env.PUBLIC_ADDRESS_COUNTRY, 'GB'),
    ),
    /** The firm's LinkedIn page. */
    linkedinUrl: optionalUrl(env.PUBLIC_LINKEDIN_URL) ?? 'https://www.linkedin.com/company/loopwork-automation',
    /** An external contact form to embed (an iframe) in the contact modal, /contact and /zoho; unset means the site's own. */
    contactFormUrl: optionalUrl(env.PUBLIC_CONTACT_FORM_URL),
    /** A chat widget script, loaded once per page when the browser is idle; unset means none. */
    chatWidgetUrl: optionalUrl(env.PUBLIC_CHAT_WIDGET_URL),
    /**
     * A dashboard kept elsewhere (a Plausible or Umami share link) to frame on the admin page;
     * unset means no such section. PUBLIC_ANALYTICS_DASHBOARD_URL is its former name, still read
     * when the new one is unset: sites configured on Netlify before the rename keep their dashboard.
     */
    externalDashboardUrl:
      optionalUrl(env.PUBLIC_EXTERNAL_DASHBOARD_URL) ?? optionalUrl(env.PUBLIC_ANALYTICS_DASHBOARD_URL),
    /** Colour of the browser's interface around the site (theme-color, the web app manifest). */
    themeColor: '#0b1a33',
    /** Background of the app's splash screen and of icons on a solid ground (the manifest, apple-touch-icon). */
    backgroundColor: '#ffffff',
    /** Promise made wherever people are invited to get in touch. */
    replyPromise: 'We reply to every message within 24 hours.',
  };
}

export type SiteConfig = ReturnType<typeof readSiteConfig>;

// import.meta.env carries PUBLIC_* from .env files inside Astro; process.env covers
// variables set by the shell or the host when this module is loaded outside Vite.
const processEnv: Env = typeof process === 'undefined' ? {} : process.env;
export const site: SiteConfig = readSiteConfig({ ...processEnv, ...(import.meta.env as Env | undefined) });

/** The main navigation, in order. */
export const NAV_LINKS = [
  { href: '/', label: 'Home' },
  { href: '/sectors', label: 'Sectors' },
  { href: '/mini-apps', label: 'Mini-Apps' },
  { href: '/zoho', label: 'Zoho Integration' },
  { href: '/blog', label: 'Blog' },
  { href: '/contact', label: 'Contact' },
] as const;

/** Footer resources column. */
export const RESOURCE_LINKS = [
  { href: '/mini-apps', label: 'Mini-Apps' },
  { href: '/blog', label: 'Blog' },
  { href: '/contact', label: 'Contact' },
] as const;
