/** What the store keeps, and the verbs it offers. Both adapters implement this one interface. */

export interface Subscriber {
  email: string;
  firstName: string;
  lastName?: string;
  /** Every form the person subscribed through, first one first. */
  sources: string[];
  /** ISO time of the first subscription; never changes. */
  createdAt: string;
  /** ISO time of the latest subscription. */
  updatedAt: string;
}

export interface Lead {
  id: string;
  name: string;
  email: string;
  company?: string;
  source: string;
  notes?: string;
  createdAt: string;
}

export interface SubscribeInput {
  email: string;
  firstName: string;
  lastName?: string;
  source: string;
}

export type LeadInput = Omit<Lead, 'id' | 'createdAt'>;

export interface Page {
  offset: number;
  limit: number;
}

/** New records per UTC day and source: `{ '2026-11-22': { website_footer: 3 } }`. */
export type DailyCounts = Record<string, Record<string, number>>;

export interface Store {
  /** Adds or updates the subscriber keyed by e-mail: one record per address, first createdAt kept. */
  subscribe(input: SubscribeInput, now: Date): Promise<{ subscriber: Subscriber; created: boolean }>;
  /** Appends a lead. */
  createLead(input: LeadInput, now: Date): Promise<Lead>;
  /** Counts a submission caught by the honeypot, per endpoint. */
  recordHoneypot(endpoint: string, now: Date): Promise<void>;
  countSubscribers(): Promise<number>;
  countLeads(): Promise<number>;
  /** Newest first. */
  listSubscribers(page: Page): Promise<Subscriber[]>;
  /** Newest first. */
  listLeads(page: Page): Promise<Lead[]>;
  getSubscriber(email: string): Promise<Subscriber | undefined>;
  /** New subscribers or leads per day and source, for the given UTC days (YYYY-MM-DD). */
  dailyCounts(kind: 'subscribers' | 'leads', days: string[]): Promise<DailyCounts>;
  honeypotCounts(): Promise<Record<string, number>>;
  /** What the admin dashboard's first view needs, in as few store round trips as the adapter can manage. */
  dashboard(days: string[], page: Page): Promise<DashboardData>;
  /** Erases a subscriber (an erasure request); true when there was one. */
  deleteSubscriber(email: string): Promise<boolean>;

  /** Admin sessions live server-side so that logout and expiry really revoke them. */
  createSession(sessionId: string, expiresAt: Date): Promise<void>;
  hasSession(sessionId: string, now: Date): Promise<boolean>;
  deleteSession(sessionId: string): Promise<void>;
  /** Counts a failed admin login for a client; returns the failures in the current window and when it ends. */
  recordLoginFailure(client: string, windowSeconds: number, now: Date): Promise<LoginFailures>;
  loginFailures(client: string, now: Date): Promise<LoginFailures>;
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

export interface LoginFailures {
  count: number;
  /** When the window of failures ends, ms since the epoch (0 when there are none). */
  resetAt: number;
}

/** The UTC calendar day of a moment, YYYY-MM-DD. */
export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Raised when the store cannot be reached or answers too slowly; answered with 503. */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}
