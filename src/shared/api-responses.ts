// src/shared holds what the pages and the functions both import, and ships to the browser: zod and this folder only.
// The bodies the /api answers with: the functions build them, the admin page and the build read them.
import type { Booking, Delivery, DeliveryKind, Lead, LeadStatus, Subscriber } from './records';

/** The error body every endpoint answers with. */
export interface ApiErrorBody {
  error: string;
  /** A message per invalid field (422). */
  fields?: Record<string, string>;
}

/** One page of a newest-first list, with the total, as the dashboard's tables read it. */
export interface ListPage<T> {
  items: T[];
  total: number;
  /** From 1. */
  page: number;
  pageSize: number;
}

/** New records: all of them, and those of the last 7 and 30 days in the site's time zone (today included). */
export interface Totals {
  total: number;
  last7: number;
  last30: number;
}

/** How the site delivers what the outbox holds, so the admin page can say who is being notified. */
export interface DeliverySetup {
  /** smtp: sent through SMTP_URL; file: written as .eml files to the local outbox folder (local runs); none: not sent (a deployed site without SMTP_URL). */
  mail: 'smtp' | 'file' | 'none';
  /** Who gets the lead notifications. */
  notifyTo: string[];
  /** Whether leads and confirmed subscribers are POSTed to LEAD_WEBHOOK_URL. */
  webhook: boolean;
  /** What the owner must fix for e-mails to reach people (a heading and what to do); absent when all is well. */
  warning?: { title: string; text: string };
}

/** GET /api/admin/overview: everything the dashboard's first view shows. */
export interface Overview {
  /** subscribers: confirmed ones only (total, and confirmed in the last 7 and 30 days). */
  totals: { subscribers: Totals; leads: Totals };
  /** Subscribers by status. */
  subscriberStatus: { pending: number; confirmed: number; unsubscribed: number; bounced: number };
  delivery: DeliverySetup;
  /** Outbox entries waiting for a retry, and those that failed for good. */
  outbox: { pending: number; dead: number };
  /** New records per day in the site's time zone (`timeZone`), oldest first, ending `today`. */
  daily: { day: string; subscribers: number; leads: number }[];
  /** New records per form over those days; the keys are sources as stored. */
  sources: { subscribers: Record<string, number>; leads: Record<string, number> };
  /** The first page of each list: of the leads, the New ones (what still needs an answer), as `?status=new` lists them. */
  subscribers: ListPage<Subscriber>;
  leads: ListPage<Lead>;
  /** Leads in each status, the whole list. */
  leadStatuses: LeadStatusCounts;
  /** Leads held as spam, waiting for the owner's look in the Spam section. */
  spam: { held: number };
  /** Today in the site's time zone (SITE_TIME_ZONE), YYYY-MM-DD: where the Visits section's ranges end. */
  today: string;
  /**
   * The site's time zone, SITE_TIME_ZONE (an IANA name, `Europe/London`): the one the admin page
   * writes records' days and times in, whatever the zone of the browser reading it.
   */
  timeZone: string;
}

/** Leads (those held as spam apart) in each status: `new` counts those nobody has marked yet. */
export type LeadStatusCounts = Record<LeadStatus, number>;

/**
 * GET /api/admin/leads (`?page=n`, `?q=text`, `?status=`, `?form=`): one page of the leads the
 * filters keep, newest first, with their total; a filter by text or form looks through the newest
 * 20,000 leads only. `statuses` counts the whole list, whatever the filters, for "New (4)".
 */
export interface LeadsPage extends ListPage<Lead> {
  statuses: LeadStatusCounts;
}

/**
 * GET /api/admin/spam: one page of the leads held as spam, newest first, and the submissions
 * refused before anything was stored, per form endpoint (`leads-create`, `newsletter-subscribe`).
 */
export interface SpamPage {
  leads: ListPage<Lead>;
  /** Caught by the honeypot. */
  honeypot: Record<string, number>;
  /** Refused for a missing, invalid, expired or spent proof of work. */
  challengeFailures: Record<string, number>;
}

/**
 * GET /api/admin/outbox: one entry of the outbox, newest first, with the message as it was (or
 * will be) sent, so the owner can read it.
 */
export interface OutboxItem extends Delivery {
  kind: DeliveryKind;
  /** The lead id or subscriber e-mail the entry belongs to. */
  ref: string;
  /** An e-mail's subject, or the webhook's event type. */
  subject: string;
  /** An e-mail's plain-text part, or the webhook's JSON body; empty once the text is no longer kept. */
  text: string;
  /** False once the text is no longer kept (30 days after delivery): only the subject and the state stay. */
  textKept?: false;
}

/**
 * Where a mailing stands. unsent: published, neither sent nor declined; sending: its entries are
 * being written (a batch a minute at most, resumed where it stopped) or delivered; sent: every
 * entry written and none left waiting or failed; incomplete: none left waiting, but some failed
 * for good (other than bounces), to retry from the Outbox; skipped: the owner chose "Don't send".
 */
export type MailingStatus = 'unsent' | 'sending' | 'sent' | 'incomplete' | 'skipped';

/** How a mailing's sending goes, entry by entry: one entry per confirmed subscriber. */
export interface MailingProgress {
  /** Entries written so far (one per subscriber confirmed when their entry was written). */
  queued: number;
  /** Accepted by the SMTP server (or written to the local outbox folder). */
  sent: number;
  /** Failed for good, other than a bounce. */
  failed: number;
  /** Refused by the recipient's server for good: the subscriber is marked bounced and never sent to again. */
  bounced: number;
  /** Not sent: the person unsubscribed (or bounced) after their entry was written. */
  cancelled: number;
}

/** The answer to "Send a test": who it was for, and whether the mail server took it before the answer. */
export interface NewsletterTestAnswer {
  ok: true;
  to: string[];
  /** True: the mail server took it. */
  sent: boolean;
  /**
   * True: not tried yet, it waits its turn in the newsletter's line (lead notifications go first,
   * newsletter e-mails at MAIL_RATE_PER_MINUTE) and goes with the next sweep. Both false: the mail
   * server did not take it; it waits in the Outbox with the server's error and is retried.
   */
  waiting: boolean;
}

/** A published post or issue in the admin's Newsletter section. */
export interface NewsletterItem {
  /** `post-<slug>` or `issue-<slug>`. */
  id: string;
  kind: 'post' | 'issue';
  slug: string;
  subject: string;
  summary: string;
  /** Its page on the site (the e-mail's web version). */
  url: string;
  /** YYYY-MM-DD. */
  publishedDate: string;
  status: MailingStatus;
  /** When sending was asked for, and by whom (the owner's click, or NEWSLETTER_AUTO_SEND_HOURS). */
  requestedAt?: string;
  requestedBy?: 'owner' | 'automatic';
  /** When the last entry was written. */
  fannedOutAt?: string;
  /** When the owner chose "Don't send". */
  skippedAt?: string;
  /** Once sending was asked for. */
  progress?: MailingProgress;
  /** With NEWSLETTER_AUTO_SEND_HOURS set, an unsent one: when it goes out unless declined first. */
  autoSendAt?: string;
  /** With NEWSLETTER_AUTO_SEND_HOURS set, why an unsent one will not go out by itself. */
  autoSendNote?: string;
}

/** GET /api/admin/newsletter: what there is to send, and what was sent, newest first. */
export interface NewsletterPage {
  /** Confirmed subscribers now: the N of "Send to N subscribers". */
  confirmed: number;
  /** Where "Send a test" goes unless another address is typed in: LEADS_NOTIFY_TO. */
  testTo: string[];
  /** NEWSLETTER_AUTO_SEND_HOURS, when set. */
  autoSendHours?: number;
  /** MAIL_RATE_PER_MINUTE: newsletter e-mails sent per minute at most; null when unlimited. */
  ratePerMinute: number | null;
  /** Every published issue and post: those not yet sent first, newest first, then the rest, newest first. */
  items: NewsletterItem[];
}

/** GET /api/admin/newsletter/{id}/preview: the e-mail exactly as a subscriber gets it (with a sample recipient's name, date and links). */
export interface NewsletterPreview {
  subject: string;
  /** The HTML part, a whole document: shown in a sandboxed iframe. */
  html: string;
  text: string;
  /** The headers it is sent with besides From, To, Subject, Date and Message-ID (List-Unsubscribe, List-Id, Precedence). */
  headers: Record<string, string>;
}

/** POST /api/newsletter/confirm and /api/newsletter/unsubscribe answer with the subscriber's new state. */
export interface SubscriptionAnswer {
  ok: true;
  status: 'confirmed' | 'unsubscribed';
}

/**
 * 409 from POST /api/newsletter/confirm: the link was sent before the person unsubscribed or their
 * address bounced, so it confirms nothing; `status` is theirs now, for the page to say which.
 */
export interface SubscriptionRefusal extends ApiErrorBody {
  status: 'unsubscribed' | 'bounced';
}

/** GET /api/sectors and /api/sectors/{slug}. */
export interface ApiSector {
  id: number;
  slug: string;
  name: string;
  summary: string;
  /** Markdown. */
  description: string;
  imageUrl: string;
  automations: { title: string; text: string }[];
}

/** GET /api/mini-apps (?sector=name or slug) and /api/mini-apps/{slug}. */
export interface ApiMiniApp {
  id: number;
  slug: string;
  name: string;
  summary: string;
  description: string;
  /** Which icon the cards show. */
  icon: string;
  /** Sector names, in display order. */
  sectors: string[];
  best_for: string[];
  key_benefits: string[];
}

/** GET /api/blog and /api/blog/{slug}. */
export interface ApiPost {
  /** Publication order: the oldest post is 1. */
  id: number;
  slug: string;
  title: string;
  summary: string;
  /** Markdown. */
  content: string;
  imageUrl: string;
  /** YYYY-MM-DD. */
  publishedDate: string;
}

/** GET /api/legal/privacypolicy. */
export interface ApiPrivacyPolicy {
  title: string;
  /** YYYY-MM-DD. */
  updatedDate: string;
  /** Markdown. */
  content: string;
}

/** Everything the content /api serves, written once per build to dist/api-data.json. */
export interface ApiData {
  sectors: ApiSector[];
  miniApps: ApiMiniApp[];
  posts: ApiPost[];
  privacyPolicy: ApiPrivacyPolicy;
}

/**
 * What the people of a page, source or campaign did, counted from their own records by their
 * first touch, and the visitors counted beside them.
 */
export interface VisitOutcomes {
  visitors: number;
  leads: number;
  /**
   * Of `leads`, those that came on or after `countedFrom`: the only ones a conversion rate divides
   * by `visitors` (conversionOf in src/shared/visits-conversion.ts). The rest came on days on which
   * no visit was counted (before counting began, say), and have no visitors to be divided by.
   */
  measuredLeads: number;
  /** Of `leads`, those whose status is now `won`. */
  won: number;
  subscribers: number;
}

/** A page's own figures over a range, its leads and subscribers counted by the landing page of their first touch. */
export interface VisitPageRow extends VisitOutcomes {
  /** A page of the build (`/sectors/restaurant`), or `other` for every path that is not one. */
  path: string;
  pageviews: number;
  /** Visits that began on this page. */
  entries: number;
}

/**
 * GET /api/admin/visits?from=YYYY-MM-DD&to=YYYY-MM-DD: the site's cookieless visits figures
 * over a range of days in the site's time zone, both ends included. A visitor is counted once a
 * day (the day's salt makes a new hash each day), so `visitors` over several days is the sum of
 * the daily counts, not the number of distinct people. Leads and subscribers are counted from
 * their own records, by first touch, and never joined to a visit.
 */
export interface VisitsReport {
  from: string;
  to: string;
  /**
   * The first day of the range on which any visit was counted, absent when none was. Leads of
   * earlier days are counted but not in `measuredLeads`: dividing them by visitors counted later
   * gave rates over 100 %.
   */
  countedFrom?: string;
  /** `won`: of the range's leads, those whose status is now `won`; `subscribers`: confirmed in the range. */
  totals: VisitOutcomes & { pageviews: number };
  /** Every day of the range, oldest first, zeros included. */
  days: { date: string; visitors: number; pageviews: number }[];
  /** Most visitors first. */
  pages: VisitPageRow[];
  /**
   * `utm_source`, else the referring host without `www.`, else `Direct`, with one name for each
   * site known under several (`Google`, `LinkedIn`, `E-mail`: functions/_lib/visits/source-names.ts),
   * and `(other)` for a value that is not a short name; most visitors first.
   */
  sources: (VisitOutcomes & { source: string })[];
  /** `utm_campaign`, `(other)` for one that is not a short name; visits without one are left out. Most visitors first. */
  campaigns: (VisitOutcomes & { campaign: string })[];
  /** `phone`, `tablet` or `desktop`; most visitors first. */
  devices: { device: string; visitors: number }[];
}

/** A booked call as the admin's Bookings section lists it: the booking (without its link's hash) and its lead. */
export interface AdminBooking extends Omit<Booking, 'tokenHash'> {
  /** The lead made with it, as the Leads section shows it; absent once the owner erased it. */
  lead?: Lead;
}

/** GET /api/admin/bookings: the calls to come, soonest first, and the last ones past or cancelled, latest first. */
export interface AdminBookings {
  /** The owner's zone (content/booking/hours.yaml): the calls' times are shown in it. */
  timeZone: string;
  upcoming: AdminBooking[];
  past: AdminBooking[];
}
