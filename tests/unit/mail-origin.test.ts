/**
 * Every link an e-mail has to the site points at one origin: the one its delivery settings (or,
 * for the newsletter, its mailing's record) hold. The build writes the mailings at the site's
 * configured URL; a local run opened on another port must still send links that reach it, as its
 * unsubscribe link does, and a deployed site (where the two are the same) sends what the build wrote.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { confirmationEntry } from '../../functions/_lib/delivery/emails/confirmation';
import { guideEntry } from '../../functions/_lib/delivery/emails/guide';
import { leadNotification } from '../../functions/_lib/delivery/emails/lead-notification';
import {
  composeNewsletter,
  mailingId,
  newsletterEntry,
  testEntry,
  type NewsletterMessage,
} from '../../functions/_lib/delivery/emails/newsletter-email';
import { resetEnv } from '../../functions/_lib/platform/env';
import type { NewOutboxEntry } from '../../functions/_lib/store/types';
import type { IssueMailing, Mailing, PostMailing } from '../../src/shared/mailing-types';
import type { Lead, Subscriber } from '../../src/shared/records';

/** Where a local build puts the site when PUBLIC_SITE_URL is not set. */
const BUILT = 'http://localhost:4321';
const LOCAL = 'http://localhost:4700';
/** Links away from the site, which stay as they are. */
const ELSEWHERE = 'https://www.zoho.com/crm/';
const NOW = new Date('2026-12-01T09:00:00.000Z');

const POST: PostMailing = {
  kind: 'post',
  slug: 'automate-invoicing',
  subject: 'Automate your invoicing',
  summary: 'Three steps from a spreadsheet to invoices that send themselves.',
  url: `${BUILT}/blog/automate-invoicing`,
  publishedDate: '2026-11-30',
  imageUrl: `${BUILT}/_astro/cover.Bx1.png`,
  imageAlt: 'An invoice with a tick',
};
const ISSUE: IssueMailing = {
  kind: 'issue',
  slug: 'december',
  subject: 'Three automations before the new year',
  summary: 'What to set up before the holidays.',
  url: `${BUILT}/newsletter/december`,
  publishedDate: '2026-12-01',
  html: `<p>Hi there,</p><p>Start with <a href="${BUILT}/blog/automate-invoicing">invoicing</a>, then <a href="${BUILT}/sectors/saas#crm">your CRM</a> (<a href="${ELSEWHERE}">Zoho</a>).</p>`,
  text: `Hi there,\n\nStart with [invoicing](${BUILT}/blog/automate-invoicing), then [your CRM](${BUILT}/sectors/saas#crm) ([Zoho](${ELSEWHERE})).`,
  posts: [POST.slug],
};
const ALL: Mailing[] = [ISSUE, POST];

const SUBSCRIBER: Subscriber = {
  email: 'ada@example.com',
  firstName: 'Ada',
  sources: ['newsletter_footer'],
  createdAt: '2026-11-02T10:00:00.000Z',
  updatedAt: '2026-11-02T10:05:00.000Z',
  status: 'confirmed',
  consent: { subscribedAt: '2026-11-02T10:00:00.000Z', form: 'newsletter_footer', page: '/blog' },
};
const LEAD: Lead = {
  id: 'lead-1',
  name: 'Ben Adeyemi',
  email: 'ben@example.com',
  source: 'zoho_guide',
  createdAt: '2026-12-01T08:59:00.000Z',
  page: '/guides',
};

const saved = process.env.SESSION_SECRET;
beforeAll(() => {
  process.env.SESSION_SECRET = 'mail-origin-test-secret-0123456789abcdef';
  resetEnv();
});
afterAll(() => {
  if (saved === undefined) delete process.env.SESSION_SECRET;
  else process.env.SESSION_SECRET = saved;
  resetEnv();
});

/** The newsletter e-mail of one mailing, to a subscriber (as the sweep sends it) or as the owner's test. */
function newsletterMail(mailing: Mailing, to: 'subscriber' | 'test', origin: string) {
  const ref = { id: mailingId(mailing), subject: mailing.subject };
  const entry =
    to === 'subscriber'
      ? newsletterEntry(ref, SUBSCRIBER, origin, NOW)
      : testEntry(ref, ['owner@example.com'], origin, NOW);
  return composeNewsletter(mailing, entry.message as NewsletterMessage, ALL);
}

/** Every address in an e-mail's text, HTML and headers, but the links away from the site. */
function siteLinks({ text, html, headers = {} }: { text: string; html: string; headers?: Record<string, string> }) {
  return [text, html, ...Object.values(headers)]
    .flatMap((part) => part.match(/https?:\/\/[^\s"'<>()[\]]+/g) ?? [])
    .filter((url) => url !== ELSEWHERE);
}

/** What an outbox entry sends by e-mail. */
function mailOf(entry: NewOutboxEntry | undefined) {
  if (entry?.message.channel !== 'mail') throw new Error('not an e-mail');
  return entry.message;
}

describe('the links of a newsletter e-mail', () => {
  test.each([
    ['a post', 'subscriber', POST],
    ['a post', 'test', POST],
    ['an issue', 'subscriber', ISSUE],
    ['an issue', 'test', ISSUE],
  ] as const)('%s to a %s, opened locally on another port, all point at that port', (_kind, to, mailing) => {
    const mail = newsletterMail(mailing, to, LOCAL);
    const links = siteLinks(mail);
    expect(links.filter((url) => !url.startsWith(`${LOCAL}/`) && url !== LOCAL)).toEqual([]);
    // The page (the button or the card, and the web version), the unsubscribe links and the footer's.
    expect(links.filter((url) => url === `${LOCAL}${new URL(mailing.url).pathname}`).length).toBeGreaterThanOrEqual(2);
    expect(links.filter((url) => url.startsWith(`${LOCAL}/newsletter/unsubscribe?token=`)).length).toBeGreaterThan(0);
    expect(links).toContain(LOCAL);
  });

  test('an issue keeps its letter, its links away from the site and its cards, at the same paths', () => {
    const mail = newsletterMail(ISSUE, 'subscriber', LOCAL);
    expect(mail.html).toContain(ISSUE.html.replaceAll(BUILT, LOCAL));
    expect(mail.text).toContain(ISSUE.text.replaceAll(BUILT, LOCAL));
    expect(mail.text).toContain(`${POST.subject}\n${POST.summary}\n${LOCAL}/blog/automate-invoicing`);
  });

  test('deployed, where the origin is the one the build wrote, sends the mailing as it was built', () => {
    const mail = newsletterMail(ISSUE, 'subscriber', BUILT);
    expect(mail.html).toContain(ISSUE.html);
    expect(mail.text).toContain(ISSUE.text);
    expect(siteLinks(mail).filter((url) => !url.startsWith(BUILT))).toEqual([]);
  });

  test('a link at a look-alike origin is not moved', () => {
    const lookAlike = `${BUILT}0/page ${BUILT}.evil.example/page`;
    const mail = newsletterMail({ ...ISSUE, html: `<p>${lookAlike}</p>`, text: lookAlike }, 'subscriber', LOCAL);
    expect(mail.html).toContain(lookAlike);
    expect(mail.text).toContain(lookAlike);
  });
});

describe('the links of the other e-mails', () => {
  const settings = { origin: LOCAL, notifyTo: ['team@example.com'], webhookHost: undefined };
  const input = { email: 'ada@example.com', firstName: 'Ada', source: 'newsletter_footer', page: '/blog' };

  test.each([
    ['the confirmation', () => mailOf(confirmationEntry(input, NOW, settings))],
    ['the lead notification', () => mailOf(leadNotification(LEAD, settings))],
    ['the guide', () => mailOf(guideEntry(LEAD, settings))],
  ])('%s, opened locally on another port, all point at that port', (_name, mail) => {
    const links = siteLinks(mail());
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((url) => !url.startsWith(`${LOCAL}/`) && url !== LOCAL)).toEqual([]);
  });

  test('the guide says where it was asked for at that origin', () => {
    expect(mailOf(guideEntry(LEAD, settings)).text).toContain('requested with this address on localhost:4700.');
  });
});
