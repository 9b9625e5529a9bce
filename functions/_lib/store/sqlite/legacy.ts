// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/**
 * Brings a database of the earlier layout (a table per concern: subscribers, leads, outbox …,
 * versions 0 to 3 in PRAGMA user_version) into the backend's tables, in the caller's
 * transaction, then drops the old tables. Records, the honeypot's and the proof of work's counts,
 * sessions and the outbox keep what they held, under the keys the store uses (../keys.ts).
 *
 * Its counts per day and form, and per campaign, are not copied: the admin page counts those from
 * the records now (admin/daily-figures.ts, visits/range-report.ts), and reads no counter of them.
 * A database migrated before still holds such counters; they are left there, unread.
 */
import { KEYS } from '../keys';
import type { Database } from './database';

/** The earlier layout's tables, as its last version created whichever were missing when it opened a database. */
export const LEGACY_SCHEMA = `
CREATE TABLE IF NOT EXISTS subscribers (
  email TEXT PRIMARY KEY,
  -- The address with its domain in punycode, when it differs from email.
  email_ascii TEXT,
  first_name TEXT NOT NULL,
  last_name TEXT,
  -- Every form the person subscribed through, first one first, as a JSON array.
  sources TEXT NOT NULL,
  first_source TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  -- The UTC day of created_at, for the per-day counts.
  day TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS subscribers_newest ON subscribers (created_at DESC, email DESC);
CREATE INDEX IF NOT EXISTS subscribers_by_day ON subscribers (day, first_source);

CREATE TABLE IF NOT EXISTS leads (
  -- Order of arrival: breaks ties between leads of the same millisecond.
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  email_ascii TEXT,
  company TEXT,
  source TEXT NOT NULL,
  notes TEXT,
  created_at TEXT NOT NULL,
  day TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS leads_newest ON leads (created_at DESC, seq DESC);
CREATE INDEX IF NOT EXISTS leads_by_day ON leads (day, source);

CREATE TABLE IF NOT EXISTS honeypot (endpoint TEXT PRIMARY KEY, count INTEGER NOT NULL);

CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS sessions_expiry ON sessions (expires_at);

CREATE TABLE IF NOT EXISTS login_attempts (client TEXT PRIMARY KEY, count INTEGER NOT NULL, reset_at INTEGER NOT NULL);

-- A form submission's key (scoped per endpoint) and what it stored: an e-mail or a lead id.
CREATE TABLE IF NOT EXISTS idempotency (key TEXT PRIMARY KEY, ref TEXT NOT NULL, expires_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS idempotency_expiry ON idempotency (expires_at);

-- Old store files already imported, by the SHA-256 of their content.
CREATE TABLE IF NOT EXISTS imports (sha256 TEXT PRIMARY KEY, imported_at TEXT NOT NULL);

-- Confirmations per day and form, for the dashboard (anonymous: an erased subscriber leaves only the count).
CREATE TABLE IF NOT EXISTS confirmations (seq INTEGER PRIMARY KEY, day TEXT NOT NULL, source TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS confirmations_by_day ON confirmations (day, source);

-- The outbox: e-mails and webhooks to deliver, written in the same transaction as their record.
CREATE TABLE IF NOT EXISTS outbox (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  -- The lead id or subscriber e-mail it belongs to.
  ref TEXT NOT NULL,
  -- The entry's state (OutboxState) and its message (OutboxMessage), as JSON.
  state TEXT NOT NULL,
  message TEXT NOT NULL,
  status TEXT NOT NULL,
  -- When a pending entry is due (ms); a claimed one's is the end of its lease.
  due_at INTEGER,
  -- The token of the claim that holds it.
  lease TEXT
);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (status, due_at);
CREATE INDEX IF NOT EXISTS outbox_by_ref ON outbox (ref, seq);
`;

/** The earlier layout's own changes to those tables: a database of any of its versions is read as its last (3). */
export const LEGACY_MIGRATIONS = [
  `ALTER TABLE subscribers ADD COLUMN status TEXT NOT NULL DEFAULT 'confirmed';
   -- Consent and attribution as JSON (records.ts Consent, Attribution).
   ALTER TABLE subscribers ADD COLUMN consent TEXT;
   ALTER TABLE subscribers ADD COLUMN attribution TEXT;
   -- The campaign a record was counted under; nothing reads it now.
   ALTER TABLE subscribers ADD COLUMN campaign TEXT NOT NULL DEFAULT '';
   -- When the last confirmation e-mail was queued (ms); unused since confirmations are throttled as any entry (outbox_throttle).
   ALTER TABLE subscribers ADD COLUMN confirmation_sent_at INTEGER;
   CREATE INDEX subscribers_by_status ON subscribers (status);
   ALTER TABLE leads ADD COLUMN page TEXT;
   ALTER TABLE leads ADD COLUMN attribution TEXT;
   ALTER TABLE leads ADD COLUMN campaign TEXT NOT NULL DEFAULT '';`,
  `-- 1 while a lead is held as spam: kept, but listed and counted only by the Spam section.
   ALTER TABLE leads ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
   -- The spam mark (SpamMark) and the content check's verdict (ContentCheck), as JSON.
   ALTER TABLE leads ADD COLUMN spam TEXT;
   ALTER TABLE leads ADD COLUMN content_check TEXT;
   -- Every list and count of leads asks for held or not first.
   DROP INDEX leads_newest;
   CREATE INDEX leads_newest ON leads (held, created_at DESC, seq DESC);
   DROP INDEX leads_by_day;
   CREATE INDEX leads_by_day ON leads (held, day, source);
   CREATE INDEX leads_by_campaign ON leads (held, campaign);
   -- Proof-of-work challenges already solved once, until they expire (ms).
   CREATE TABLE spent_challenges (id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
   CREATE INDEX spent_challenges_expiry ON spent_challenges (expires_at);
   -- Submissions refused for their proof of work, per endpoint.
   CREATE TABLE challenge_failures (endpoint TEXT PRIMARY KEY, count INTEGER NOT NULL);`,
  `-- When the last outbox entry of a throttle key was queued (ms): at most one per its interval.
   CREATE TABLE outbox_throttle (key TEXT PRIMARY KEY, queued_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
   CREATE INDEX outbox_throttle_expiry ON outbox_throttle (expires_at);`,
];

/** An ISO time as ms since the epoch. */
const ms = (column: string) => `CAST(round(unixepoch(${column}, 'subsec') * 1000) AS INTEGER)`;
/** A JSON object without its null members (a merge patch into nothing drops them). */
const object = (...members: string[]) => `json_patch('{}', json_object(${members.join(', ')}))`;

/** Every record of the earlier tables, as the backend keeps it. */
const COPY = `
INSERT OR REPLACE INTO kv (key, value)
  SELECT '${KEYS.subscriber('')}' || email, ${object(
    "'email', email",
    "'emailAscii', email_ascii",
    "'firstName', first_name",
    "'lastName', last_name",
    "'sources', json(sources)",
    "'createdAt', created_at",
    "'updatedAt', updated_at",
    "'status', status",
    "'consent', json(consent)",
    "'attribution', json(attribution)",
  )} FROM subscribers;
INSERT OR REPLACE INTO idx (name, member, score)
  SELECT '${KEYS.subscribersByCreated}', email, ${ms('created_at')} FROM subscribers;
INSERT OR REPLACE INTO idx (name, member, score)
  SELECT CASE status WHEN 'pending' THEN '${KEYS.subscribersPending}' ELSE '${KEYS.subscribersUnsubscribed}' END,
    email, ${ms('created_at')} FROM subscribers WHERE status IN ('pending', 'unsubscribed');

INSERT OR REPLACE INTO kv (key, value)
  SELECT '${KEYS.lead('')}' || id, ${object(
    "'id', id",
    "'name', name",
    "'email', email",
    "'emailAscii', email_ascii",
    "'company', company",
    "'source', source",
    "'notes', notes",
    "'createdAt', created_at",
    "'page', page",
    "'attribution', json(attribution)",
    "'spam', json(spam)",
    "'contentCheck', json(content_check)",
  )} FROM leads;
INSERT OR REPLACE INTO idx (name, member, score)
  SELECT CASE held WHEN 1 THEN '${KEYS.leadsHeld}' ELSE '${KEYS.leadsByCreated}' END, id, ${ms('created_at')} FROM leads;
INSERT INTO counters (name, field, value) SELECT '${KEYS.honeypot}', endpoint, count FROM honeypot WHERE count > 0;
INSERT INTO counters (name, field, value)
  SELECT '${KEYS.challengeFailures}', endpoint, count FROM challenge_failures WHERE count > 0;

INSERT OR REPLACE INTO kv (key, value, expires_at)
  SELECT '${KEYS.session('')}' || id, strftime('%Y-%m-%dT%H:%M:%fZ', expires_at / 1000.0, 'unixepoch'), expires_at
  FROM sessions;
INSERT OR REPLACE INTO tallies (key, count, reset_at)
  SELECT '${KEYS.loginAttempts('')}' || client, count, reset_at FROM login_attempts;
INSERT OR REPLACE INTO kv (key, value, expires_at) SELECT '${KEYS.idempotency('')}' || key, ref, expires_at FROM idempotency;
INSERT OR REPLACE INTO kv (key, value, expires_at)
  SELECT '${KEYS.spentChallenge('')}' || id, CAST(expires_at AS TEXT), expires_at FROM spent_challenges;
INSERT OR REPLACE INTO kv (key, value, expires_at)
  SELECT '${KEYS.outboxThrottle('')}' || key, CAST(queued_at AS TEXT), expires_at FROM outbox_throttle;

INSERT OR REPLACE INTO kv (key, value) SELECT '${KEYS.outboxState('')}' || id, state FROM outbox;
INSERT OR REPLACE INTO kv (key, value) SELECT '${KEYS.outboxMessage('')}' || id, message FROM outbox;
INSERT OR REPLACE INTO kv (key, value) SELECT '${KEYS.outboxLease('')}' || id, json_object('token', lease, 'until', due_at)
  FROM outbox WHERE status = 'pending' AND lease IS NOT NULL;
INSERT OR REPLACE INTO idx (name, member, score)
  SELECT '${KEYS.outboxAll}', id, ${ms("json_extract(state, '$.createdAt')")} FROM outbox;
INSERT OR REPLACE INTO idx (name, member, score) SELECT '${KEYS.outboxDue}', id, due_at FROM outbox WHERE status = 'pending';
INSERT OR REPLACE INTO idx (name, member, score)
  SELECT '${KEYS.outboxDead}', id, ${ms("json_extract(state, '$.createdAt')")} FROM outbox WHERE status = 'dead';
INSERT OR REPLACE INTO idx (name, member, score)
  SELECT '${KEYS.outboxDelivered}', id, ${ms("json_extract(state, '$.deliveredAt')")} FROM outbox
  WHERE status = 'delivered' AND json_extract(message, '$.pruned') IS NULL;
INSERT INTO lists (name, seq, member) SELECT '${KEYS.outboxOf('')}' || ref, seq, id FROM outbox;
`;

const TABLES = [
  'subscribers',
  'leads',
  'honeypot',
  'sessions',
  'login_attempts',
  'idempotency',
  'imports',
  'confirmations',
  'outbox',
  'spent_challenges',
  'challenge_failures',
  'outbox_throttle',
];

/** Moves the earlier layout's records into the backend's tables, if the database has them (version: its user_version). */
export function migrateLegacyTables(database: Database, version: number): void {
  if (!database.get("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'subscribers'")) return;
  database.db.exec(LEGACY_SCHEMA);
  for (const [index, sql] of LEGACY_MIGRATIONS.entries()) if (index >= version) database.db.exec(sql);
  database.db.exec(COPY);
  for (const table of TABLES) database.db.exec(`DROP TABLE IF EXISTS ${table}`);
}
