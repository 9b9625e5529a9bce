// src/shared holds what the pages and the functions both import, and ships to the browser: zod and this folder only.
// The records the store keeps, as the admin dashboard shows them.

/**
 * Where a person first arrived on the site in this browser session (first touch): kept in
 * sessionStorage by the pages and sent with every form. Every field is optional.
 */
export interface Attribution {
  /** The path of the first page seen, with its query: `/zoho?utm_source=linkedin`. */
  landingPage?: string;
  /** The host name of the page that linked there (`www.google.com`); absent for direct visits and the site's own pages. */
  referrer?: string;
  utm_source?: string;
  utm_medium?: string;
  utm_campaign?: string;
  utm_term?: string;
  utm_content?: string;
}

/**
 * Double opt-in: `pending` until the person opens the confirmation link, `unsubscribed` once they
 * leave, `bounced` once their mail server refused a message for good (never sent to again, until
 * they confirm a new sign-up).
 */
export type SubscriberStatus = 'pending' | 'confirmed' | 'unsubscribed' | 'bounced';

/** The proof of a subscriber's consent, as the privacy policy describes it. */
export interface Consent {
  /** ISO time of the first subscription. */
  subscribedAt: string;
  /** The form they used (a source). */
  form: string;
  /** The path of the page the form was on. */
  page?: string;
  /** The privacy policy's updatedDate (YYYY-MM-DD) in force when they subscribed. */
  policyDate?: string;
  /** ISO time they confirmed through the e-mailed link; absent while pending (and for records from before double opt-in). */
  confirmedAt?: string;
  /** The privacy policy's updatedDate when they confirmed. */
  confirmedPolicyDate?: string;
  /** ISO time they unsubscribed. */
  unsubscribedAt?: string;
  /** ISO time their mail server refused a message for good, and what it said. */
  bouncedAt?: string;
  bounce?: string;
  /**
   * The consents given before this one and their withdrawals, oldest first (the last
   * EARLIER_CONSENTS_KEPT): someone who unsubscribed and later confirmed a new sign-up keeps the
   * proof of both.
   */
  earlier?: Omit<Consent, 'earlier'>[];
}

/** How many earlier consents a subscriber's record keeps. */
export const EARLIER_CONSENTS_KEPT = 10;

export interface Subscriber {
  /** As the person typed it (trimmed, lower-cased): `ada@bücher.de`. */
  email: string;
  /** The address with an internationalised domain in punycode, for sending; only when it differs from `email`. */
  emailAscii?: string;
  firstName: string;
  lastName?: string;
  /** Every form the person subscribed through, first one first. */
  sources: string[];
  /** ISO time of the first subscription; never changes. */
  createdAt: string;
  /** ISO time of the latest change to the record. */
  updatedAt: string;
  status: SubscriberStatus;
  consent: Consent;
  attribution?: Attribution;
}

/**
 * Where the owner is with a lead: `new` until they act, then replied, call booked, won or lost.
 * In the order the admin offers them.
 */
export const LEAD_STATUSES = ['new', 'replied', 'booked', 'won', 'lost'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

/** How the admin page names each status. */
export const LEAD_STATUS_NAMES: Record<LeadStatus, string> = {
  new: 'New',
  replied: 'Replied',
  booked: 'Call booked',
  won: 'Won',
  lost: 'Lost',
};

/** The longest private note the owner may keep on a lead. */
export const LEAD_NOTE_MAX = 2000;

export interface Lead {
  id: string;
  name: string;
  email: string;
  /** The address with an internationalised domain in punycode, for sending; only when it differs from `email`. */
  emailAscii?: string;
  company?: string;
  source: string;
  notes?: string;
  createdAt: string;
  /** The path of the page the form was on. */
  page?: string;
  attribution?: Attribution;
  /** What the outbox did with the lead's e-mails and webhook (admin reads only). */
  delivery?: Delivery[];
  /**
   * Present when the lead was judged spam. While `releasedAt` is absent the lead is held: it is
   * listed only in the admin's Spam section, not counted, notified or sent to the webhook.
   */
  spam?: SpamMark;
  /** The optional content check's verdict (Akismet); absent when no content check is configured. */
  contentCheck?: ContentCheck;
  /** Where the owner is with it; absent on a lead nobody has marked, which is `new`. */
  status?: LeadStatus;
  /** The owner's private note: shown on the admin page and in its CSV only, never sent anywhere. */
  note?: string;
  /** ISO time the owner last changed the status or the note. */
  updatedAt?: string;
}

/** Why a lead was judged spam, and whether the owner released it. */
export interface SpamMark {
  /** One line per reason: `Akismet: spam`, `7 links in the message (at most 3 allowed)`. */
  reasons: string[];
  /** ISO time the owner chose "Not spam": from then on it counts and is delivered like any lead. */
  releasedAt?: string;
}

/** What the content check said about a lead. */
export interface ContentCheck {
  service: 'akismet';
  /** `unchecked`: the check failed or timed out, and the lead was kept as if it had passed. */
  verdict: 'ham' | 'spam' | 'unchecked';
  /** Why it is unchecked, in a line: `timed out after 1.5 s`, `HTTP 500`. */
  error?: string;
}

/**
 * What an outbox entry does: an e-mail to the team, the guide to a prospect, a confirmation link,
 * a webhook, or a newsletter mailing to one subscriber (or, as a test, to the owner).
 */
export type DeliveryKind =
  | 'lead-notification'
  | 'guide'
  | 'confirmation'
  | 'webhook'
  | 'newsletter'
  | 'weekly-report'
  /** A booking's calendar message to the person: the invitation, a move or a cancellation (iMIP). */
  | 'invitation'
  /** The e-mail 24 hours before a booked call. */
  | 'reminder';

/**
 * pending: waiting for its next attempt; delivered: sent (or written to the local outbox folder);
 * dead: failed for good (a permanent error, or 24 hours of retries), until the owner retries it;
 * cancelled: a newsletter e-mail not sent because its subscriber left (or bounced) before it went.
 */
export type DeliveryStatus = 'pending' | 'delivered' | 'dead' | 'cancelled';

/** One outbox entry's state, as the admin page shows it. */
export interface Delivery {
  id: string;
  kind: DeliveryKind;
  status: DeliveryStatus;
  /** Recipient of an e-mail, or the webhook's host. */
  to: string;
  attempts: number;
  createdAt: string;
  /** When the next attempt is due (pending entries). */
  nextAttemptAt?: string;
  deliveredAt?: string;
  /** The last failure, in a line: `SMTP 550 mailbox unavailable`, `HTTP 500`, `timed out after 10 s`. */
  lastError?: string;
  /** Where it went: `smtp`, the local outbox `file`, or `webhook`. */
  via?: 'smtp' | 'file' | 'webhook';
}

/**
 * A booked call (POST /api/bookings): the times, who booked it and the calendar event's identity.
 * Each booking is also a lead (`leadId`, form `booking`), which carries the first touch.
 */
export interface Booking {
  id: string;
  /** The lead made with it, which has the same id: erasing the lead erases the booking. */
  leadId: string;
  /** ISO times in UTC; `end` is the call's end, without the buffer after it. */
  start: string;
  end: string;
  /** The end of the time the call holds, the buffer after it included (ISO, UTC). */
  heldUntil: string;
  /** The day of the owner's zone it counts in, for the daily cap (YYYY-MM-DD). */
  day: string;
  status: BookingStatus;
  name: string;
  email: string;
  /** The address with an internationalised domain in punycode, for sending; only when it differs from `email`. */
  emailAscii?: string;
  company?: string;
  notes?: string;
  /** The zone the person booked in (an IANA name): their e-mails give the time in it. */
  timeZone: string;
  /** The calendar event's UID (RFC 5545), the same for every message about this call. */
  uid: string;
  /** Raised by every change the person's calendar is sent: a move, a cancellation. */
  sequence: number;
  /** A SHA-256 of the secret of the person's link (base64url): the link itself is never kept. */
  tokenHash: string;
  /**
   * A keyed hash (HMAC) of the network it was booked from, for the limit of calls to come per
   * network: never the address itself.
   */
  client?: string;
  /** The outbox entry of the reminder still to go, if any. */
  reminder?: string;
  createdAt: string;
  updatedAt?: string;
  /** Who cancelled it, and when. */
  cancelled?: { at: string; by: 'person' | 'owner' };
}

export type BookingStatus = 'booked' | 'cancelled';
