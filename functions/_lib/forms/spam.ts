/**
 * Whether a lead that passed the proof of work is still spam: too many links in what the owner is
 * shown of it (its message, name, company, page and first touch), or,
 * when AKISMET_API_KEY is set, Akismet's verdict on it. A lead judged spam is kept with a spam
 * mark (the admin's Spam section, where "Not spam" releases it), never dropped; a check that
 * fails or is slow keeps the lead as if it had passed and says it was not checked.
 *
 * Akismet is called with fetch rather than a client package: its REST API is one form POST, the
 * key travels as a parameter (so AKISMET_ENDPOINT can point at any server, a local one in the
 * tests), and the request gets a deadline the package cannot set.
 */
import type { Attribution, ContentCheck, SpamMark } from '../../../src/shared/records';
import { getEnv } from '../platform/env';

/** How long a lead waits for Akismet before it is kept unchecked. */
export const CONTENT_CHECK_TIMEOUT_MS = 1500;

/**
 * The rest of an address: up to a space, a quote or bracket, a list separator (`,` `;` `|`), or
 * the start of another address, so that links strung together without spaces count one each.
 */
const TAIL = String.raw`(?:(?![a-z][a-z0-9+.-]{0,15}:\/\/)[^\s<>"'[\],;|])*`;

/**
 * One web address in a text, matched whole so that each counts once: the link markup of forums
 * (`[url=…]…[/url]`) and HTML (`<a …>…</a>`), text and all; an address with a scheme
 * (`https://…`, and the disguised `hxxps://…` or `xhttps://…`) or starting `www.`; and a host with
 * a path (`bit.ly/x`), which mail clients link. A bare host (`Booking.com`) is not counted: a
 * prospect names the tools they use that way, as they write `Node.js/Express` (a `.js` or `.ts`
 * ending is a file's, never a host's). Every part is bounded, so a long hostile text takes linear
 * time.
 */
const LINK = new RegExp(
  String.raw`\[url\b[^\]]{0,300}\](?:[^[]{0,300}\[\/url\])?|<a\s[^>]{0,300}>(?:[^<]{0,300}<\/a>)?|` +
    String.raw`[a-z][a-z0-9+.-]{0,15}:\/\/${TAIL}|\bwww\.[a-z0-9-]${TAIL}|` +
    String.raw`\b[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,8}\.(?!(?:js|ts)\/)[a-z]{2,63}\/${TAIL}`,
  'gi',
);

export function countLinks(text: string | undefined): number {
  return text ? (text.match(LINK)?.length ?? 0) : 0;
}

/** What Akismet is told about a submission: the person's words and how they sent them. */
export interface Submission {
  name: string;
  email: string;
  /** The message (or the guide form's note). */
  content?: string;
  company?: string;
  /** The path of the page the form was on. */
  page?: string;
  /** The first touch the form sent along. */
  attribution?: Attribution;
  /** The full URL of the page the form was on. */
  permalink?: string;
  ip?: string;
  userAgent?: string;
  referrer?: string;
}

export interface Screening {
  /** Present when the lead is spam: it is stored held, not delivered. */
  spam?: SpamMark;
  /** Present when a content check is configured. */
  contentCheck?: ContentCheck;
}

/** Akismet's verdict, or `unchecked` with the reason when it gave none in time. */
async function askAkismet(key: string, endpoint: string, blog: string, submission: Submission): Promise<ContentCheck> {
  const form = new URLSearchParams({
    api_key: key,
    blog,
    comment_type: 'contact-form',
    comment_author: submission.name,
    comment_author_email: submission.email,
    comment_content: submission.content ?? '',
    blog_lang: 'en',
    blog_charset: 'UTF-8',
  });
  for (const [name, value] of [
    ['user_ip', submission.ip],
    ['user_agent', submission.userAgent],
    ['referrer', submission.referrer],
    ['permalink', submission.permalink],
  ] as const) {
    if (value) form.set(name, value);
  }
  try {
    const response = await fetch(`${endpoint.replace(/\/+$/, '')}/comment-check`, {
      method: 'POST',
      body: form,
      signal: AbortSignal.timeout(CONTENT_CHECK_TIMEOUT_MS),
    });
    const answer = (await response.text()).trim();
    if (response.ok && answer === 'true') return { service: 'akismet', verdict: 'spam' };
    if (response.ok && answer === 'false') return { service: 'akismet', verdict: 'ham' };
    // Akismet explains a refusal (a bad key, a missing field) in a header; its body is then "invalid".
    const help = response.headers.get('x-akismet-debug-help');
    const reason = response.ok ? (help ?? `unexpected answer "${answer.slice(0, 40)}"`) : `HTTP ${response.status}`;
    return { service: 'akismet', verdict: 'unchecked', error: reason.slice(0, 200) };
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    return {
      service: 'akismet',
      verdict: 'unchecked',
      error: timedOut ? `timed out after ${CONTENT_CHECK_TIMEOUT_MS / 1000} s` : 'could not be reached',
    };
  }
}

/** A bare host name, as the site's pages send a referring site (`www.linkedin.com`). */
const HOST = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/i;

/**
 * Every field of a lead the owner is shown (the notification, the admin page), by the name a
 * reason gives it: a link is as visible, and as clickable, in a name or a campaign as in the
 * message. The referrer is the one field whose ordinary value is a host: as such it counts for
 * nothing (or every visitor from `www.google.com` would carry a link), anything more counts.
 */
function shownFields({ content, name, company, page, attribution }: Submission): [string, string | undefined][] {
  const referrer = attribution?.referrer;
  return [
    ['message', content],
    ['name', name],
    ['company', company],
    ['page', page],
    ['landing page', attribution?.landingPage],
    ['referrer', referrer && HOST.test(referrer) ? undefined : referrer],
    ['utm_source', attribution?.utm_source],
    ['utm_medium', attribution?.utm_medium],
    ['utm_campaign', attribution?.utm_campaign],
    ['utm_term', attribution?.utm_term],
    ['utm_content', attribution?.utm_content],
  ];
}

/** `8 links in the name, company and page (at most 3 allowed)` when there are more links than allowed. */
export function linkReason(submission: Submission, allowed: number): string | undefined {
  const holding = shownFields(submission)
    .map(([field, text]) => [field, countLinks(text)] as const)
    .filter(([, links]) => links > 0);
  const links = holding.reduce((sum, [, count]) => sum + count, 0);
  if (links <= allowed) return undefined;
  const fields = holding.map(([field]) => field);
  const where = fields.length > 1 ? `${fields.slice(0, -1).join(', ')} and ${fields.at(-1)}` : fields[0];
  return `${links} links in the ${where} (at most ${allowed} allowed)`;
}

/** Screens a lead: links first (no request needed), then Akismet when configured. `blog` is the site's origin. */
export async function screenLead(submission: Submission, blog: string): Promise<Screening> {
  const env = getEnv();
  const reasons: string[] = [];
  const links = linkReason(submission, env.SPAM_MAX_LINKS);
  if (links) reasons.push(links);
  let contentCheck: ContentCheck | undefined;
  if (env.AKISMET_API_KEY) {
    contentCheck = await askAkismet(env.AKISMET_API_KEY, env.AKISMET_ENDPOINT, blog, submission);
    if (contentCheck.verdict === 'spam') reasons.push('Akismet: spam');
  }
  return { ...(reasons.length ? { spam: { reasons } } : {}), ...(contentCheck ? { contentCheck } : {}) };
}
