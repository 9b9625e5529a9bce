// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/**
 * The embedded store's counters, distinct sets and bounded tables (the 'count', 'distinct' and
 * 'bounded' writes of ../backend-contract.ts), inside the caller's transaction, and the pruning
 * of what has expired. A distinct set is a row of distinct_sets (its expiry, and how many members
 * it has forgotten) and a row of distinct_members per member still kept, until the member's own
 * expires_at: then the member is counted in `forgotten` and its row goes, as a HyperLogLog on
 * Upstash never holds a member at all.
 */
import { distinctKey, errorsKey, type Write } from '../backend-contract';
import { integer, LIVE, text, type Database } from './database';

/** Adds `by` to a counter, which lives until `expiresAt` (ms; null: for good); one at 0 or less goes. */
export function addToCounter(database: Database, key: string, field: string, by: number, expiresAt: number | null) {
  database.run(
    `INSERT INTO counters (name, field, value, expires_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (name, field) DO UPDATE SET value = value + excluded.value, expires_at = excluded.expires_at`,
    key,
    field,
    by,
    expiresAt,
  );
  database.run('DELETE FROM counters WHERE name = ? AND field = ? AND value <= 0', key, field);
}

/**
 * The expiry of a live distinct set, made now to live `ttlSeconds` if there is none. A set whose
 * time is up is gone (as an expired key on Upstash), even before the pruning has taken its rows.
 */
function liveSet(database: Database, key: string, ttlSeconds: number, now: number): number {
  const expiresAt = integer(database.get('SELECT expires_at FROM distinct_sets WHERE name = ?', key), 'expires_at');
  if (expiresAt > now) return expiresAt;
  const made = now + ttlSeconds * 1000;
  database.run('DELETE FROM distinct_members WHERE name = ?', key);
  database.run('INSERT OR REPLACE INTO distinct_sets (name, forgotten, expires_at) VALUES (?, 0, ?)', key, made);
  return made;
}

/** Adds a member to a distinct set; it is kept `forgetMs` from when it was first added (never past its set). */
export function addDistinct(
  database: Database,
  { key, member, ttlSeconds, forgetMs }: Extract<Write, { op: 'distinct' }>,
  now: number,
): void {
  const setExpires = liveSet(database, key, ttlSeconds, now);
  database.run(
    'INSERT INTO distinct_members (name, member, expires_at) VALUES (?, ?, ?) ON CONFLICT (name, member) DO NOTHING',
    key,
    member,
    forgetMs === undefined ? setExpires : Math.min(setExpires, now + forgetMs),
  );
}

/** How many members a live distinct set has counted: those kept and those forgotten. */
export function distinctSize(database: Database, key: string, now: number): number {
  return integer(
    database.get(
      `SELECT forgotten + (SELECT count(*) FROM distinct_members WHERE name = ?1) AS size
       FROM distinct_sets WHERE name = ?1 AND expires_at > ?2`,
      key,
      now,
    ),
    'size',
  );
}

/** Moves the members of one distinct set into another (made if need be), and deletes the first. */
function mergeDistinct(database: Database, from: string, into: string, ttlSeconds: number, now: number): void {
  const source = database.get('SELECT forgotten FROM distinct_sets WHERE name = ? AND expires_at > ?', from, now);
  if (source) {
    const expiresAt = liveSet(database, into, ttlSeconds, now);
    database.run(
      `INSERT INTO distinct_members (name, member, expires_at)
       SELECT ?1, member, min(expires_at, ?2) FROM distinct_members WHERE name = ?3
       ON CONFLICT (name, member) DO NOTHING`,
      into,
      expiresAt,
      from,
    );
    database.run(
      'UPDATE distinct_sets SET forgotten = forgotten + ? WHERE name = ?',
      integer(source, 'forgotten'),
      into,
    );
  }
  deleteDistinct(database, from);
}

/** Deletes a distinct set, kept members and forgotten count alike. */
export function deleteDistinct(database: Database, key: string): void {
  database.run('DELETE FROM distinct_members WHERE name = ?', key);
  database.run('DELETE FROM distinct_sets WHERE name = ?', key);
}

/**
 * The 'bounded' write: Space-Saving, as the contract describes it. The field of lowest rank is
 * looked for only when a new field finds the table full.
 */
export function addToBounded(database: Database, write: Extract<Write, { op: 'bounded' }>, now: number): void {
  const { key, other, cap, ttlSeconds, member, forgetMs } = write;
  const expiresAt = now + ttlSeconds * 1000;
  let field = write.field;
  const known = () =>
    database.get(`SELECT 1 AS known FROM counters WHERE name = ? AND field = ? AND ${LIVE}`, key, field, now) !==
    undefined;
  const full = () =>
    integer(
      database.get(`SELECT count(*) AS size FROM counters WHERE name = ? AND field <> ? AND ${LIVE}`, key, other, now),
      'size',
    ) >= cap;
  if (field !== other && !known() && full()) {
    const errors = errorsKey(key);
    const lowest = database.get(
      `SELECT counted.field AS field, counted.value AS count, coalesce(error.value, 0) AS error
       FROM counters AS counted
       LEFT JOIN counters AS error ON error.name = ?1 AND error.field = counted.field AND error.expires_at > ?2
       WHERE counted.name = ?3 AND counted.field <> ?4 AND (counted.expires_at IS NULL OR counted.expires_at > ?2)
       ORDER BY counted.value + coalesce(error.value, 0), coalesce(error.value, 0) DESC
       LIMIT 1`,
      errors,
      now,
      key,
      other,
    );
    const victim = text(lowest, 'field');
    if (victim === null) field = other;
    else {
      const count = integer(lowest, 'count');
      database.run('DELETE FROM counters WHERE name = ? AND field = ?', key, victim);
      database.run('DELETE FROM counters WHERE name = ? AND field = ?', errors, victim);
      addToCounter(database, key, other, count, expiresAt);
      if (member !== undefined)
        mergeDistinct(database, distinctKey(key, victim), distinctKey(key, other), ttlSeconds, now);
      addToCounter(database, errors, field, count + integer(lowest, 'error'), expiresAt);
    }
  }
  addToCounter(database, key, field, 1, expiresAt);
  if (member !== undefined)
    addDistinct(
      database,
      {
        op: 'distinct',
        key: distinctKey(key, field),
        member,
        ttlSeconds,
        ...(forgetMs === undefined ? {} : { forgetMs }),
      },
      now,
    );
}

/**
 * Deletes what has expired, so that the store does not grow with every mark, rate window and
 * visitor ever made: run after every transaction of writes. Each statement finds its rows
 * through an index on their expiry, so when nothing has expired it costs a lookup.
 */
export function pruneExpired(database: Database, now: number): void {
  database.run('DELETE FROM kv WHERE expires_at <= ?', now);
  // Members whose time is up are counted, then go: the set's count stays what it was.
  database.run(
    `UPDATE distinct_sets SET forgotten = forgotten +
       (SELECT count(*) FROM distinct_members WHERE name = distinct_sets.name AND expires_at <= ?1)
     WHERE name IN (SELECT name FROM distinct_members WHERE expires_at <= ?1)`,
    now,
  );
  database.run('DELETE FROM distinct_members WHERE expires_at <= ?', now);
  database.run('DELETE FROM distinct_sets WHERE expires_at <= ?', now);
  database.run('DELETE FROM tallies WHERE reset_at <= ?', now);
  database.run('DELETE FROM counters WHERE expires_at <= ?', now);
}
