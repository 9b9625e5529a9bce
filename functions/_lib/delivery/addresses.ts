// functions/_lib/delivery gets what the outbox holds to people: the e-mails, their SMTP transport or local folder, the signed webhooks and links, and the sweep.
/**
 * How the e-mails address people: the forms' names, the greeting of an unverified address, the
 * mailbox an address delivers to (for the hourly limits), display names for headers.
 */
import { createHash } from 'node:crypto';
import type { NewOutboxEntry } from '../store/types';

/** How the forms are named to people, as in a sentence: only a name keeps its capital. */
const FORM_NAMES: Partial<Record<string, string>> = {
  contact_form: 'contact form',
  zoho_guide: 'Zoho guide request',
  website_footer: 'footer newsletter sign-up',
  newsletter_footer: 'blog newsletter sign-up',
};

/** A form's name inside a sentence: `through the contact form`, `through the Zoho guide request`. */
export const formPhrase = (source: string) => FORM_NAMES[source] ?? source;

/** A form's name on its own, as a label or a subject: `Contact form`. */
export const formName = (source: string) => {
  const phrase = formPhrase(source);
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
};

/** An address for headers: the ASCII form where the domain is internationalised. */
export const sendable = (record: { email: string; emailAscii?: string }) => record.emailAscii ?? record.email;

/**
 * The greeting of an e-mail to an address nobody has verified yet (a guide, a confirmation): the
 * first word of the name only when it is a plain name of letters (`Hi Ada,`), else `Hello,`. A
 * form must not become a way to send a sentence or a link of a stranger's choosing, in the
 * brand's name, to someone else's inbox.
 */
export function greeting(name: string): string {
  const first = name.trim().split(/\s+/)[0] ?? '';
  return /^\p{L}[\p{L}\p{M}'’-]{0,29}$/u.test(first) ? `Hi ${first},` : 'Hello,';
}

/**
 * At most one guide and one confirmation e-mail an hour reach one mailbox, however often the forms
 * are sent with it.
 */
export const MAILBOX_INTERVAL_SECONDS = 3600;

/**
 * Providers that deliver one mailbox under several domains or spellings: the domain its addresses
 * count under, and what the provider ignores in a local part. Gmail ignores dots; Proton ignores
 * dots, hyphens and underscores, and gives each name its four domains; Yandex reads a dot as a
 * hyphen, and gives each login its country domains.
 */
const PROTON = { domain: 'proton.me', fold: (local: string) => local.replaceAll(/[._-]/g, '') };
const YANDEX = { domain: 'yandex.ru', fold: (local: string) => local.replaceAll('.', '-') };
const GMAIL = { domain: 'gmail.com', fold: (local: string) => local.replaceAll('.', '') };
const ALIASING_DOMAINS: Record<string, { domain: string; fold: (local: string) => string }> = {
  'gmail.com': GMAIL,
  'googlemail.com': GMAIL,
  'proton.me': PROTON,
  'protonmail.com': PROTON,
  'protonmail.ch': PROTON,
  'pm.me': PROTON,
  'yandex.ru': YANDEX,
  'yandex.com': YANDEX,
  'yandex.by': YANDEX,
  'yandex.kz': YANDEX,
  'yandex.ua': YANDEX,
  'ya.ru': YANDEX,
};

/**
 * Providers whose subdomains are inboxes: Fastmail delivers `anything@user.fastmail.com` to
 * `user@fastmail.com`.
 */
const SUBDOMAIN_INBOX_DOMAINS = ['fastmail.com', 'fastmail.fm'];

/**
 * The mailbox an address delivers to, as far as the limits go: lower case, the domain in ASCII,
 * the local part without a `+tag` (most providers deliver `ada+x@` to `ada@`), folded as its
 * provider folds it (ALIASING_DOMAINS), and for a provider whose subdomains are inboxes, the inbox
 * the subdomain names. `Ada+1@gmail.com` and `a.d.a@googlemail.com` are one mailbox, as are
 * `a_da@pm.me` and `ada@proton.me`, and `a@ada.fastmail.com` and `ada@fastmail.com`, so the forms
 * cannot flood it through variants of its address.
 */
export function mailbox(record: { email: string; emailAscii?: string }): string {
  const address = (record.emailAscii ?? record.email).toLowerCase();
  const at = address.lastIndexOf('@');
  const domain = address.slice(at + 1);
  let local = address.slice(0, at).split('+')[0] ?? '';
  const aliasing = ALIASING_DOMAINS[domain];
  if (aliasing) local = aliasing.fold(local);
  const provider = SUBDOMAIN_INBOX_DOMAINS.find((name) => domain.endsWith(`.${name}`));
  if (provider)
    return `${domain
      .slice(0, -provider.length - 1)
      .split('.')
      .at(-1)}@${provider}`;
  return `${local}@${aliasing?.domain ?? domain}`;
}

/**
 * The throttle of e-mails of one kind to one mailbox. The key holds a digest of the mailbox, not
 * the address: it outlives an erasure by up to two hours and must not keep the address. `since`
 * starts the interval afresh from a moment only the mailbox's owner can bring about.
 */
export function mailboxThrottle(
  kind: string,
  record: { email: string; emailAscii?: string },
  since?: string,
): NewOutboxEntry['throttle'] {
  const digest = createHash('sha256').update(mailbox(record), 'utf8').digest('base64url').slice(0, 32);
  const from = since ? `:${Date.parse(since)}` : '';
  return { key: `${kind}:${digest}${from}`, seconds: MAILBOX_INTERVAL_SECONDS };
}

/**
 * A person's name as a header shows it beside their address: nothing that could end a quote or
 * the line, and no `<`, `>` or `@`, so that a name such as `CEO <ceo@loopwork.example>` cannot
 * show a mail client a second, look-alike address; an RFC 2047 encoded-word (`=?utf-8?B?…?=`) is
 * broken up (`= ?utf-8?B?…`), since mail clients decode one even inside quotes. The one rule for
 * every name of every header: the stored messages' (displayName) and, at sending, whatever they
 * or MAIL_FROM hold (headerAddress in mail-transport.ts).
 */
export const headerName = (name: string) =>
  name
    .replaceAll(/["\\\r\n<>@]/g, ' ')
    .replaceAll('=?', '= ?')
    .replaceAll(/ {2,}/g, ' ')
    .trim();

/**
 * A display name for a header, quoted (headerName): the form every stored message has, which the
 * transport reads back into a name and an address for nodemailer to encode.
 */
export const displayName = (name: string) => `"${headerName(name)}"`;
