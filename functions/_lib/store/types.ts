// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/** What the store keeps and the verbs it offers: getStore() gives these to the functions. */
import type { Attribution, Delivery, DeliveryKind, Lead, LeadStatus, Subscriber } from '../../../src/shared/records';
import type { LeadStatusCounts } from '../../../src/shared/api-responses';
import type { SourceName } from '../../../src/shared/schemas';

export interface SubscribeInput {
  email: string;
  /** The address with an internationalised domain in punycode, for sending; only when it differs from `email`. */
  emailAscii?: string;
  firstName: string;
  lastName?: string;
  source: string;
  /** The page the form was on. */
  page?: string;
  attribution?: Attribution;
  /** The privacy policy's updatedDate in force (YYYY-MM-DD), for the consent record. */
  policyDate?: string;
}

export type LeadInput = Omit<Lead, 'id' | 'createdAt' | 'delivery'>;

/** The owner's change to a lead (LeadUpdateRequest): a status, a note (empty: none), or both. */
export interface LeadUpdate {
  status?: LeadStatus;
  note?: string;
}

/** What narrows the Leads list; every field given must hold, and an empty filter keeps every lead. */
export interface LeadFilter {
  /** Held in the name, e-mail or company, whatever the case. */
  q?: string;
  status?: LeadStatus;
  /** The form the lead came from (its `source`). */
  form?: SourceName;
}

/** What a confirmation link carries: the names and form of the subscription it confirms. */
export interface ConfirmInput {
  email: string;
  firstName: string;
  lastName?: string;
  source: string;
  /**
   * The sign-up the link was sent for (when, on which page, under which privacy policy): the
   * consent being confirmed. Links sent before they carried it have none; the record's own
   * consent is kept then.
   */
  signUp?: { at: string; page?: string; policyDate?: string };
  /** ISO time the link was sent: an unsubscription after it voids the link. */
  sentAt?: string;
  /** The privacy policy's updatedDate in force when the person confirms. */
  policyDate?: string;
}

/** What an outbox entry sends: an e-mail (from is added at sending time) or a webhook body. */
export type OutboxMessage =
  | {
      channel: 'mail';
      to: string[];
      replyTo?: string;
      subject: string;
      text: string;
      html: string;
      /** Extra headers (List-Unsubscribe). */
      headers?: Record<string, string>;
      /**
       * What in the message only its recipient may have (the tokens of its links): once it is sent,
       * the outbox keeps the message with these removed, readable but no longer live.
       */
      secrets?: string[];
      /**
       * A calendar message (iMIP, RFC 6047): the iCalendar file, sent as a `text/calendar` part
       * whose `method` parameter is the file's METHOD, beside the text and HTML.
       */
      calendar?: { method: 'REQUEST' | 'CANCEL'; content: string };
    }
  /**
   * A newsletter e-mail to one person: composed when it is sent, from the mailing as the site
   * publishes it (dist/mailings.json) and these fields, so the outbox keeps a few hundred bytes
   * per recipient however long the letter is (delivery/emails/newsletter-email.ts).
   */
  | {
      channel: 'newsletter';
      /** The mailing's id: `post-<slug>` or `issue-<slug>`. */
      mailing: string;
      to: string[];
      subject: string;
      /** The recipient's first name; absent in a test. */
      firstName?: string;
      /** Where and when they subscribed, from their consent record; absent in a test. */
      consent?: { subscribedAt: string; page?: string };
      /** The site's origin for every link of the e-mail to the site: the page, the unsubscribe, the footer's. */
      origin: string;
      /** The recipient's unsubscribe token: a secret, removed once the e-mail is sent. */
      unsubscribe: string;
    }
  | {
      channel: 'webhook';
      /** The event type: `lead.created`, `subscriber.confirmed`. */
      type: string;
      /** The JSON body, fixed at creation so that every retry sends the same bytes. */
      body: string;
    };

/** An entry as the caller composes it, written with its record in one atomic step. */
export interface NewOutboxEntry {
  /** Also the webhook-id and the e-mail's Message-ID: stable across retries. */
  id: string;
  kind: DeliveryKind;
  /** The lead id or subscriber e-mail it belongs to. */
  ref: string;
  /** Who it goes to, as the admin shows it: the recipients of an e-mail, the webhook's host. */
  to: string;
  message: OutboxMessage;
  /**
   * At most one entry of this key is queued per `seconds`: a later one within that time is not
   * written (its record is). Checked and marked in the same atomic step as the write, so requests
   * at once cannot slip two through. A key names what it limits (`guide:` and a digest of the mailbox).
   */
  throttle?: { key: string; seconds: number };
  /**
   * The newsletter mailing it belongs to: it waits in the outbox's second line, behind every
   * notification, guide and confirmation, at the pace MAIL_RATE_PER_MINUTE allows, and its outcome
   * counts in the mailing's progress.
   */
  mailing?: string;
  /**
   * The mailing this entry is a test of (the owner's "Send a test"): it waits in the same second
   * line, at the same pace, as the mailing's own e-mails, but it belongs to no subscriber and
   * counts in no mailing's progress.
   */
  testOf?: string;
  /** When it is due, if later than when it is written (ISO): a booking's reminder. */
  dueAt?: string;
}

/** An entry as the store keeps it. */
export interface OutboxEntry extends NewOutboxEntry, Omit<Delivery, 'id' | 'kind' | 'to'> {
  /** After this ISO time a failing entry is not retried but marked dead. */
  expiresAt: string;
  /** Dead because the recipient's server refused the address (a bounce). */
  bounced?: true;
}

/** An entry without its message: what the admin's lists read. */
export type OutboxState = Omit<OutboxEntry, 'message'>;

/** What is left of a delivered entry's message once its text is no longer kept: its subject or event type. */
export interface PrunedMessage {
  pruned: true;
  title: string;
}

/** An entry as the admin's Outbox lists it: with its message, or what is left of it. */
export type ListedOutboxEntry = OutboxState & { message: OutboxMessage | PrunedMessage };

/** A claimed entry: its lease token must come back with the outcome. */
export interface ClaimedEntry {
  entry: OutboxEntry;
  lease: string;
}

/** A claimed entry with the outcome of its attempt. */
export interface Completion {
  claimed: ClaimedEntry;
  outcome: DeliveryOutcome;
}

/** Everything the store needs to record an attempt's outcome. */
export type DeliveryOutcome =
  | { kind: 'delivered'; via: NonNullable<Delivery['via']> }
  /** notSetUp: not really tried, its channel is not set up (not counted as an attempt; checked again each minute). */
  | {
      kind: 'failed';
      error: string;
      permanent: boolean;
      notSetUp?: boolean;
      /** The recipient's server refused the address for good (an SMTP 5xx to RCPT TO). */
      bounce?: boolean;
    };

export interface Page {
  offset: number;
  limit: number;
}

/** Options of the writes a form makes. */
export interface WriteOptions {
  /**
   * The submission's idempotency key, already scoped by the caller (one namespace per endpoint).
   * The key is recorded in the same atomic step as the record: a write whose key was seen in the
   * last day stores nothing and gives back what the first one stored.
   */
  idempotencyKey?: string;
  /**
   * A digest of what the submission says, kept with its key: the same key with another digest
   * stores nothing and throws IdempotencyKeyReusedError.
   */
  bodyDigest?: string;
  /**
   * The proof-of-work challenge the submission solved. A challenge is spent once: the store marks
   * it spent in the same atomic step as the record (after the idempotency check, so the retry of
   * a stored submission still gets its first answer) until it expires; a second write with it
   * stores nothing and throws ChallengeSpentError.
   */
  challenge?: SpentChallenge;
}

/** A solved challenge, by its id (ALTCHA's nonce) and when it expires. */
export interface SpentChallenge {
  id: string;
  expiresAt: Date;
}

/** What a write that saves a record with its deliveries is told: what to queue for the record as stored. */
export interface QueueOptions<T> {
  /**
   * The e-mails and webhooks of the record, written in the same atomic step (a throttled one only
   * if its throttle allows it). Called with the record as it will be stored.
   */
  outbox?: (record: T) => NewOutboxEntry[];
}

/** Every write that saves a record and queues its deliveries answers in this shape. */
export interface Saved<T> {
  /** The record as stored (or as it stood, when nothing changed). */
  record: T;
  /** The entries written with it, as the admin shows them; a throttled one held back is not here. */
  queued: Delivery[];
}

export type SubscribeResult =
  | (Saved<Subscriber> & { created: boolean; repeated: false })
  /** The key was seen before: nothing was written; the record as it stands now, if it still exists. */
  | (Saved<Subscriber | undefined> & { created: false; repeated: true });

export type LeadResult = Saved<Lead> & {
  /** The key was seen before: the first lead (or, erased since, the one not stored again). */
  repeated: boolean;
};

/** The outcome of a confirmation or an unsubscription; undefined when the address is not (or no longer) subscribed. */
export type StatusChange = Saved<Subscriber> & {
  /** False when the subscriber was already in that state (a second click on the link), or the change was refused. */
  changed: boolean;
  /**
   * Why nothing changed, when the link may not do it: the person unsubscribed, or their address
   * bounced, after it was sent.
   */
  refused?: 'unsubscribed-since' | 'bounced-since';
};

/** What the Spam section shows. */
export interface SpamOverview {
  /** How many leads are held as spam. */
  held: number;
  /** One page of them, newest first (held leads have no deliveries). */
  leads: Lead[];
  /** Submissions caught by the honeypot, per endpoint. */
  honeypot: Record<string, number>;
  /** Submissions refused for their proof of work, per endpoint. */
  challengeFailures: Record<string, number>;
}

export interface DashboardData {
  /** Every subscriber record, whatever its status. */
  subscriberTotal: number;
  subscriberStatus: SubscriberStatusCounts;
  leadTotal: number;
  outbox: { pending: number; dead: number };
  /** Newest first. */
  subscribers: Subscriber[];
  /** The first page of the leads still `new`, newest first: what waits for an answer. */
  leads: Lead[];
  leadStatuses: LeadStatusCounts;
  /** Leads held as spam. */
  spamHeld: number;
}

export interface SubscriberStatusCounts {
  pending: number;
  confirmed: number;
  unsubscribed: number;
  bounced: number;
}

export interface LoginAttempts {
  /** Attempts in the current window, this one included. */
  count: number;
  /** When the window ends, ms since the epoch. */
  resetAt: number;
}

/** Where a walk through the confirmed subscribers stopped: give it back for the next batch. */
export interface SubscriberCursor {
  /** When the last subscriber of the batch first subscribed (ms), and their address. */
  at: number;
  email: string;
}
