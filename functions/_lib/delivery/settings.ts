/** Where the outbox's messages go and what their links point at, from the environment. */
import type { Context } from '@netlify/functions';
import type { DeliverySetup } from '../../../src/shared/api-responses';
import { site } from '../../../src/site.config';
import { getEnv, isLocalRun } from '../platform/env';
import { mailFrom, mailMode } from './mail-transport';

/** Where a form's deliveries go and what their links point at. */
export interface DeliverySettings {
  /** The site's origin for links: `https://www.example.com`. */
  origin: string;
  /** Who is told about leads. */
  notifyTo: string[];
  /** The webhook's host when a webhook is set, else undefined. */
  webhookHost: string | undefined;
}

/** The site's configured origin: PUBLIC_SITE_URL, else the main URL Netlify gives (`siteUrl`, or URL), else the brand's. */
export function configuredOrigin(siteUrl?: string): string {
  return new URL(process.env.PUBLIC_SITE_URL || siteUrl || process.env.URL || site.url).origin;
}

/** Host names that only ever reach the machine itself: a request naming one came from a browser on it. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A deploy's own address on Netlify (`https://deploy-preview-12--<site>.netlify.app`, a branch
 * deploy's `https://<branch>--<site>.netlify.app`): Netlify routes a request by its host, so one
 * that names this site's deploy reached that deploy, whatever its client is.
 */
function isOwnDeployUrl(url: URL, siteName: string | undefined): boolean {
  return Boolean(siteName) && url.protocol === 'https:' && url.hostname.endsWith(`--${siteName}.netlify.app`);
}

/**
 * The origin the e-mails' links point at: the site's configured URL (PUBLIC_SITE_URL, else the
 * site's main URL as Netlify gives it), never a Host a client chose. Two exceptions:
 * - A deploy preview or branch deploy links to itself: its links must reach its own functions and
 *   store (a preview has a store of its own), not production's, where that subscriber is unknown.
 * - A local run may listen beyond the machine (`HOST=0.0.0.0`), where anyone can send any Host:
 *   there the address the page was opened at is used only when it is a loopback name (any port,
 *   so links work on whatever port the server runs) or the configured URL itself.
 */
export function siteOrigin(req: Request, context: Pick<Context, 'site'>): string {
  const configured = configuredOrigin(context.site?.url);
  const opened = new URL(req.url);
  if (!isLocalRun()) return isOwnDeployUrl(opened, context.site?.name) ? opened.origin : configured;
  return LOOPBACK_HOSTS.has(opened.hostname) || opened.origin === configured ? opened.origin : configured;
}

/** Who is told about leads: LEADS_NOTIFY_TO, or the site's contact address. */
export function notifyTo(): string[] {
  return getEnv().LEADS_NOTIFY_TO ?? [site.email];
}

export function deliverySettings(req: Request, context: Pick<Context, 'site'>): DeliverySettings {
  const url = getEnv().LEAD_WEBHOOK_URL;
  return { origin: siteOrigin(req, context), notifyTo: notifyTo(), webhookHost: url ? new URL(url).host : undefined };
}

/** An address under a domain reserved for examples (RFC 2606), such as the default contact address: no mailbox receives it. */
const isPlaceholder = (address: string) =>
  /@(?:[^@]*\.)?(?:example|invalid|test|localhost)$|@example\.(?:com|net|org)$/i.test(address);

/** What the admin page says about delivery. */
export function deliverySetup(): DeliverySetup {
  const mail = mailMode();
  const setup: DeliverySetup = { mail, notifyTo: notifyTo(), webhook: Boolean(getEnv().LEAD_WEBHOOK_URL) };
  if (mail === 'none')
    setup.warning = {
      title: 'Nobody is being notified',
      text: 'E-mail is not set up: new leads get no notification, guide requests get no guide and newsletter sign-ups get no confirmation. Set SMTP_URL and MAIL_FROM in the site’s environment variables and redeploy (functions see new values only after a deploy); e-mails that waited less than 24 hours then go out within a minute.',
    };
  else if (mail === 'smtp' && !isLocalRun() && setup.notifyTo.some(isPlaceholder))
    setup.warning = {
      title: 'Lead notifications go nowhere',
      text: `They are sent to ${setup.notifyTo.filter(isPlaceholder).join(', ')}, a placeholder address that no mailbox receives. Set LEADS_NOTIFY_TO to your own address (or PUBLIC_CONTACT_EMAIL, which it falls back to), and redeploy.`,
    };
  else if (mail === 'smtp' && !getEnv().MAIL_FROM && !isLocalRun())
    setup.warning = {
      title: 'E-mails may be refused',
      text: `MAIL_FROM is not set, so e-mails are sent from ${mailFrom()}. Most providers refuse a sender they have not verified: set MAIL_FROM to an address your provider lets you send from, and redeploy.`,
    };
  return setup;
}
