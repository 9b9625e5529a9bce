// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/**
 * The backend of the embedded store: each shape of data in a table of its own (database.ts), a
 * commit one IMMEDIATE transaction that checks, then writes. It knows no rule of the site.
 */
import type { SQLInputValue } from 'node:sqlite';
import type { Backend, Check, CommitOutcome, Write } from '../backend-contract';
import { countTable } from '../counting';
import { addDistinct, addToBounded, addToCounter, deleteDistinct, distinctSize, pruneExpired } from './counted-tables';
import { integer, LIVE, openDatabase, text, type Database } from './database';

const valueOf = (database: Database, key: string, now: number) =>
  text(database.get(`SELECT value FROM kv WHERE key = ? AND ${LIVE}`, key, now), 'value');

const lengthOf = (database: Database, key: string) =>
  integer(database.get('SELECT count(*) AS length FROM lists WHERE name = ?', key), 'length');

/** Applies one write inside the caller's transaction. */
function apply(database: Database, write: Write, now: number): void {
  const run = (sql: string, ...params: SQLInputValue[]) => database.run(sql, ...params);
  switch (write.op) {
    case 'put':
      // An update keeps its row where it is; OR REPLACE would delete it and add it anew at the end.
      run(
        `INSERT INTO kv (key, value, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
        write.key,
        write.value,
        write.ttlMs ? now + Math.max(1, Math.ceil(write.ttlMs)) : null,
      );
      return;
    case 'del':
      // A key of any shape, as Redis's DEL.
      run('DELETE FROM kv WHERE key = ?', write.key);
      run('DELETE FROM idx WHERE name = ?', write.key);
      run('DELETE FROM lists WHERE name = ?', write.key);
      run('DELETE FROM counters WHERE name = ?', write.key);
      deleteDistinct(database, write.key);
      return;
    case 'index':
      run('INSERT OR REPLACE INTO idx (name, member, score) VALUES (?, ?, ?)', write.key, write.member, write.score);
      return;
    case 'unindex':
      run('DELETE FROM idx WHERE name = ? AND member = ?', write.key, write.member);
      return;
    case 'append':
      // After the list's last member.
      run(
        'INSERT INTO lists (name, seq, member) SELECT ?1, coalesce(max(seq), 0) + 1, ?2 FROM lists WHERE name = ?1',
        write.key,
        write.member,
      );
      return;
    case 'count':
      addToCounter(database, write.key, write.field, write.by, null);
      return;
    case 'distinct':
      addDistinct(database, write, now);
      return;
    case 'bounded':
      addToBounded(database, write, now);
      return;
    case 'limited': {
      const current = database.get('SELECT count, reset_at FROM tallies WHERE key = ?', write.key);
      const live = current !== undefined && integer(current, 'reset_at') > now;
      const count = live ? integer(current, 'count') + 1 : 1;
      const resetAt = live ? integer(current, 'reset_at') : now + write.windowMs;
      run('INSERT OR REPLACE INTO tallies (key, count, reset_at) VALUES (?, ?, ?)', write.key, count, resetAt);
      for (const inner of count <= write.max ? write.then : (write.otherwise ?? [])) apply(database, inner, now);
      return;
    }
    case 'mark': {
      const live =
        valueOf(database, write.key, now) !== null ||
        (write.from !== undefined && valueOf(database, write.from, now) !== null);
      apply(database, { op: 'put', key: write.key, value: '1', ttlMs: write.ttlMs }, now);
      for (const inner of live ? (write.otherwise ?? []) : write.then) apply(database, inner, now);
      return;
    }
  }
}

/** A commit waiting for the next transaction. */
interface Waiting {
  checks: readonly Check[];
  writes: readonly Write[];
  resolve: (outcome: CommitOutcome) => void;
  reject: (error: unknown) => void;
}

/** One commit inside the caller's transaction: its checks, then its writes if they all hold. */
function commitOne(database: Database, { checks, writes }: Waiting, now: number): CommitOutcome {
  const holds = checks.every((check) =>
    'length' in check
      ? lengthOf(database, check.key) === check.length
      : valueOf(database, check.key, now) === check.value,
  );
  if (!holds) {
    const values = checks.flatMap((check) => ('length' in check ? [] : [valueOf(database, check.key, now)]));
    return { ok: false, values };
  }
  for (const change of writes) apply(database, change, now);
  return { ok: true };
}

/**
 * Commits in order of arrival inside the caller's transaction, each as if alone; answers how to
 * tell each one its outcome once the transaction is committed.
 */
function commitAll(database: Database, commits: readonly Waiting[]): (() => void)[] {
  const now = Date.now();
  const answers = commits.map((commit) => {
    const outcome = commitOne(database, commit, now);
    return () => commit.resolve(outcome);
  });
  // What has expired goes as later writes pass by: the store does not grow with every mark,
  // rate window and visitor ever made.
  pruneExpired(database, now);
  database.wrote(commits.reduce((count, commit) => count + commit.writes.length, 0));
  return answers;
}

export type SqliteBackend = Backend & {
  /** Closes the connection (tests open many stores); a later call opens it again. */
  close(): void;
};

export function sqliteBackend(directory: string): SqliteBackend {
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
   * Commits that arrive together (requests in flight at once) share one transaction. SQLite
   * writes each page a transaction changed once, at COMMIT, and the commits of a moment change
   * many of the same pages (the newest rows, the ends of the indexes, the counters): under load,
   * a batch writes a fraction of what its commits would one by one. Alone, a commit waits only
   * for the current turn of the event loop to end.
   */
  let waiting: Waiting[] = [];
  async function commitWaiting(): Promise<void> {
    const batch = waiting;
    waiting = [];
    try {
      for (const answer of await write((database) => commitAll(database, batch))) answer();
    } catch (error) {
      if (batch.length === 1) return batch[0]?.reject(error);
      // The error rolled the whole batch back: each commit runs again alone, so it stays with its own.
      for (const commit of batch)
        write((database) => commitAll(database, [commit])).then((answers) => {
          for (const answer of answers) answer();
        }, commit.reject);
    }
  }

  return {
    kind: 'embedded',

    get: (keys) => read((database) => keys.map((key) => valueOf(database, key, Date.now()))),

    commit: (checks: readonly Check[], writes: readonly Write[]) =>
      new Promise<CommitOutcome>((resolve, reject) => {
        // The first commit of a batch schedules it; those that arrive before it runs join it.
        if (waiting.push({ checks, writes, resolve, reject }) === 1) setImmediate(() => void commitWaiting());
      }),

    members: (key, { offset, limit, highestFirst = false }) =>
      read((database) =>
        database
          .all(
            highestFirst
              ? 'SELECT member FROM idx WHERE name = ? ORDER BY score DESC, member DESC LIMIT ? OFFSET ?'
              : 'SELECT member FROM idx WHERE name = ? ORDER BY score, member LIMIT ? OFFSET ?',
            key,
            limit,
            offset,
          )
          .map((row) => text(row, 'member') ?? ''),
      ),

    membersByScore: (key, { min, max, limit }) =>
      read((database) =>
        database
          .all(
            'SELECT member FROM idx WHERE name = ? AND score >= ? AND score <= ? ORDER BY score, member LIMIT ?',
            key,
            min,
            max,
            limit,
          )
          .map((row) => text(row, 'member') ?? ''),
      ),

    size: (key) =>
      read((database) => integer(database.get('SELECT count(*) AS size FROM idx WHERE name = ?', key), 'size')),

    list: (key) =>
      read((database) =>
        database
          .all('SELECT member FROM lists WHERE name = ? ORDER BY seq', key)
          .map((row) => text(row, 'member') ?? ''),
      ),

    counters: (key) =>
      read((database) => {
        const counts = countTable();
        for (const row of database.all(`SELECT field, value FROM counters WHERE name = ? AND ${LIVE}`, key, Date.now()))
          counts[text(row, 'field') ?? ''] = integer(row, 'value');
        return counts;
      }),

    tally: (key, windowMs, now) =>
      write((database) => {
        const at = now.getTime();
        const current = database.get('SELECT count, reset_at FROM tallies WHERE key = ?', key);
        const tally =
          current && integer(current, 'reset_at') > at
            ? { count: integer(current, 'count') + 1, resetAt: integer(current, 'reset_at') }
            : { count: 1, resetAt: at + windowMs };
        database.run(
          'INSERT OR REPLACE INTO tallies (key, count, reset_at) VALUES (?, ?, ?)',
          key,
          tally.count,
          tally.resetAt,
        );
        return tally;
      }),

    clearTally: (key) =>
      write((database) => {
        database.run('DELETE FROM tallies WHERE key = ?', key);
      }),

    distinctCounts: (keys) =>
      read((database) => {
        const now = Date.now();
        return keys.map((key) => distinctSize(database, key, now));
      }),

    close() {
      const current = opening;
      opening = undefined;
      void current?.then(
        (database) => database.close(),
        () => undefined,
      );
    },
  };
}
