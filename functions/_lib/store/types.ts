// functions/_lib/store keeps the records: the Store interface, its Redis and SQLite adapters, and getStore() with its deadlines.
/** What the store keeps, and the verbs it offers. Both adapters implement this one interface. */
import type { Attribution, Delivery, DeliveryKind, Lead, Subscriber } from '../../../src/shared/records';

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
}

/** An entry as the store keeps it. */
export interface OutboxEntry extends NewOutboxEntry, Omit<Delivery, 'id' | 'kind' | 'to'> {
  /** After this ISO time a failing entry is not retried but marked dead. */
  expiresAt: string;
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

/**
 * How long the text of a delivered e-mail or webhook is kept for the owner to read; then only its
 * subject stays with its state (who, when, delivered), as long as its record is kept.
 */
export const OUTBOX_MESSAGE_KEEP_MS = 30 * 24 * 3600_000;

/** A claimed entry: its lease token must come back with the outcome. */
export interface ClaimedEntry {
  entry: OutboxEntry;
  lease: string;
}

/** How long a claimed entry is reserved for its claimer (longer than any delivery attempt takes). */
export const OUTBOX_LEASE_MS = 2 * 60_000;
/** How long a failing entry is retried before it is marked dead. */
export const OUTBOX_RETRY_WINDOW_MS = 24 * 3600_000;

/** A claimed entry with the outcome of its attempt. */
export interface Completion {
  claimed: ClaimedEntry;
  outcome: DeliveryOutcome;
}

/** Everything the store needs to record an attempt's outcome. */
export type DeliveryOutcome =
  | { kind: 'delivered'; via: NonNullable<Delivery['via']> }
  /** notSetUp: not really tried, its channel is not set up (not counted as an attempt; checked again each minute). */
  | { kind: 'failed'; error: string; permanent: boolean; notSetUp?: boolean };

export interface Page {
  offset: number;
  limit: number;
}

/**
 * New records per UTC day and source: `{ '2026-11-22': { website_footer: 3 } }`. Sources come
 * from what people send, so both levels are null-prototype objects (see `countTable`).
 */
export type DailyCounts = Record<string, Record<string, number>>;

/**
 * An empty table of counts keyed by user input. Without a prototype, keys such as `constructor`,
 * `toString` or `__proto__` are plain data: `counts[key] ?? 0` never finds an inherited function.
 */
export function countTable<T = number>(): Record<string, T> {
  return Object.create(null);
}

/** How long a form submission's idempotency key is remembered. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

/** Options of the writes a form makes. */
export interface WriteOptions {
  /**
   * The submission's idempotency key, already scoped by the caller (one namespace per endpoint).
   * The key is recorded in the same atomic step as the record: a write whose key was seen in the
   * last IDEMPOTENCY_TTL_SECONDS stores nothing and gives back what the first one stored.
   */
  idempotencyKey?: string;
  /**
   * The proof-of-work challenge the submission solved. A challenge is spent once: the store marks
   * it spent in the same atomic step as the record (after the idempotency check, so the retry of
   * a stored submission still gets its first answer) and keeps the mark until the challenge
   * expires; a second write with it stores nothing and throws ChallengeSpentError.
   */
  challenge?: SpentChallenge;
}

/** A solved challenge, by its id (ALTCHA's nonce) and when it expires. */
export interface SpentChallenge {
  id: string;
  expiresAt: Date;
}

export interface LeadWriteOptions extends WriteOptions {
  /** The outbox entries of a new lead, written in the same atomic step as the lead. */
  outbox?: (lead: Lead) => NewOutboxEntry[];
}

export interface SubscribeWriteOptions extends WriteOptions {
  /**
   * The confirmation e-mail of this subscription: written with the record in one atomic step, but
   * only if its throttle allows it (at most one an hour to a mailbox).
   */
  confirmation?: NewOutboxEntry;
}

export type SubscribeResult =
  | { subscriber: Subscriber; created: boolean; repeated: false; confirmationQueued: boolean }
  /** The key was seen before: nothing was written; the record as it stands now, if it still exists. */
  | { subscriber: Subscriber | undefined; created: false; repeated: true; confirmationQueued: false };

/** The outcome of a confirmation or an unsubscription; undefined when the address is not (or no longer) subscribed. */
export interface StatusChange {
  subscriber: Subscriber;
  /** False when the subscriber was already in that state (a second click on the link), or the change was refused. */
  changed: boolean;
  /** Why nothing changed, when the link may not do it: the person unsubscribed after it was sent. */
  refused?: 'unsubscribed-since';
}

/** The verbs the functions call: getStore() gives them, each with a deadline. */
export interface StoreVerbs {
  /**
   * Records a subscription: a new address becomes a pending subscriber; a known one is left as it
   * is (names and sources change only when a confirmation link is opened). Queues the
   * confirmation e-mail unless its throttle holds it back.
   */
  subscribe(input: SubscribeInput, now: Date, options?: SubscribeWriteOptions): Promise<SubscribeResult>;
  /**
   * Confirms a subscriber with what the link carries (names, form); the outbox entries (the
   * webhook) are written in the same step, only when the status changes to confirmed.
   */
  confirmSubscriber(
    input: ConfirmInput,
    now: Date,
    outbox?: (subscriber: Subscriber) => NewOutboxEntry[],
  ): Promise<StatusChange | undefined>;
  unsubscribe(email: string, now: Date): Promise<StatusChange | undefined>;
  /**
   * Appends a lead with its outbox entries; with a key seen before, appends nothing and gives back
   * the first lead. A lead whose input holds a `spam` mark is held: it is kept and listed by
   * spamOverview() only (not in listLeads, countLeads, the per-day or campaign counts or the
   * dashboard's leads) and `options.outbox` is not called, so nothing is queued for it.
   */
  createLead(input: LeadInput, now: Date, options?: LeadWriteOptions): Promise<Lead>;
  /**
   * "Not spam": a held lead becomes an ordinary one, atomically: `spam.releasedAt` is set, it joins
   * the leads (listed and counted under its original createdAt day and campaign) and its outbox
   * entries are queued. Undefined when no lead of that id is held (unknown, or released already:
   * of two releases at once, one queues the entries).
   */
  releaseSpam(id: string, now: Date, outbox: (lead: Lead) => NewOutboxEntry[]): Promise<Lead | undefined>;
  /** The admin's Spam section: the held leads, newest first, and what was caught before storing. */
  spamOverview(page: Page): Promise<SpamOverview>;
  /** Counts a submission refused for a missing, invalid, expired or spent proof of work, per endpoint. */
  recordChallengeFailure(endpoint: string, now: Date): Promise<void>;

  /**
   * Reserves up to `limit` entries due at `now` (or, with `ids`, those of them that are due) for
   * OUTBOX_LEASE_MS: no other claim gets them until the outcome is recorded or the lease ends.
   */
  claimOutbox(now: Date, limit: number, ids?: string[]): Promise<ClaimedEntry[]>;
  /**
   * Records the outcomes of attempts, in one store call; an outcome whose lease was lost (it ran
   * out and the entry was claimed again) is ignored. Answers how many were recorded.
   */
  completeOutbox(completions: Completion[], now: Date): Promise<number>;
  /** Puts a dead entry back in line, due now, with a new 24-hour window; false when there is no dead entry of that id. */
  retryOutbox(id: string, now: Date): Promise<boolean>;
  /** Newest first. */
  listOutbox(page: Page): Promise<ListedOutboxEntry[]>;
  /**
   * Forgets the text of up to `limit` entries delivered before `before`, oldest first, keeping
   * their states and subjects; answers how many. Entries waiting or dead keep their messages.
   */
  pruneOutbox(before: Date, limit: number): Promise<number>;
  countOutbox(): Promise<{ total: number; pending: number; dead: number }>;
  /** Subscribers by status. */
  subscriberStatusCounts(): Promise<{ pending: number; confirmed: number; unsubscribed: number }>;
  /** Counts a submission caught by the honeypot, per endpoint. */
  recordHoneypot(endpoint: string, now: Date): Promise<void>;
  countSubscribers(): Promise<number>;
  countLeads(): Promise<number>;
  /** Newest first. */
  listSubscribers(page: Page): Promise<Subscriber[]>;
  /** Newest first. */
  listLeads(page: Page): Promise<Lead[]>;
  /** What the admin dashboard's first view needs, in as few store round trips as the adapter can manage. */
  dashboard(days: string[], page: Page): Promise<DashboardData>;
  /** Erases a subscriber (an erasure request); true when there was one. */
  deleteSubscriber(email: string): Promise<boolean>;
  /**
   * Erases a lead, held or not, with its outbox entries (an erasure request, or a lead the owner
   * does not want kept), atomically; it leaves every list and count. True when there was one. A
   * form submission repeated with the erased lead's idempotency key stores nothing again.
   */
  deleteLead(id: string): Promise<boolean>;

  /** Admin sessions live server-side so that logout and expiry really revoke them. */
  createSession(sessionId: string, expiresAt: Date): Promise<void>;
  hasSession(sessionId: string, now: Date): Promise<boolean>;
  deleteSession(sessionId: string): Promise<void>;
  /**
   * Counts an admin login attempt of a client, atomically, before its password is checked: the
   * answer is this attempt's number in the current window (which starts at the first attempt
   * and lasts windowSeconds), so however many arrive at once, each gets its own number.
   */
  countLoginAttempt(client: string, windowSeconds: number, now: Date): Promise<LoginAttempts>;
  /** Forgets a client's attempts (after a successful login). */
  clearLoginAttempts(client: string): Promise<void>;
}

/**
 * What each adapter implements, and the contract test holds both to: the functions' verbs and
 * three reads no endpoint makes. Tests and the e2e fixtures read records and counts back through
 * them to check what a write left, in the store's own terms rather than its keys or tables;
 * getStore() does not offer them, so no endpoint comes to depend on them.
 */
export interface Store extends StoreVerbs {
  getSubscriber(email: string): Promise<Subscriber | undefined>;
  /** New subscribers, confirmations or leads per day and source, for the given UTC days (YYYY-MM-DD). */
  dailyCounts(kind: CountKind, days: string[]): Promise<DailyCounts>;
  /** Submissions caught by the honeypot, per endpoint. */
  honeypotCounts(): Promise<Record<string, number>>;
}

/** What the per-day counts count: sign-ups (any status), confirmations, or leads. */
export type CountKind = 'subscribers' | 'confirmations' | 'leads';

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
  subscriberStatus: { pending: number; confirmed: number; unsubscribed: number };
  leadTotal: number;
  subscriberDaily: DailyCounts;
  confirmationDaily: DailyCounts;
  leadDaily: DailyCounts;
  outbox: { pending: number; dead: number };
  /** Leads and sign-ups per campaign key (campaignKey()). */
  campaignCounts: { leads: Record<string, number>; subscribers: Record<string, number> };
  /** Newest first. */
  subscribers: Subscriber[];
  leads: Lead[];
  /** Leads held as spam. */
  spamHeld: number;
}

export interface LoginAttempts {
  /** Attempts in the current window, this one included. */
  count: number;
  /** When the window ends, ms since the epoch. */
  resetAt: number;
}

/** What a campaign without a value shows. */
export const NO_CAMPAIGN = '(none)';

/** The key a record is counted under in the by-campaign breakdown: utm_source, utm_medium and utm_campaign, tab-separated. */
export function campaignKey(attribution: Attribution | undefined): string {
  const { utm_source, utm_medium, utm_campaign } = attribution ?? {};
  // A tab cannot occur in a value (the schema refuses control characters), so the key splits back exactly.
  return [utm_source, utm_medium, utm_campaign].map((value) => value ?? NO_CAMPAIGN).join('\t');
}

/** A subscriber record as stored before double opt-in had no status: it counts as confirmed, with what it has for consent. */
export function withStatus(record: Omit<Subscriber, 'status' | 'consent'> & Partial<Subscriber>): Subscriber {
  return {
    ...record,
    status: record.status ?? 'confirmed',
    consent: record.consent ?? { subscribedAt: record.createdAt, form: record.sources[0] ?? '' },
  };
}

/** The UTC calendar day of a moment, YYYY-MM-DD. */
export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Raised by a write whose proof-of-work challenge was spent before; the form endpoint answers 422. */
export class ChallengeSpentError extends Error {
  constructor() {
    super('This proof of work was already used');
    this.name = 'ChallengeSpentError';
  }
}

/** Raised when the store cannot be reached or answers too slowly; endpoint() answers 503. */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

/** Raised when this environment has no store (a deployed site without Upstash); endpoint() answers 503. */
export class StoreNotConfiguredError extends Error {
  constructor() {
    super('Storage is not configured: set UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN');
    this.name = 'StoreNotConfiguredError';
  }
}
