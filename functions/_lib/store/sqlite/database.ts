// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/**
 * The embedded store's database: SQLite through Node's built-in `node:sqlite`, one file in a
 * git-ignored folder. Every call is one transaction; writes begin IMMEDIATE so that writers in
 * several processes (or several bundles of the functions in one process) take turns. A process
 * that dies mid-write leaves no lock and no temporary file behind: SQLite rolls the unfinished
 * transaction back the next time the file is opened.
 *
 * `node:sqlite` is imported when the first call opens the database; a deployed function, which
 * never chooses the embedded store, loads neither it nor this module.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync, SQLInputValue, SQLOutputValue, StatementSync } from 'node:sqlite';
import { migrateLegacyTables } from './legacy';

/** The database, inside the store's folder (LOCAL_STORE_DIR). */
export const DATABASE_FILE = 'store.sqlite';

/**
 * SQLite's own busy wait blocks the whole thread (and with it every request and timer of the
 * process), so it is kept short: it covers another process's write, which takes a millisecond.
 * Longer waits are retried asynchronously, up to BUSY_RETRY_MS, so a request's deadline still
 * fires while a write waits for the lock.
 */
const SYNC_BUSY_TIMEOUT_MS = 50;
const BUSY_RETRY_MS = 10_000;

/**
 * SQLite copies the WAL into the database file (a checkpoint: a few ms, with two fsyncs) inside
 * the COMMIT that takes the WAL past 1,000 pages, and the request waiting for that commit waits
 * for it too: one write in some thirty. Once CHECKPOINT_AFTER_WRITES writes (some 2 pages each)
 * have gone by, a connection checkpoints as soon as its writes pause for IDLE_MS, when no request
 * waits; under a steady stream of writes SQLite's own checkpoint still runs as before.
 */
const CHECKPOINT_AFTER_WRITES = 300;
const IDLE_MS = 5;

/**
 * The shapes of the backend (../backend-contract.ts), one table each. Times are ms since the epoch.
 *
 * Laid out so that a commit changes few pages: SQLite writes each page a transaction changed to
 * the WAL, and that is most of a write's cost. kv keeps its rows in order of arrival (a rowid
 * table), so the values one commit adds share its last pages and only the small entries of the
 * key's index land apart; expires_at comes before the value, so a read never walks a long
 * value's overflow pages to find it. idx is keyed by member first, so the indexes one record
 * joins at once share a page. A list is one b-tree, its members in order of arrival by seq. A
 * distinct set is its row in distinct_sets (its expiry, and the members it has forgotten) and
 * the members it still keeps, each until its own expires_at (./counted-tables.ts). Everything
 * that expires has an index on its expiry, by which every transaction of writes prunes it.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, expires_at INTEGER, value TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS kv_expiry ON kv (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS idx (name TEXT NOT NULL, member TEXT NOT NULL, score INTEGER NOT NULL,
  PRIMARY KEY (member, name)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS idx_by_score ON idx (name, score, member);
CREATE TABLE IF NOT EXISTS lists (name TEXT NOT NULL, seq INTEGER NOT NULL, member TEXT NOT NULL,
  PRIMARY KEY (name, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS counters (name TEXT NOT NULL, field TEXT NOT NULL, value INTEGER NOT NULL,
  expires_at INTEGER, PRIMARY KEY (name, field)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS counters_expiry ON counters (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS tallies (key TEXT PRIMARY KEY, count INTEGER NOT NULL, reset_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS tallies_expiry ON tallies (reset_at);
CREATE TABLE IF NOT EXISTS distinct_members (name TEXT NOT NULL, member TEXT NOT NULL, expires_at INTEGER NOT NULL,
  PRIMARY KEY (name, member)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS distinct_members_expiry ON distinct_members (expires_at);
CREATE TABLE IF NOT EXISTS distinct_sets (name TEXT PRIMARY KEY, forgotten INTEGER NOT NULL, expires_at INTEGER NOT NULL)
  WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS distinct_sets_expiry ON distinct_sets (expires_at);
`;

/**
 * The layout's version in PRAGMA user_version. The tables of one store per concern (versions 0
 * to 3) came before; 100 had these tables, with kv, idx and lists laid out as one b-tree by key.
 */
export const LAYOUT_VERSION = 103;
/** 102 kept every member of a distinct set until the set expired, and no distinct_sets. */
const BEFORE_FORGOTTEN_MEMBERS = 102;
/** 101 had every table but distinct_members, which SCHEMA adds. */
const BEFORE_DISTINCT_SETS = 101;
const FIRST_GENERIC_LAYOUT = 100;

/**
 * Version 102's distinct sets get their rows in distinct_sets (which SCHEMA has just made). Their
 * members were kept until the set expired (25 months for a day's visitors): they are forgotten
 * two days after the upgrade, the longest any rule keeps one (a day's visitor hashes, whose salt
 * lives 48 hours), and counted still.
 */
const FROM_KEPT_MEMBERS = `
INSERT INTO distinct_sets (name, forgotten, expires_at)
  SELECT name, 0, max(expires_at) FROM distinct_members GROUP BY name;
UPDATE distinct_members SET expires_at = min(expires_at, CAST(unixepoch('subsec') * 1000 AS INTEGER) + 172800000);`;

/** Version 100's kv, idx and lists, set aside before SCHEMA makes them again, then moved over as they are. */
const FROM_FIRST_GENERIC_LAYOUT = {
  aside: `
DROP INDEX kv_expiry; DROP INDEX idx_by_score; DROP INDEX lists_by_name;
ALTER TABLE kv RENAME TO kv_100; ALTER TABLE idx RENAME TO idx_100; ALTER TABLE lists RENAME TO lists_100;`,
  back: `
INSERT INTO kv (key, expires_at, value) SELECT key, expires_at, value FROM kv_100;
INSERT INTO idx (name, member, score) SELECT name, member, score FROM idx_100;
INSERT INTO lists (name, seq, member) SELECT name, seq, member FROM lists_100;
DROP TABLE kv_100; DROP TABLE idx_100; DROP TABLE lists_100;`,
};

export type Row = Record<string, SQLOutputValue>;

/** A column of a row read as text, or null. */
export function text(row: Row | undefined, column: string): string | null {
  const value = row?.[column];
  return typeof value === 'string' ? value : null;
}

/** A column of a row read as a whole number, or 0. */
export function integer(row: Row | undefined, column: string): number {
  const value = row?.[column];
  return typeof value === 'number' ? value : 0;
}

/** A value or counter that has not expired: no expiry, or later than the parameter (now). */
export const LIVE = '(expires_at IS NULL OR expires_at > ?)';

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

/** One connection with its prepared statements. */
export class Database {
  private readonly statements = new Map<string, StatementSync>();
  private writesSinceCheckpoint = 0;
  private lastWriteAt = 0;
  private checkpointTimer: NodeJS.Timeout | undefined;

  constructor(readonly db: DatabaseSync) {}

  /** Counts writes made, and checkpoints once enough have gone by and writes pause (CHECKPOINT_AFTER_WRITES). */
  wrote(writes: number): void {
    this.lastWriteAt = Date.now();
    this.writesSinceCheckpoint += writes;
    if (this.writesSinceCheckpoint >= CHECKPOINT_AFTER_WRITES) this.checkpointTimer ??= this.checkpointIn(IDLE_MS);
  }

  private checkpointIn(ms: number): NodeJS.Timeout {
    // Unref'd: a pending checkpoint keeps no process alive.
    return setTimeout(() => this.checkpointWhenIdle(), ms).unref();
  }

  private checkpointWhenIdle(): void {
    const idleFor = Date.now() - this.lastWriteAt;
    if (idleFor < IDLE_MS) {
      this.checkpointTimer = this.checkpointIn(IDLE_MS - idleFor);
      return;
    }
    this.checkpointTimer = undefined;
    this.writesSinceCheckpoint = 0;
    try {
      // PASSIVE: copies what it can without waiting for any other connection.
      this.db.exec('PRAGMA wal_checkpoint(PASSIVE)');
    } catch {
      // Another connection is checkpointing: SQLite's own checkpoint still follows.
    }
  }

  close(): void {
    clearTimeout(this.checkpointTimer);
    this.db.close();
  }

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

/** Opens (and if need be creates, or brings to this layout) the database of a folder. */
export async function openDatabase(directory: string): Promise<Database> {
  const { DatabaseSync } = await loadSqlite();
  mkdirSync(directory, { recursive: true });
  const db = new DatabaseSync(path.join(directory, DATABASE_FILE), { timeout: SYNC_BUSY_TIMEOUT_MS });
  try {
    // WAL: readers never wait for the writer. synchronous=NORMAL keeps every committed
    // transaction through a crash of the process (a power cut may lose the last ones: a local store).
    await whileBusy(() => db.exec('PRAGMA journal_mode = WAL'));
    db.exec('PRAGMA synchronous = NORMAL');
    const database = new Database(db);
    await database.transaction('IMMEDIATE', () => {
      const row = db.prepare('PRAGMA user_version').get();
      const version = typeof row?.user_version === 'number' ? row.user_version : 0;
      if (version === LAYOUT_VERSION) return;
      if (version === FIRST_GENERIC_LAYOUT) db.exec(FROM_FIRST_GENERIC_LAYOUT.aside);
      db.exec(SCHEMA);
      if (version === FIRST_GENERIC_LAYOUT) db.exec(FROM_FIRST_GENERIC_LAYOUT.back);
      else if (version === BEFORE_FORGOTTEN_MEMBERS) db.exec(FROM_KEPT_MEMBERS);
      else if (version !== BEFORE_DISTINCT_SETS) migrateLegacyTables(database, version);
      db.exec(`PRAGMA user_version = ${LAYOUT_VERSION}`);
    });
    return database;
  } catch (error) {
    db.close();
    throw error;
  }
}
