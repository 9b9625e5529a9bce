// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/**
 * Every key the store uses, in one place. On Upstash these are the Redis keys themselves (a site
 * that already holds data keeps it); the embedded store keeps the same names in its tables.
 *
 * Data written by earlier versions may still hold counters no longer written or read: per UTC day
 * and form (`stats:subscribers:<day>`, `stats:confirmations:<day>`, `stats:leads:<day>`, which
 * expire within two years) and per campaign (`stats:campaigns:leads`, `stats:campaigns:subscribers`).
 * They are harmless where they are, but for the per-campaign ones, which may hold a campaign name a
 * person chose: every erasure deletes those (LEGACY_CAMPAIGN_COUNTERS). A new key must not take one
 * of those names.
 */
export const KEYS = {
  subscriber: (email: string) => `sub:${email}`,
  /** Every subscriber, by when they first subscribed (ms). */
  subscribersByCreated: 'subs:by_created',
  /** Subscribers by status; those in neither are confirmed (records from before double opt-in included). */
  subscribersPending: 'subs:pending',
  subscribersUnsubscribed: 'subs:unsubscribed',
  subscribersBounced: 'subs:bounced',
  /** When the last confirmation was queued for an address, before confirmations were throttled as any entry: erased with the address. */
  confirmationSent: (email: string) => `sub:confirmation-sent:${email}`,
  lead: (id: string) => `lead:${id}`,
  leadsByCreated: 'leads:by_created',
  /** Leads held as spam, by when they arrived (ms); a released one moves to leadsByCreated. */
  leadsHeld: 'leads:held',
  /**
   * How many listed leads (not held) are in each status other than `new`, by status: `new` is
   * every lead less these, so leads stored before statuses existed count as new with no migration.
   */
  leadStatuses: 'stats:lead-statuses',
  /** Submissions caught by the honeypot, per endpoint. */
  honeypot: 'stats:honeypot',
  /** Submissions refused for their proof of work, per endpoint. */
  challengeFailures: 'stats:challenge-failures',
  /** A spent proof-of-work challenge: holds when it expires (ms). */
  spentChallenge: (id: string) => `challenge:spent:${id}`,
  /** An admin session: when it expires, the password and the generation it was opened with. */
  session: (id: string) => `admin:session:${id}`,
  /** The generation of admin sessions, new at each "Log out everywhere": older sessions are over. */
  sessionsGeneration: 'admin:sessions:generation',
  /** A client's admin login attempts in the current window, under a keyed hash of its address. */
  loginAttempts: (client: string) => `admin:login-attempts:${client}`,
  /** A form submission's idempotency key (scoped per endpoint by the caller): holds what it stored. */
  idempotency: (key: string) => `idem:${key}`,
  /** An outbox entry's state (small: what the admin lists) and its message (what is sent). */
  outboxState: (id: string) => `outbox:${id}`,
  outboxMessage: (id: string) => `outbox:msg:${id}`,
  /** The claim that holds an entry: its token and when its lease ends. */
  outboxLease: (id: string) => `outbox:lease:${id}`,
  /** Entries waiting, by when they are due (a claimed entry's score is the end of its lease). */
  outboxDue: 'outbox:due',
  /** Newsletter entries waiting, the same way: a second line, served when the first is empty. */
  outboxDueBulk: 'outbox:due:bulk',
  /** Newsletter entries claimed in one minute (ms since the epoch / 60,000), for MAIL_RATE_PER_MINUTE. */
  mailRate: (minute: number) => `outbox:rate:${minute}`,
  /** A newsletter mailing's record: asked for (when, by whom), how far its fan-out got, or declined. */
  mailing: (id: string) => `mailing:${id}`,
  /** Mailings whose fan-out has not written every entry yet, by when sending was asked for (ms). */
  mailingsFanningOut: 'mailings:fanning-out',
  /** A mailing's progress: entries queued, sent, failed, bounced, cancelled. */
  mailingCounts: (id: string) => `stats:mailing:${id}`,
  /** Tests of the newsletter sent to addresses typed in, by one admin session and on one UTC day (YYYY-MM-DD). */
  newsletterTestsOfSession: (session: string) => `newsletter:tests:session:${session}`,
  newsletterTestsOfDay: (day: string) => `newsletter:tests:day:${day}`,
  /** Automatic sending (NEWSLETTER_AUTO_SEND_HOURS): when it was first on, and when each mailing was first seen published (ms). */
  newsletterAutoSend: 'newsletter:auto-send',
  /** Dead entries, by when they were created. */
  outboxDead: 'outbox:dead',
  /** Every entry, by when it was created. */
  outboxAll: 'outbox:all',
  /** The entries of a lead or subscriber, in order. */
  outboxOf: (ref: string) => `outbox:ref:${ref}`,
  /** Delivered entries whose message is still kept, by when they were delivered (ms). */
  outboxDelivered: 'outbox:delivered',
  /** When the last entry of a throttle key was queued (ms). */
  outboxThrottle: (key: string) => `outbox:throttle:${key}`,
  /** A booked call (Booking). */
  booking: (id: string) => `booking:${id}`,
  /** Bookings by when their call starts (ms), cancelled ones included. */
  bookingsByStart: 'bookings:by_start',
  /**
   * A five-minute cell of time (its start, ms since the epoch / 300,000) that a booked call and its
   * buffer cover: holds the booking's id. Claimed only where absent, all of a call's at once.
   */
  bookingCell: (cell: number) => `booking:cell:${cell}`,
  /** The calls booked on one day of the owner's zone (YYYY-MM-DD): the ids, for the daily cap. */
  bookingsOfDay: (day: string) => `bookings:day:${day}`,
  /** The calls an address has booked (its normal spelling): ids, for the limit of upcoming calls per address. */
  bookingsOfEmail: (email: string) => `bookings:email:${email}`,
  /** The calls booked from one network, under a keyed hash of its address (Booking.client): ids, for its limit. */
  bookingsOfClient: (client: string) => `bookings:client:${client}`,
  /** The salt of a day's visitor hashes (YYYY-MM-DD in the site's time zone): 32 random bytes, kept 48 hours. */
  visitSalt: (day: string) => `visits:salt:${day}`,
  /** A visit in progress: its visitor hash, for 30 minutes after their last view. */
  visitOpen: (visitor: string) => `visits:open:${visitor}`,
  /** Views of one client (a keyed hash of its address) in the current minute. */
  visitRate: (client: string) => `visits:rate:${client}`,
  /** Visits begun by one client (the same hash) in the current minute: each new visitor begins one. */
  visitsBegun: (client: string) => `visits:begun:${client}`,
  /** One day's visitors (a distinct set). */
  visitors: (day: string) => `visits:${day}:visitors`,
  /**
   * One day's views, entries, sources, campaigns or devices: a bounded table, with a distinct set
   * per field (distinctKey()) and its fields' Space-Saving errors (errorsKey()).
   */
  visitTable: (day: string, table: VisitTable) => `visits:${day}:${table}`,
  /** A day's figures once it is over, as one JSON value: its live tables and sets are deleted then. */
  visitDay: (day: string) => `visits:${day}:figures`,
} as const;

/** Counters of earlier versions that may hold campaign names people chose: an erasure deletes them. */
export const LEGACY_CAMPAIGN_COUNTERS = ['stats:campaigns:leads', 'stats:campaigns:subscribers'] as const;

/** The tables of a day's visits: views by page, entries by page, and visits by source, campaign and device. */
export type VisitTable = 'pages' | 'entries' | 'sources' | 'campaigns' | 'devices';
