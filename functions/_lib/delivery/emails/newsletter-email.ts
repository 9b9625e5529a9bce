// functions/_lib/delivery gets what the outbox holds to people: the e-mails, their SMTP transport or local folder, the signed webhooks and links, and the sweep.
/**
 * The newsletter's e-mail: a post alert or a written issue, to one subscriber. The outbox keeps
 * only the recipient's part of it (newsletterEntry()); the whole message is composed when it is
 * sent (composeNewsletter()), from the mailing as the site publishes it, so a mailing to 10,000
 * people keeps a few hundred bytes per person in the store, not the letter 10,000 times.
 */
import { createHash } from 'node:crypto';
import type { Mailing } from '../../../../src/shared/mailing-types';
import type { Subscriber } from '../../../../src/shared/records';
import { site } from '../../../../src/site.config';
import type { NewOutboxEntry, OutboxMessage } from '../../store/types';
import { greeting, sendable } from '../addresses';
import { LINK_PAGES, linkUrl, sealLink, UNSUBSCRIBE_LINK_TTL_MS } from '../links';
import { renderMail, type Block } from '../mail-layout';

export type NewsletterMessage = Extract<OutboxMessage, { channel: 'newsletter' }>;
type MailMessage = Extract<OutboxMessage, { channel: 'mail' }>;

/** A mailing's id: what the admin page, the store and each entry call it. */
export const mailingId = (mailing: Pick<Mailing, 'kind' | 'slug'>) => `${mailing.kind}-${mailing.slug}`;

/**
 * The id of a mailing's entry for one address: the same however often the fan-out runs, so a
 * resumed or repeated one writes nothing twice (and it is the e-mail's Message-ID).
 */
export function newsletterEntryId(mailing: string, email: string): string {
  return `nl-${createHash('sha256').update(`${mailing}\n${email}`, 'utf8').digest('hex').slice(0, 32)}`;
}

/** The shape of a newsletter entry's id (newsletterEntryId). */
export const NEWSLETTER_ENTRY_ID = /^nl-[0-9a-f]{32}$/;

/** A recipient's unsubscribe token, valid a year: the secret of their e-mail. */
export const unsubscribeToken = (email: string, now: Date) =>
  sealLink({ a: 'unsubscribe', e: email, x: now.getTime() + UNSUBSCRIBE_LINK_TTL_MS });

/** A mailing's entry for one confirmed subscriber: waits in the outbox's second line. */
export function newsletterEntry(
  mailing: { id: string; subject: string },
  subscriber: Subscriber,
  origin: string,
  now: Date,
): NewOutboxEntry {
  const { subscribedAt, page } = subscriber.consent;
  return {
    id: newsletterEntryId(mailing.id, subscriber.email),
    kind: 'newsletter',
    ref: subscriber.email,
    to: subscriber.email,
    mailing: mailing.id,
    message: {
      channel: 'newsletter',
      mailing: mailing.id,
      to: [sendable(subscriber)],
      subject: mailing.subject,
      firstName: subscriber.firstName,
      consent: { subscribedAt, ...(page ? { page } : {}) },
      origin,
      unsubscribe: unsubscribeToken(subscriber.email, now),
    },
  };
}

/** What a test is filed under: it belongs to no subscriber. */
export const TEST_REF = 'newsletter-test';

/**
 * A test of a mailing to the owner (or an address they typed): it waits in the newsletter's line,
 * at its pace, as the mailing's own e-mails do.
 */
export function testEntry(mailing: { id: string; subject: string }, to: string[], origin: string, now: Date) {
  const entry: NewOutboxEntry = {
    id: crypto.randomUUID(),
    kind: 'newsletter',
    ref: TEST_REF,
    to: to.join(', '),
    testOf: mailing.id,
    message: {
      channel: 'newsletter',
      mailing: mailing.id,
      to,
      subject: `[Test] ${mailing.subject}`,
      origin,
      unsubscribe: unsubscribeToken(to[0] ?? '', now),
    },
  };
  return entry;
}

/** A day as the footer says it: "24 November 2026". */
const day = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(iso),
  );

/** Why the person gets the e-mail, from their consent record. */
function whyLine(message: NewsletterMessage): string {
  if (!message.consent) return 'This is a test: each subscriber reads here when and on which page they subscribed.';
  const where = message.consent.page ? ` on ${message.origin}${message.consent.page}` : '';
  return `You get this because you subscribed to the ${site.name} newsletter on ${day(message.consent.subscribedAt)}${where}.`;
}

/**
 * Moves the addresses a mailing has at the site, as the build wrote them (at the site's configured
 * URL), onto the origin the e-mail's links point at. Deployed the two are the same and nothing
 * moves; a local run opened on another port than the build's gets links that reach it, like its
 * unsubscribe link. Only the origin itself moves, not one that merely starts with it
 * (`http://localhost:43210`, `https://example.com.evil.example`).
 */
function movedTo(origin: string, mailing: Mailing): (text: string) => string {
  const built = new URL(mailing.url).origin;
  if (built === origin) return (text) => text;
  const at = new RegExp(`${built.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w:@-]|\\.\\w)`, 'g');
  return (text) => text.replaceAll(at, () => origin);
}

/** The body of a mailing: a post's cover, summary and link; an issue's letter and the posts it features. */
function bodyBlocks(mailing: Mailing, all: readonly Mailing[], moved: (text: string) => string): Block[] {
  if (mailing.kind === 'post')
    return [
      { kind: 'image', url: moved(mailing.imageUrl), alt: mailing.imageAlt },
      { kind: 'paragraph', text: mailing.summary },
      { kind: 'button', label: 'Read the post', url: moved(mailing.url) },
    ];
  const featured = mailing.posts.flatMap(
    (slug) => all.find((other) => other.kind === 'post' && other.slug === slug) ?? [],
  );
  return [
    { kind: 'letter', html: moved(mailing.html), text: moved(mailing.text) },
    ...featured.map((post): Block => ({ kind: 'card', title: post.subject, text: post.summary, url: moved(post.url) })),
  ];
}

/**
 * The whole e-mail, as it is sent: the site's layout with a plain-text part, RFC 8058 one-click
 * unsubscribe with the recipient's own link, List-Id and Precedence: bulk, and a footer with the
 * unsubscribe link, why they get it and the sender's postal address. No tracking pixel, and every
 * link goes straight to where it says.
 */
export function composeNewsletter(mailing: Mailing, message: NewsletterMessage, all: readonly Mailing[]): MailMessage {
  const leave = message.unsubscribe;
  const unsubscribePage = linkUrl(message.origin, LINK_PAGES.unsubscribe, leave);
  const moved = movedTo(message.origin, mailing);
  const body = renderMail(
    message.origin,
    mailing.subject,
    [
      // An issue's letter opens with its own greeting; a post alert is greeted here.
      ...(message.firstName && mailing.kind === 'post'
        ? [{ kind: 'paragraph', text: greeting(message.firstName) } as const]
        : []),
      ...bodyBlocks(mailing, all, moved),
    ],
    [
      { kind: 'link', label: 'Read it on the web', url: moved(mailing.url) },
      { kind: 'small', text: whyLine(message) },
      { kind: 'link', label: 'Unsubscribe with one click', url: unsubscribePage },
    ],
  );
  const host = new URL(site.url).hostname;
  return {
    channel: 'mail',
    to: message.to,
    subject: message.subject,
    headers: {
      'List-Unsubscribe': `<${linkUrl(message.origin, LINK_PAGES.oneClick, leave)}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'List-Id': `${site.name.replaceAll(/[^\w .-]/g, '')} newsletter <newsletter.${host}>`,
      Precedence: 'bulk',
    },
    ...body,
    secrets: [leave],
  };
}
