// functions/_lib/store keeps the records: the Store interface, its Redis and SQLite adapters, and getStore() with its deadlines.
/**
 * The embedded store for local use: SQLite through Node's built-in `node:sqlite`, one database
 * file in a git-ignored folder. Every store call is one transaction; writes begin IMMEDIATE so
 * that writers in several processes (or several bundles of the functions in one process) take
 * turns. A process that dies mid-write leaves no lock and no temporary file behind: SQLite rolls
 * the unfinished transaction back the next time the file is opened.
 *
 * Only `get-store.ts` imports this module, lazily, when the embedded store is chosen; `node:sqlite`
 * itself is imported when the first call opens the database. A deployed function loads neither.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync, SQLInputValue, SQLOutputValue, StatementSync } from 'node:sqlite';
import { z } from 'zod';
import type {
  Attribution,
  Consent,
  ContentCheck,
  Delivery,
  Lead,
  SpamMark,
  Subscriber,
  SubscriberStatus,
} from '../../../src/shared/records';
import {
  afterAttempt,
  confirmed,
  deliveryOf,
  isHeld,
  newState,
  newSubscriber,
  released,
  revived,
  unsubscribed,
  type SubscriberChange,
} from './records';
import {
  campaignKey,
  ChallengeSpentError,
  countTable,
  dayOf,
  IDEMPOTENCY_TTL_SECONDS,
  NO_CAMPAIGN,
  OUTBOX_LEASE_MS,
  withStatus,
  type ClaimedEntry,
  type Completion,
  type ConfirmInput,
  type CountKind,
  type DailyCounts,
  type DashboardData,
  type LeadInput,
  type LeadWriteOptions,
  type ListedOutboxEntry,
  type LoginAttempts,
  type NewOutboxEntry,
  type OutboxEntry,
  type OutboxMessage,
  type OutboxState,
  type Page,
  type PrunedMessage,
  type SpamOverview,
  type SpentChallenge,
  type StatusChange,
  type Store,
  type SubscribeInput,
  type SubscribeResult,
  type SubscribeWriteOptions,
} from './types';

/** The database, inside the store's folder (LOCAL_STORE_DIR). */
export const DATABASE_FILE = 'store.sqlite';
/** The file of the embedded store this one replaced; imported once, then renamed. */
export const LEGACY_FILE = 'store.json';
export const IMPORTED_SUFFIX = '.imported';

/**
 * SQLite's own busy wait blocks the whole thread (and with it every request and timer of the
 * process), so it is kept short: it covers another process's write, which takes a millisecond.
 * Longer waits are retried asynchronously, up to BUSY_RETRY_MS, so a request's deadline still
 * fires while a write waits for the lock.
 */
const SYNC_BUSY_TIMEOUT_MS = 50;
const BUSY_RETRY_MS = 10_000;

const SCHEMA = `
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

/**
 * Changes to tables that already exist, in order; PRAGMA user_version counts those applied. A
 * database made before double opt-in keeps its subscribers as confirmed.
 */
const MIGRATIONS = [
  `ALTER TABLE subscribers ADD COLUMN status TEXT NOT NULL DEFAULT 'confirmed';
   -- Consent and attribution as JSON (records.ts Consent, Attribution).
   ALTER TABLE subscribers ADD COLUMN consent TEXT;
   ALTER TABLE subscribers ADD COLUMN attribution TEXT;
   ALTER TABLE subscribers ADD COLUMN campaign TEXT NOT NULL DEFAULT '${NO_CAMPAIGN}	${NO_CAMPAIGN}	${NO_CAMPAIGN}';
   -- When the last confirmation e-mail was queued (ms); unused since confirmations are throttled as any entry (outbox_throttle).
   ALTER TABLE subscribers ADD COLUMN confirmation_sent_at INTEGER;
   CREATE INDEX subscribers_by_status ON subscribers (status);
   ALTER TABLE leads ADD COLUMN page TEXT;
   ALTER TABLE leads ADD COLUMN attribution TEXT;
   ALTER TABLE leads ADD COLUMN campaign TEXT NOT NULL DEFAULT '${NO_CAMPAIGN}	${NO_CAMPAIGN}	${NO_CAMPAIGN}';`,
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

/** Applies the migrations this database has not had yet, inside the caller's transaction. */
function migrate(db: DatabaseSync): void {
  const row = db.prepare('PRAGMA user_version').get();
  const version = typeof row?.user_version === 'number' ? row.user_version : 0;
  for (const [index, sql] of MIGRATIONS.entries()) {
    if (index < version) continue;
    db.exec(sql);
    db.exec(`PRAGMA user_version = ${index + 1}`);
  }
}

type Row = Record<string, SQLOutputValue>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** SQLITE_BUSY or SQLITE_LOCKED, extended codes included: another connection holds the lock. */
function isBusy(error: unknown): boolean {
  if (!(error instanceof Error) || !('errcode' in error) || typeof error.errcode !== 'number') return false;
  const primary = error.errcode & 0xff;
  return primary === 5 || primary === 6;
}

/** Runs a synchronous step, retrying it asynchronously while the database is busy. */
async function whileBusy<T>(step: () => T): Promise<T> {
  const deadline = Date.now() + BUSY_RETRY_MS;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return step();
    } catch (error) {
      if (!isBusy(error) || Date.now() > deadline) throw error;
      await sleep(Math.min(5 * 2 ** attempt, 100) * (0.5 + Math.random()));
    }
  }
}

/**
 * Node announces `node:sqlite` as experimental, once per process, on a line of its own in
 * `npm start`'s output. Only that warning is held back; every other warning goes through.
 */
async function loadSqlite(): Promise<typeof import('node:sqlite')> {
  const emitWarning = process.emitWarning;
  const filtered = (warning: string | Error, ...rest: unknown[]): void => {
    const type = typeof rest[0] === 'string' ? rest[0] : warning instanceof Error ? warning.name : undefined;
    const message = warning instanceof Error ? warning.message : warning;
    if (type === 'ExperimentalWarning' && message.startsWith('SQLite ')) return;
    Reflect.apply(emitWarning, process, [warning, ...rest]);
  };
  process.emitWarning = filtered;
  try {
    return await import('node:sqlite');
  } finally {
    // Another module may have wrapped it meanwhile; then its wrapper restores what it found.
    if (process.emitWarning === filtered) process.emitWarning = emitWarning;
  }
}

function text(row: Row, column: string): string {
  const value = row[column];
  if (typeof value !== 'string') throw new Error(`column ${column} is not text`);
  return value;
}

function optionalText(row: Row, column: string): string | undefined {
  const value = row[column];
  return typeof value === 'string' ? value : undefined;
}

function integer(row: Row, column: string): number {
  const value = row[column];
  if (typeof value !== 'number') throw new Error(`column ${column} is not a number`);
  return value;
}

function optionalJson<T>(row: Row, column: string): T | undefined {
  const value = optionalText(row, column);
  return value === undefined ? undefined : (JSON.parse(value) as T);
}

const STATUSES: readonly SubscriberStatus[] = ['pending', 'confirmed', 'unsubscribed'];

function toSubscriber(row: Row): Subscriber {
  const sources: unknown = JSON.parse(text(row, 'sources'));
  const status = STATUSES.find((known) => known === row.status);
  const subscriber = withStatus({
    email: text(row, 'email'),
    firstName: text(row, 'first_name'),
    sources: Array.isArray(sources) ? sources.filter((source) => typeof source === 'string') : [],
    createdAt: text(row, 'created_at'),
    updatedAt: text(row, 'updated_at'),
    ...(status ? { status } : {}),
    ...(row.consent ? { consent: optionalJson<Consent>(row, 'consent') } : {}),
  });
  const lastName = optionalText(row, 'last_name');
  if (lastName !== undefined) subscriber.lastName = lastName;
  const emailAscii = optionalText(row, 'email_ascii');
  if (emailAscii !== undefined) subscriber.emailAscii = emailAscii;
  const attribution = optionalJson<Attribution>(row, 'attribution');
  if (attribution !== undefined) subscriber.attribution = attribution;
  return subscriber;
}

/** A lead with its optional fields present only when they hold something, as every adapter gives it. */
function leadOf(fields: {
  id: string;
  name: string;
  email: string;
  emailAscii?: string | undefined;
  company?: string | undefined;
  source: string;
  notes?: string | undefined;
  createdAt: string;
  page?: string | undefined;
  attribution?: Attribution | undefined;
  spam?: SpamMark | undefined;
  contentCheck?: ContentCheck | undefined;
}): Lead {
  const lead: Lead = {
    id: fields.id,
    name: fields.name,
    email: fields.email,
    source: fields.source,
    createdAt: fields.createdAt,
  };
  if (fields.emailAscii !== undefined) lead.emailAscii = fields.emailAscii;
  if (fields.company !== undefined) lead.company = fields.company;
  if (fields.notes !== undefined) lead.notes = fields.notes;
  if (fields.page !== undefined) lead.page = fields.page;
  if (fields.attribution !== undefined) lead.attribution = fields.attribution;
  if (fields.spam !== undefined) lead.spam = fields.spam;
  if (fields.contentCheck !== undefined) lead.contentCheck = fields.contentCheck;
  return lead;
}

function toLead(row: Row): Lead {
  return leadOf({
    id: text(row, 'id'),
    name: text(row, 'name'),
    email: text(row, 'email'),
    emailAscii: optionalText(row, 'email_ascii'),
    company: optionalText(row, 'company'),
    source: text(row, 'source'),
    notes: optionalText(row, 'notes'),
    createdAt: text(row, 'created_at'),
    page: optionalText(row, 'page'),
    attribution: optionalJson<Attribution>(row, 'attribution'),
    spam: optionalJson<SpamMark>(row, 'spam'),
    contentCheck: optionalJson<ContentCheck>(row, 'content_check'),
  });
}

/** Writes a subscriber row; `OR IGNORE` keeps a row already there (the import: the database is newer). */
function insertSubscriber(database: Database, subscriber: Subscriber, conflict: 'fail' | 'ignore' = 'fail'): void {
  database.run(
    `INSERT ${conflict === 'ignore' ? 'OR IGNORE ' : ''}INTO subscribers (email, email_ascii, first_name, last_name, sources, first_source, created_at, updated_at, day, status, consent, attribution, campaign) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    subscriber.email,
    subscriber.emailAscii ?? null,
    subscriber.firstName,
    subscriber.lastName ?? null,
    JSON.stringify(subscriber.sources),
    subscriber.sources[0] ?? '',
    subscriber.createdAt,
    subscriber.updatedAt,
    subscriber.createdAt.slice(0, 10),
    subscriber.status,
    JSON.stringify(subscriber.consent),
    subscriber.attribution ? JSON.stringify(subscriber.attribution) : null,
    campaignKey(subscriber.attribution),
  );
}

/** Writes a lead row; `OR IGNORE` keeps a row already there (the import). */
function insertLead(database: Database, lead: Lead, conflict: 'fail' | 'ignore' = 'fail'): void {
  database.run(
    `INSERT ${conflict === 'ignore' ? 'OR IGNORE ' : ''}INTO leads (id, name, email, email_ascii, company, source, notes, created_at, day, page, attribution, campaign, held, spam, content_check) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    lead.id,
    lead.name,
    lead.email,
    lead.emailAscii ?? null,
    lead.company ?? null,
    lead.source,
    lead.notes ?? null,
    lead.createdAt,
    lead.createdAt.slice(0, 10),
    lead.page ?? null,
    lead.attribution ? JSON.stringify(lead.attribution) : null,
    campaignKey(lead.attribution),
    isHeld(lead) ? 1 : 0,
    lead.spam ? JSON.stringify(lead.spam) : null,
    lead.contentCheck ? JSON.stringify(lead.contentCheck) : null,
  );
}

/**
 * Whether a throttled entry may be queued now, marking its key if so (in the caller's
 * transaction); an entry without a throttle always may.
 */
function throttleAllows(database: Database, throttle: NewOutboxEntry['throttle'], now: Date): boolean {
  if (!throttle) return true;
  const at = now.getTime();
  database.run('DELETE FROM outbox_throttle WHERE expires_at <= ?', at);
  const last = database.get('SELECT queued_at FROM outbox_throttle WHERE key = ?', throttle.key);
  if (last && at - integer(last, 'queued_at') < throttle.seconds * 1000) return false;
  database.run(
    'INSERT OR REPLACE INTO outbox_throttle (key, queued_at, expires_at) VALUES (?, ?, ?)',
    throttle.key,
    at,
    at + throttle.seconds * 2000,
  );
  return true;
}

/** Writes new outbox entries, due now; a throttled one only if its key allows it. Answers those written. */
function insertEntries(database: Database, entries: NewOutboxEntry[], now: Date): NewOutboxEntry[] {
  const written: NewOutboxEntry[] = [];
  for (const entry of entries) {
    if (!throttleAllows(database, entry.throttle, now)) continue;
    written.push(entry);
    database.run(
      "INSERT INTO outbox (id, ref, state, message, status, due_at) VALUES (?, ?, ?, ?, 'pending', ?)",
      entry.id,
      entry.ref,
      JSON.stringify(newState(entry, now)),
      JSON.stringify(entry.message),
      now.getTime(),
    );
  }
  return written;
}

/** One connection with its prepared statements. */
class Database {
  private readonly statements = new Map<string, StatementSync>();

  constructor(readonly db: DatabaseSync) {}

  private statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  get(sql: string, ...params: SQLInputValue[]): Row | undefined {
    return this.statement(sql).get(...params);
  }

  all(sql: string, ...params: SQLInputValue[]): Row[] {
    return this.statement(sql).all(...params);
  }

  /** Runs a write; the number of rows it changed. */
  run(sql: string, ...params: SQLInputValue[]): number {
    return Number(this.statement(sql).run(...params).changes);
  }

  /**
   * One transaction: IMMEDIATE takes the write lock at BEGIN, so a write never fails half-way on a
   * lock another writer holds; DEFERRED reads see one snapshot (WAL readers never wait for writers).
   */
  transaction<T>(mode: 'IMMEDIATE' | 'DEFERRED', work: () => T): Promise<T> {
    return whileBusy(() => {
      this.db.exec(`BEGIN ${mode}`);
      try {
        const result = work();
        this.db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.db.isTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    });
  }
}

/** What an old store file may hold; records are checked one by one, so one bad record skips only itself. */
const LegacySubscriber = z.object({
  email: z.string().min(1),
  firstName: z.string(),
  lastName: z.string().optional(),
  sources: z.array(z.string()).min(1),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
const LegacyLead = z.object({
  id: z.string().min(1),
  name: z.string(),
  email: z.string(),
  company: z.string().optional(),
  source: z.string(),
  notes: z.string().optional(),
  createdAt: z.iso.datetime(),
});

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

type ImportOutcome =
  { kind: 'none' | 'known' } | { kind: 'imported'; skipped: number } | { kind: 'rejected'; reason: string };

/**
 * Imports the old store's file `{ subscribers: {email: Subscriber}, leads: Lead[], honeypot,
 * sessions, loginFailures }` into the database, inside the caller's transaction. A file of any
 * other shape is left as it is and nothing is changed. The file's hash is recorded with the data,
 * so the same file is never imported twice, even if renaming it afterwards fails.
 */
function importLegacy(database: Database, file: string, now: Date): ImportOutcome {
  if (!existsSync(file)) return { kind: 'none' };
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (error) {
    return {
      kind: 'rejected',
      reason: `it cannot be read (${error instanceof Error && 'code' in error ? String(error.code) : 'unknown error'})`,
    };
  }
  const sha256 = createHash('sha256').update(content).digest('hex');
  if (database.get('SELECT 1 AS known FROM imports WHERE sha256 = ?', sha256)) return { kind: 'known' };

  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch {
    return { kind: 'rejected', reason: 'it is not valid JSON' };
  }
  const { subscribers = {}, leads = [], honeypot = {}, sessions = {} } = isObject(data) ? data : {};
  if (
    !isObject(data) ||
    !isObject(subscribers) ||
    !Array.isArray(leads) ||
    !isObject(honeypot) ||
    !isObject(sessions)
  ) {
    return {
      kind: 'rejected',
      reason: 'it is not an object of the form { subscribers: {…}, leads: […], honeypot: {…}, sessions: {…} }',
    };
  }

  let skipped = 0;
  for (const value of Object.values(subscribers)) {
    const parsed = LegacySubscriber.safeParse(value);
    if (!parsed.success) {
      skipped += 1;
      continue;
    }
    // Records already in the database are newer than the file's: they win.
    insertSubscriber(database, withStatus(parsed.data), 'ignore');
  }
  // Oldest first, so that leads of the same millisecond keep their order.
  for (const value of leads) {
    const parsed = LegacyLead.safeParse(value);
    if (!parsed.success) {
      skipped += 1;
      continue;
    }
    insertLead(database, leadOf(parsed.data), 'ignore');
  }
  for (const [endpoint, count] of Object.entries(honeypot)) {
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) {
      skipped += 1;
      continue;
    }
    database.run(
      'INSERT INTO honeypot (endpoint, count) VALUES (?, ?) ON CONFLICT (endpoint) DO UPDATE SET count = count + excluded.count',
      endpoint,
      count,
    );
  }
  // Sessions still valid keep their admin logged in; failed-login windows are short-lived and not carried over.
  for (const [id, expiry] of Object.entries(sessions)) {
    const expiresAt = typeof expiry === 'string' ? Date.parse(expiry) : NaN;
    if (expiresAt > now.getTime())
      database.run('INSERT OR IGNORE INTO sessions (id, expires_at) VALUES (?, ?)', id, expiresAt);
  }
  database.run('INSERT INTO imports (sha256, imported_at) VALUES (?, ?)', sha256, now.toISOString());
  return { kind: 'imported', skipped };
}

/** Moves an imported old file aside, keeping any earlier one. */
function setAside(file: string): void {
  const target = existsSync(`${file}${IMPORTED_SUFFIX}`)
    ? `${file}.${Date.now()}${IMPORTED_SUFFIX}`
    : `${file}${IMPORTED_SUFFIX}`;
  try {
    renameSync(file, target);
  } catch (error) {
    // Another process set it aside first, or the folder is read-only: the recorded hash prevents a second import.
    if (!(error instanceof Error && 'code' in error && error.code === 'ENOENT'))
      console.warn(`[store] ${file} was imported but could not be renamed; it will not be imported again.`);
  }
}

async function openDatabase(directory: string): Promise<Database> {
  const { DatabaseSync } = await loadSqlite();
  mkdirSync(directory, { recursive: true });
  const db = new DatabaseSync(path.join(directory, DATABASE_FILE), { timeout: SYNC_BUSY_TIMEOUT_MS });
  try {
    // WAL: readers never wait for the writer. synchronous=NORMAL keeps every committed
    // transaction through a crash of the process (a power cut may lose the last ones: a local store).
    await whileBusy(() => db.exec('PRAGMA journal_mode = WAL'));
    db.exec('PRAGMA synchronous = NORMAL');
    const database = new Database(db);
    const legacy = path.join(directory, LEGACY_FILE);
    const outcome = await database.transaction('IMMEDIATE', () => {
      db.exec(SCHEMA);
      migrate(db);
      return importLegacy(database, legacy, new Date());
    });
    if (outcome.kind === 'imported' || outcome.kind === 'known') setAside(legacy);
    if (outcome.kind === 'imported' && outcome.skipped > 0)
      console.warn(`[store] ${legacy}: ${outcome.skipped} malformed records were not imported.`);
    if (outcome.kind === 'rejected')
      console.warn(`[store] ${legacy} was not imported and was left as it is: ${outcome.reason}.`);
    return database;
  } catch (error) {
    db.close();
    throw error;
  }
}

export type SqliteStore = Store & {
  /** Closes the connection (tests open many stores); a later call opens it again. */
  close(): void;
};

export function createSqliteStore(directory: string): SqliteStore {
  let opening: Promise<Database> | undefined;

  /** The database, opened on first use; a failed open is tried again by the next call. */
  function open(): Promise<Database> {
    opening ??= openDatabase(directory).catch((error: unknown) => {
      opening = undefined;
      throw error;
    });
    return opening;
  }

  const write = async <T>(work: (database: Database) => T) => {
    const database = await open();
    return database.transaction('IMMEDIATE', () => work(database));
  };
  const read = async <T>(work: (database: Database) => T) => {
    const database = await open();
    return database.transaction('DEFERRED', () => work(database));
  };

  /**
   * What an earlier write with this key stored, if the key is still remembered; otherwise the key
   * is remembered from now on, in the caller's transaction, holding `ref`.
   */
  function claimKey(database: Database, key: string | undefined, ref: string, now: Date): string | undefined {
    if (!key) return undefined;
    database.run('DELETE FROM idempotency WHERE expires_at <= ?', now.getTime());
    const first = database.get('SELECT ref FROM idempotency WHERE key = ?', key);
    if (first) return text(first, 'ref');
    database.run(
      'INSERT INTO idempotency (key, ref, expires_at) VALUES (?, ?, ?)',
      key,
      ref,
      now.getTime() + IDEMPOTENCY_TTL_SECONDS * 1000,
    );
    return undefined;
  }

  /**
   * Marks a proof-of-work challenge spent until it expires, in the caller's transaction; a
   * challenge spent before (and not yet expired at `now`) throws ChallengeSpentError, which rolls
   * the whole transaction back, so the write stores nothing. Expired marks are pruned on the way.
   */
  function spendChallenge(database: Database, challenge: SpentChallenge | undefined, now: Date): void {
    if (!challenge) return;
    database.run('DELETE FROM spent_challenges WHERE expires_at <= ?', now.getTime());
    if (database.get('SELECT 1 AS spent FROM spent_challenges WHERE id = ?', challenge.id))
      throw new ChallengeSpentError();
    // One that has expired already would be pruned by the next write: nothing to keep.
    if (challenge.expiresAt.getTime() > now.getTime())
      database.run(
        'INSERT INTO spent_challenges (id, expires_at) VALUES (?, ?)',
        challenge.id,
        challenge.expiresAt.getTime(),
      );
  }

  const subscriberRow = (database: Database, email: string) =>
    database.get('SELECT * FROM subscribers WHERE email = ?', email);

  function listSubscribers(database: Database, { offset, limit }: Page): Subscriber[] {
    return database
      .all('SELECT * FROM subscribers ORDER BY created_at DESC, email DESC LIMIT ? OFFSET ?', limit, offset)
      .map(toSubscriber);
  }

  /** The states of the outbox entries of these records, in order, by record. */
  function deliveriesOf(database: Database, refs: string[]): Map<string, Delivery[]> {
    const byRef = new Map<string, Delivery[]>();
    if (refs.length === 0) return byRef;
    for (const row of database.all(
      'SELECT ref, state FROM outbox WHERE ref IN (SELECT value FROM json_each(?)) ORDER BY seq',
      JSON.stringify(refs),
    )) {
      const ref = text(row, 'ref');
      const list = byRef.get(ref) ?? [];
      list.push(deliveryOf(JSON.parse(text(row, 'state')) as OutboxState));
      byRef.set(ref, list);
    }
    return byRef;
  }

  function listLeads(database: Database, { offset, limit }: Page): Lead[] {
    const leads = database
      .all('SELECT * FROM leads WHERE held = 0 ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?', limit, offset)
      .map(toLead);
    const deliveries = deliveriesOf(
      database,
      leads.map((lead) => lead.id),
    );
    for (const lead of leads) lead.delivery = deliveries.get(lead.id) ?? [];
    return leads;
  }

  function dailyCounts(database: Database, kind: CountKind, days: string[]): DailyCounts {
    const sql = {
      leads:
        'SELECT day, source, count(*) AS count FROM leads WHERE held = 0 AND day IN (SELECT value FROM json_each(?)) GROUP BY day, source',
      subscribers:
        'SELECT day, first_source AS source, count(*) AS count FROM subscribers WHERE day IN (SELECT value FROM json_each(?)) GROUP BY day, first_source',
      confirmations:
        'SELECT day, source, count(*) AS count FROM confirmations WHERE day IN (SELECT value FROM json_each(?)) GROUP BY day, source',
    }[kind];
    const counts = countTable<Record<string, number>>();
    for (const row of database.all(sql, JSON.stringify(days))) {
      const day = text(row, 'day');
      const perSource = (counts[day] ??= countTable());
      perSource[text(row, 'source')] = integer(row, 'count');
    }
    return counts;
  }

  /** Subscribers; leads, those held as spam apart. */
  const count = (database: Database, what: 'subscribers' | 'leads' | 'held') =>
    integer(
      database.get(
        {
          subscribers: 'SELECT count(*) AS count FROM subscribers',
          leads: 'SELECT count(*) AS count FROM leads WHERE held = 0',
          held: 'SELECT count(*) AS count FROM leads WHERE held = 1',
        }[what],
      ) ?? {},
      'count',
    );

  function subscriberStatusCounts(database: Database) {
    const counts = { pending: 0, confirmed: 0, unsubscribed: 0 };
    for (const row of database.all('SELECT status, count(*) AS count FROM subscribers GROUP BY status')) {
      const status = STATUSES.find((known) => known === row.status);
      if (status) counts[status] = integer(row, 'count');
    }
    return counts;
  }

  function outboxCounts(database: Database) {
    const counts = { total: 0, pending: 0, dead: 0 };
    for (const row of database.all('SELECT status, count(*) AS count FROM outbox GROUP BY status')) {
      const value = integer(row, 'count');
      counts.total += value;
      if (row.status === 'pending') counts.pending = value;
      if (row.status === 'dead') counts.dead = value;
    }
    return counts;
  }

  function campaignCounts(database: Database, table: 'subscribers' | 'leads'): Record<string, number> {
    const counts = countTable();
    const sql =
      table === 'leads'
        ? 'SELECT campaign, count(*) AS count FROM leads WHERE held = 0 GROUP BY campaign'
        : 'SELECT campaign, count(*) AS count FROM subscribers GROUP BY campaign';
    for (const row of database.all(sql)) counts[text(row, 'campaign')] = integer(row, 'count');
    return counts;
  }

  /** A subscriber's change of status in one transaction: the record, the day's confirmation count, the entries. */
  const changeStatus = (email: string, now: Date, change: (subscriber: Subscriber) => SubscriberChange) =>
    write((database): StatusChange | undefined => {
      const row = subscriberRow(database, email);
      if (!row) return undefined;
      const { next, changed, confirmedNow, entries, refused } = change(toSubscriber(row));
      if (!changed) return { subscriber: next, changed, ...(refused ? { refused } : {}) };
      database.run(
        'UPDATE subscribers SET first_name = ?, last_name = ?, sources = ?, updated_at = ?, status = ?, consent = ? WHERE email = ?',
        next.firstName,
        next.lastName ?? null,
        JSON.stringify(next.sources),
        next.updatedAt,
        next.status,
        JSON.stringify(next.consent),
        email,
      );
      if (confirmedNow)
        database.run('INSERT INTO confirmations (day, source) VALUES (?, ?)', dayOf(now), next.sources[0] ?? '');
      insertEntries(database, entries, now);
      return { subscriber: next, changed };
    });

  /** Submissions caught before storing, per endpoint: by the honeypot, or for their proof of work. */
  function endpointCounts(database: Database, table: 'honeypot' | 'challenge_failures'): Record<string, number> {
    const counts = countTable();
    for (const row of database.all(`SELECT endpoint, count FROM ${table}`))
      counts[text(row, 'endpoint')] = integer(row, 'count');
    return counts;
  }

  /** An entry as stored: a delivered one's message may be pruned to its title. */
  const listedEntry = (row: Row): ListedOutboxEntry => ({
    ...(JSON.parse(text(row, 'state')) as OutboxState),
    message: JSON.parse(text(row, 'message')) as OutboxMessage | PrunedMessage,
  });

  return {
    subscribe: (
      input: SubscribeInput,
      now: Date,
      { idempotencyKey, confirmation, challenge }: SubscribeWriteOptions = {},
    ) =>
      write((database): SubscribeResult => {
        const firstEmail = claimKey(database, idempotencyKey, input.email, now);
        if (firstEmail !== undefined) {
          const row = subscriberRow(database, firstEmail);
          return {
            subscriber: row ? toSubscriber(row) : undefined,
            created: false,
            repeated: true,
            confirmationQueued: false,
          };
        }
        spendChallenge(database, challenge, now);
        const existing = subscriberRow(database, input.email);
        const subscriber = existing ? toSubscriber(existing) : newSubscriber(input, now);
        if (!existing) insertSubscriber(database, subscriber);
        const confirmationQueued = confirmation ? insertEntries(database, [confirmation], now).length > 0 : false;
        return { subscriber, created: !existing, repeated: false, confirmationQueued };
      }),

    confirmSubscriber: (input: ConfirmInput, now: Date, outbox = () => []) =>
      changeStatus(input.email, now, (subscriber) => confirmed(subscriber, input, now, outbox)),

    unsubscribe: (email: string, now: Date) => changeStatus(email, now, (subscriber) => unsubscribed(subscriber, now)),

    createLead: (input: LeadInput, now: Date, { idempotencyKey, outbox, challenge }: LeadWriteOptions = {}) =>
      write((database) => {
        const lead = leadOf({ ...input, id: crypto.randomUUID(), createdAt: now.toISOString() });
        const firstId = claimKey(database, idempotencyKey, lead.id, now);
        if (firstId !== undefined) {
          // The first lead, or, when the owner has erased it since, nothing stored again.
          const row = database.get('SELECT * FROM leads WHERE id = ?', firstId);
          return row ? toLead(row) : lead;
        }
        spendChallenge(database, challenge, now);
        insertLead(database, lead);
        // A held lead queues nothing: its e-mails and webhook wait for the owner's "Not spam".
        if (!isHeld(lead)) insertEntries(database, outbox?.(lead) ?? [], now);
        return lead;
      }),

    releaseSpam: (id: string, now: Date, outbox: (lead: Lead) => NewOutboxEntry[]) =>
      write((database): Lead | undefined => {
        const row = database.get('SELECT * FROM leads WHERE id = ? AND held = 1', id);
        if (!row) return undefined;
        // Its day, source and campaign columns are those of its arrival: it is counted there.
        const next = released(toLead(row), now);
        database.run('UPDATE leads SET held = 0, spam = ? WHERE id = ?', JSON.stringify(next.spam), id);
        const written = insertEntries(database, outbox(next), now);
        return { ...next, delivery: written.map((entry) => deliveryOf(newState(entry, now))) };
      }),

    spamOverview: ({ offset, limit }: Page) =>
      read((database): SpamOverview => ({
        held: count(database, 'held'),
        leads: database
          .all('SELECT * FROM leads WHERE held = 1 ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?', limit, offset)
          .map(toLead),
        honeypot: endpointCounts(database, 'honeypot'),
        challengeFailures: endpointCounts(database, 'challenge_failures'),
      })),

    recordChallengeFailure: (endpoint: string) =>
      write((database) => {
        database.run(
          'INSERT INTO challenge_failures (endpoint, count) VALUES (?, 1) ON CONFLICT (endpoint) DO UPDATE SET count = count + 1',
          endpoint,
        );
      }),

    claimOutbox: (now: Date, limit: number, ids?: string[]) =>
      write((database): ClaimedEntry[] => {
        const lease = crypto.randomUUID();
        const rows = ids
          ? database.all(
              "SELECT * FROM outbox WHERE id IN (SELECT value FROM json_each(?)) AND status = 'pending' AND due_at <= ? ORDER BY due_at LIMIT ?",
              JSON.stringify(ids),
              now.getTime(),
              limit,
            )
          : database.all(
              "SELECT * FROM outbox WHERE status = 'pending' AND due_at <= ? ORDER BY due_at LIMIT ?",
              now.getTime(),
              limit,
            );
        for (const row of rows)
          database.run(
            'UPDATE outbox SET due_at = ?, lease = ? WHERE id = ?',
            now.getTime() + OUTBOX_LEASE_MS,
            lease,
            text(row, 'id'),
          );
        // Only pending entries are claimed, and only delivered ones are pruned: the message is whole.
        return rows.map((row) => ({ entry: listedEntry(row) as OutboxEntry, lease }));
      }),

    completeOutbox: (completions: Completion[], now: Date) =>
      write((database) => {
        let recorded = 0;
        for (const { claimed, outcome } of completions) {
          const { message: _message, ...state } = claimed.entry;
          const next = afterAttempt(state, outcome, now);
          recorded += database.run(
            'UPDATE outbox SET state = ?, status = ?, due_at = ?, lease = NULL WHERE id = ? AND lease = ?',
            JSON.stringify(next),
            next.status,
            next.status === 'pending' ? Date.parse(next.nextAttemptAt ?? '') || now.getTime() : null,
            claimed.entry.id,
            claimed.lease,
          );
        }
        return recorded;
      }),

    retryOutbox: (id: string, now: Date) =>
      write((database) => {
        const row = database.get("SELECT state FROM outbox WHERE id = ? AND status = 'dead'", id);
        if (!row) return false;
        const next = revived(JSON.parse(text(row, 'state')) as OutboxState, now);
        database.run(
          "UPDATE outbox SET state = ?, status = 'pending', due_at = ?, lease = NULL WHERE id = ?",
          JSON.stringify(next),
          now.getTime(),
          id,
        );
        return true;
      }),

    listOutbox: ({ offset, limit }: Page) =>
      read((database) =>
        database.all('SELECT * FROM outbox ORDER BY seq DESC LIMIT ? OFFSET ?', limit, offset).map(listedEntry),
      ),

    pruneOutbox: (before: Date, limit: number) =>
      write((database) =>
        database.run(
          `UPDATE outbox SET message = json_object('pruned', json('true'), 'title',
             coalesce(json_extract(message, '$.subject'), json_extract(message, '$.type'), ''))
           WHERE id IN (SELECT id FROM outbox WHERE status = 'delivered' AND json_extract(message, '$.pruned') IS NULL
             AND json_extract(state, '$.deliveredAt') < ? ORDER BY json_extract(state, '$.deliveredAt') LIMIT ?)`,
          before.toISOString(),
          limit,
        ),
      ),

    countOutbox: () => read((database) => outboxCounts(database)),

    subscriberStatusCounts: () => read((database) => subscriberStatusCounts(database)),

    recordHoneypot: (endpoint: string) =>
      write((database) => {
        database.run(
          'INSERT INTO honeypot (endpoint, count) VALUES (?, 1) ON CONFLICT (endpoint) DO UPDATE SET count = count + 1',
          endpoint,
        );
      }),

    countSubscribers: () => read((database) => count(database, 'subscribers')),
    countLeads: () => read((database) => count(database, 'leads')),
    listSubscribers: (page: Page) => read((database) => listSubscribers(database, page)),
    listLeads: (page: Page) => read((database) => listLeads(database, page)),

    getSubscriber: (email: string) =>
      read((database) => {
        const row = subscriberRow(database, email);
        return row ? toSubscriber(row) : undefined;
      }),

    dailyCounts: (kind: CountKind, days: string[]) => read((database) => dailyCounts(database, kind, days)),

    honeypotCounts: () => read((database) => endpointCounts(database, 'honeypot')),

    dashboard: (days: string[], page: Page) =>
      read((database): DashboardData => {
        const { pending, dead } = outboxCounts(database);
        return {
          subscriberTotal: count(database, 'subscribers'),
          subscriberStatus: subscriberStatusCounts(database),
          leadTotal: count(database, 'leads'),
          subscriberDaily: dailyCounts(database, 'subscribers', days),
          confirmationDaily: dailyCounts(database, 'confirmations', days),
          leadDaily: dailyCounts(database, 'leads', days),
          outbox: { pending, dead },
          campaignCounts: {
            leads: campaignCounts(database, 'leads'),
            subscribers: campaignCounts(database, 'subscribers'),
          },
          subscribers: listSubscribers(database, page),
          leads: listLeads(database, page),
          spamHeld: count(database, 'held'),
        };
      }),

    deleteSubscriber: (email: string) =>
      write((database) => {
        const existed = subscriberRow(database, email) !== undefined;
        database.run('DELETE FROM subscribers WHERE email = ?', email);
        // The e-mails queued for the address hold it too.
        database.run('DELETE FROM outbox WHERE ref = ?', email);
        return existed;
      }),

    deleteLead: (id: string) =>
      write((database) => {
        database.run('DELETE FROM outbox WHERE ref = ?', id);
        return database.run('DELETE FROM leads WHERE id = ?', id) > 0;
      }),

    createSession: (sessionId: string, expiresAt: Date) =>
      write((database) => {
        database.run('DELETE FROM sessions WHERE expires_at <= ?', Date.now());
        database.run('INSERT OR REPLACE INTO sessions (id, expires_at) VALUES (?, ?)', sessionId, expiresAt.getTime());
      }),

    hasSession: (sessionId: string, now: Date) =>
      read(
        (database) =>
          database.get('SELECT 1 AS live FROM sessions WHERE id = ? AND expires_at > ?', sessionId, now.getTime()) !==
          undefined,
      ),

    deleteSession: (sessionId: string) =>
      write((database) => {
        database.run('DELETE FROM sessions WHERE id = ?', sessionId);
      }),

    countLoginAttempt: (client: string, windowSeconds: number, now: Date) =>
      write((database): LoginAttempts => {
        const current = database.get('SELECT count, reset_at FROM login_attempts WHERE client = ?', client);
        const attempts =
          current && integer(current, 'reset_at') > now.getTime()
            ? { count: integer(current, 'count') + 1, resetAt: integer(current, 'reset_at') }
            : { count: 1, resetAt: now.getTime() + windowSeconds * 1000 };
        database.run(
          'INSERT OR REPLACE INTO login_attempts (client, count, reset_at) VALUES (?, ?, ?)',
          client,
          attempts.count,
          attempts.resetAt,
        );
        return attempts;
      }),

    clearLoginAttempts: (client: string) =>
      write((database) => {
        database.run('DELETE FROM login_attempts WHERE client = ?', client);
      }),

    close() {
      const current = opening;
      opening = undefined;
      void current?.then(
        (database) => database.db.close(),
        () => undefined,
      );
    },
  };
}
