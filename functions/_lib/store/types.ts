// functions/_lib/store keeps the records: the Store interface, its Redis and SQLite adapters, and getStore() with its deadlines.
/** What the store keeps, and the verbs it offers. Both adapters implement this one interface. */
import type { Lead, Subscriber } from '../../../src/shared/records';

export interface SubscribeInput {
  email: string;
  /** The address with an internationalised domain in punycode, for sending; only when it differs from `email`. */
  emailAscii?: string;
  firstName: string;
  lastName?: string;
  source: string;
}

export type LeadInput = Omit<Lead, 'id' | 'createdAt'>;

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
}

export type SubscribeResult =
  | { subscriber: Subscriber; created: boolean; repeated: false }
  /** The key was seen before: nothing was written; the record as it stands now, if it still exists. */
  | { subscriber: Subscriber | undefined; created: false; repeated: true };

/** The verbs the functions call: getStore() gives them, each with a deadline. */
export interface StoreVerbs {
  /** Adds or updates the subscriber keyed by e-mail: one record per address, first createdAt kept. */
  subscribe(input: SubscribeInput, now: Date, options?: WriteOptions): Promise<SubscribeResult>;
  /** Appends a lead; with a key seen before, appends nothing and gives back the first lead. */
  createLead(input: LeadInput, now: Date, options?: WriteOptions): Promise<Lead>;
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
  /** New subscribers or leads per day and source, for the given UTC days (YYYY-MM-DD). */
  dailyCounts(kind: 'subscribers' | 'leads', days: string[]): Promise<DailyCounts>;
  /** Submissions caught by the honeypot, per endpoint. */
  honeypotCounts(): Promise<Record<string, number>>;
}

export interface DashboardData {
  subscriberTotal: number;
  leadTotal: number;
  subscriberDaily: DailyCounts;
  leadDaily: DailyCounts;
  /** Newest first. */
  subscribers: Subscriber[];
  leads: Lead[];
}

export interface LoginAttempts {
  /** Attempts in the current window, this one included. */
  count: number;
  /** When the window ends, ms since the epoch. */
  resetAt: number;
}

/** The UTC calendar day of a moment, YYYY-MM-DD. */
export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
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
