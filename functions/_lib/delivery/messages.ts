// functions/_lib/delivery gets what the outbox holds to people: the e-mails, their SMTP transport or local folder, the signed webhooks and links, and the sweep.
/**
 * What each event puts in the outbox: a lead gives the team's notification, the guide (for a
 * guide request) and a webhook; a subscription gives its confirmation e-mail; a confirmation gives
 * a webhook. Messages are composed here, once, when the record is written, so the outbox holds
 * exactly what will be sent and every retry sends the same thing.
 */
import { createHash } from 'node:crypto';
import type { Attribution, Lead, Subscriber } from '../../../src/shared/records';
import { guidePathFor } from '../../../src/shared/pages';
import { site } from '../../../src/site.config';
import { CONFIRM_LINK_TTL_MS, LINK_PAGES, linkUrl, sealLink, UNSUBSCRIBE_LINK_TTL_MS } from './links';
import type { NewOutboxEntry, SubscribeInput } from '../store/types';
import { renderMail, type Block } from './mail-layout';

/** How the forms are named to people. */
const FORM_NAMES: Partial<Record<string, string>> = {
  contact_form: 'Contact form',
  zoho_guide: 'Zoho guide request',
  website_footer: 'Footer newsletter sign-up',
  newsletter_footer: 'Blog newsletter sign-up',
};

export const formName = (source: string) => FORM_NAMES[source] ?? source;

/** An address for headers: the ASCII form where the domain is internationalised. */
const sendable = (record: { email: string; emailAscii?: string }) => record.emailAscii ?? record.email;

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

/** Providers that deliver an address with dots in its local part as the address without them. */
const DOTLESS_DOMAINS: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * Providers whose subdomains are inboxes: Fastmail delivers `anything@user.fastmail.com` to
 * `user@fastmail.com`.
 */
const SUBDOMAIN_INBOX_DOMAINS = ['fastmail.com', 'fastmail.fm'];

/**
 * The mailbox an address delivers to, as far as the limits go: lower case, the domain in ASCII,
 * the local part without a `+tag` (most providers deliver `ada+x@` to `ada@`), for Gmail without
 * dots, and for a provider whose subdomains are inboxes, the inbox the subdomain names.
 * `Ada+1@gmail.com` and `a.d.a@googlemail.com` are one mailbox, as are `a@ada.fastmail.com` and
 * `ada@fastmail.com`, so the forms cannot flood it through variants of its address.
 */
export function mailbox(record: { email: string; emailAscii?: string }): string {
  const address = (record.emailAscii ?? record.email).toLowerCase();
  const at = address.lastIndexOf('@');
  const domain = address.slice(at + 1);
  let local = address.slice(0, at).split('+')[0] ?? '';
  const dotless = DOTLESS_DOMAINS[domain];
  if (dotless) local = local.replaceAll('.', '');
  const provider = SUBDOMAIN_INBOX_DOMAINS.find((name) => domain.endsWith(`.${name}`));
  if (provider)
    return `${domain
      .slice(0, -provider.length - 1)
      .split('.')
      .at(-1)}@${provider}`;
  return `${local}@${dotless ?? domain}`;
}

/**
 * The throttle of e-mails of one kind to one mailbox. The key holds a digest of the mailbox, not
 * the address: it outlives an erasure by up to two hours and must not keep the address.
 */
function mailboxThrottle(kind: string, record: { email: string; emailAscii?: string }): NewOutboxEntry['throttle'] {
  const digest = createHash('sha256').update(mailbox(record), 'utf8').digest('base64url').slice(0, 32);
  return { key: `${kind}:${digest}`, seconds: MAILBOX_INTERVAL_SECONDS };
}

/**
 * A display name for a header, quoted, without anything that could end the quote or the line: the
 * form every stored message has, which the transport reads back into a name and an address for
 * nodemailer to encode (headerAddress in mail-transport.ts).
 */
const displayName = (name: string) => `"${name.replaceAll(/["\\\r\n]/g, ' ').trim()}"`;

function attributionRows(attribution: Attribution | undefined): [string, string | undefined][] {
  return [
    ['Landing page', attribution?.landingPage],
    ['Referred by', attribution?.referrer],
    ['Campaign', attribution?.utm_campaign],
    ['Source (utm)', attribution?.utm_source],
    ['Medium (utm)', attribution?.utm_medium],
    ['Term (utm)', attribution?.utm_term],
    ['Content (utm)', attribution?.utm_content],
  ];
}

export interface DeliverySettings {
  /** The site's origin for links: `https://www.example.com`. */
  origin: string;
  /** Who is told about leads. */
  notifyTo: string[];
  /** The webhook's host when a webhook is set, else undefined. */
  webhookHost: string | undefined;
}

/** The JSON body of a webhook: `{ type, timestamp, data }`, fixed when the event happens. */
export function webhookBody(type: string, timestamp: Date, data: unknown): string {
  return JSON.stringify({ type, timestamp: timestamp.toISOString(), data });
}

/** A lead's entries: the team's notification, the guide when the form promised one, the webhook. */
export function leadEntries(lead: Lead, settings: DeliverySettings): NewOutboxEntry[] {
  const entries: NewOutboxEntry[] = [];
  const who = lead.company ? `${lead.name} (${lead.company})` : lead.name;
  const notification = renderMail(
    `New lead: ${who}`,
    [
      {
        kind: 'paragraph',
        text: `${lead.name} got in touch through the ${formName(lead.source).toLowerCase()}. Reply to this e-mail to answer them directly.`,
      },
      {
        kind: 'fields',
        rows: [
          ['Name', lead.name],
          ['E-mail', lead.email],
          ['Company', lead.company],
          ['Form', formName(lead.source)],
          ['Sent from', lead.page ? `${settings.origin}${lead.page}` : undefined],
          ['Received', `${lead.createdAt.slice(0, 16).replace('T', ' ')} UTC`],
        ],
      },
      ...(lead.notes ? [{ kind: 'quote', text: lead.notes } satisfies Block] : []),
      { kind: 'fields', rows: attributionRows(lead.attribution) },
      { kind: 'button', label: 'Open the admin page', url: `${settings.origin}/admin/insights` },
    ],
    [{ kind: 'small', text: `Sent to the team by ${site.name}'s website for every new lead.` }],
  );
  entries.push({
    id: crypto.randomUUID(),
    kind: 'lead-notification',
    ref: lead.id,
    to: settings.notifyTo.join(', '),
    message: {
      channel: 'mail',
      to: settings.notifyTo,
      replyTo: `${displayName(lead.name)} <${sendable(lead)}>`,
      subject: `New lead: ${who} – ${formName(lead.source)}`,
      ...notification,
    },
  });

  const guidePath = guidePathFor(lead.source);
  if (guidePath) {
    const url = `${settings.origin}${guidePath}`;
    const body = renderMail(
      'Your guide is ready',
      [
        { kind: 'paragraph', text: greeting(lead.name) },
        {
          kind: 'paragraph',
          text: 'Thank you for asking for our guide to connecting Zoho and Google Workspace. It walks you through it step by step, with the pitfalls to avoid and a checklist.',
        },
        { kind: 'button', label: 'Read the guide', url },
        {
          kind: 'small',
          text: 'To keep a copy, open the guide and choose Print, then Save as PDF: it is laid out for paper.',
        },
        {
          kind: 'paragraph',
          text: `Questions about your own set-up? Reply to this e-mail. ${site.replyPromise}`,
        },
      ],
      [
        {
          kind: 'small',
          text: `You get this e-mail because the guide was requested with this address on ${site.url.replace(/^https?:\/\//, '')}. It does not add you to any mailing list.`,
        },
      ],
    );
    entries.push({
      id: crypto.randomUUID(),
      kind: 'guide',
      ref: lead.id,
      to: lead.email,
      message: {
        channel: 'mail',
        to: [sendable(lead)],
        replyTo: site.email,
        subject: `Your guide from ${site.name}: connecting Zoho and Google Workspace`,
        ...body,
      },
      // The lead is kept and the team told each time; the prospect gets the guide once an hour.
      throttle: mailboxThrottle('guide', lead),
    });
  }

  if (settings.webhookHost) {
    const { delivery: _delivery, ...data } = lead;
    entries.push({
      id: crypto.randomUUID(),
      kind: 'webhook',
      ref: lead.id,
      to: settings.webhookHost,
      message: {
        channel: 'webhook',
        type: 'lead.created',
        body: webhookBody('lead.created', new Date(lead.createdAt), data),
      },
    });
  }
  return entries;
}

/** The confirmation e-mail of a subscription, with its opaque links and RFC 8058 one-click unsubscribe. */
export function confirmationEntry(input: SubscribeInput, now: Date, settings: DeliverySettings): NewOutboxEntry {
  const confirm = sealLink({
    a: 'confirm',
    e: input.email,
    f: input.firstName,
    ...(input.lastName ? { l: input.lastName } : {}),
    s: input.source,
    x: now.getTime() + CONFIRM_LINK_TTL_MS,
    // The sign-up itself, so that confirming it records this consent, whatever came before.
    t: now.getTime(),
    ...(input.page ? { p: input.page } : {}),
    ...(input.policyDate ? { d: input.policyDate } : {}),
  });
  const leave = sealLink({ a: 'unsubscribe', e: input.email, x: now.getTime() + UNSUBSCRIBE_LINK_TTL_MS });
  const unsubscribePage = linkUrl(settings.origin, LINK_PAGES.unsubscribe, leave);
  const body = renderMail(
    'Please confirm your subscription',
    [
      { kind: 'paragraph', text: greeting(input.firstName) },
      {
        kind: 'paragraph',
        text: `Someone, hopefully you, asked to receive the ${site.name} newsletter at this address. Confirm with the button below and we will add you.`,
      },
      { kind: 'button', label: 'Confirm my subscription', url: linkUrl(settings.origin, LINK_PAGES.confirm, confirm) },
      {
        kind: 'small',
        text: 'The link works for 7 days. If you did not ask for this, ignore this e-mail: you will not be subscribed.',
      },
    ],
    [{ kind: 'small', text: `Do not want these e-mails? Unsubscribe: ${unsubscribePage}` }],
  );
  return {
    id: crypto.randomUUID(),
    kind: 'confirmation',
    ref: input.email,
    to: input.email,
    message: {
      channel: 'mail',
      to: [input.emailAscii ?? input.email],
      subject: `Please confirm your subscription to ${site.name}`,
      headers: {
        'List-Unsubscribe': `<${linkUrl(settings.origin, LINK_PAGES.oneClick, leave)}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
      ...body,
      secrets: [confirm, leave],
    },
    throttle: mailboxThrottle('confirmation', input),
  };
}

/** The webhook of a newly confirmed subscriber. */
export function confirmedEntries(subscriber: Subscriber, now: Date, settings: DeliverySettings): NewOutboxEntry[] {
  if (!settings.webhookHost) return [];
  return [
    {
      id: crypto.randomUUID(),
      kind: 'webhook',
      ref: subscriber.email,
      to: settings.webhookHost,
      message: {
        channel: 'webhook',
        type: 'subscriber.confirmed',
        body: webhookBody('subscriber.confirmed', now, subscriber),
      },
    },
  ];
}
