// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/**
 * What a backend offers: the few shapes of data the store's rules use, and one atomic commit.
 * Both backends (sqlite/ and redis/) implement this and nothing else; every rule is written once,
 * in the module of its concern, on top of it.
 *
 * - A value by key: a record (JSON) or an expiring mark (idempotency keys, throttles, spent
 *   challenges, sessions, leases). A mark's time to live only clears it away; what a rule decides
 *   by time it reads from the value and compares with its own clock.
 * - An index: members ordered by a score (a time), for the lists and the outbox's queue.
 * - A list: members in the order they were appended (the outbox entries of a record).
 * - Counters: named tables of whole numbers (per endpoint, per lead status, per mailing).
 * - A tally: a counter in a window that starts at its first count (login attempts).
 * - A distinct set: members counted, never listed (the visitors of a day). On Upstash a
 *   HyperLogLog, within 0.81 % and at most 12 KB whatever it holds, which never keeps a member;
 *   in the embedded store exact, each member kept until its `forgetMs` is over and only counted
 *   after that, so that it does not keep for long what the HyperLogLog never keeps at all.
 */

/** One change a commit applies. Numbers are whole (milliseconds, counts). */
export type Write =
  | { op: 'put'; key: string; value: string; ttlMs?: number }
  /** Removes a key of any shape: a value, an index, a list or a table of counters. */
  | { op: 'del'; key: string }
  | { op: 'index'; key: string; member: string; score: number }
  | { op: 'unindex'; key: string; member: string }
  | { op: 'append'; key: string; member: string }
  /** Adds `by` (which may be negative) to a counter; one that reaches 0 or less is removed. */
  | { op: 'count'; key: string; field: string; by: number }
  /**
   * Adds a member to a distinct set, which lives `ttlSeconds` from when it is made. With
   * `forgetMs`, the member itself is kept only that long from when it was first added, and
   * counted without being kept after (the embedded store keeps members; a HyperLogLog never
   * does): a member added again after that counts again, so a rule forgets only members that
   * cannot come again.
   */
  | { op: 'distinct'; key: string; member: string; ttlSeconds: number; forgetMs?: number }
  /**
   * One more under `field` of a table of counters fed by what people send, which keeps its `cap`
   * most frequent fields and counts the rest under `other`, so that it stays bounded whatever
   * arrives and a flood of values seen once or twice cannot push out one seen often. It is
   * Space-Saving (Metwally, Agrawal and El Abbadi, 2005): while the table has room a new field
   * joins it; once it is full, a new field takes the place of the one of lowest rank, whose count
   * (and distinct set) move to `other`, and inherits that rank as its error. A field's rank is its
   * count plus its error (kept under errorsKey(key), absent while 0); its count is exactly what it
   * got since it joined. Among fields of equal rank the one with the larger error goes first (its
   * rank rests on less of its own); beyond that the choice is the backend's. With `member`, that
   * member also joins the distinct set of the field counted (distinctKey(), with `forgetMs` as
   * for 'distinct'). The table, its errors and its sets live `ttlSeconds` from when each is made.
   */
  | {
      op: 'bounded';
      key: string;
      field: string;
      cap: number;
      other: string;
      ttlSeconds: number;
      member?: string;
      forgetMs?: number;
    }
  /**
   * Sets an expiring mark. When the key held no live value, and neither did `from` (a mark it
   * carries on, under another key), applies `then`; otherwise applies `otherwise`.
   */
  | { op: 'mark'; key: string; ttlMs: number; from?: string; then: Write[]; otherwise?: Write[] }
  /**
   * Counts one more in a window of `windowMs` that starts at its first count, as tally() does, and
   * applies `then` only while the count is at most `max`, `otherwise` past it: a rate limit in the
   * same atomic step.
   */
  | { op: 'limited'; key: string; max: number; windowMs: number; then: Write[]; otherwise?: Write[] };

/** The distinct set of one field of a bounded table. */
export const distinctKey = (table: string, field: string) => `${table}|${field}`;

/** The Space-Saving errors of a bounded table's fields (its `#` cannot follow a table's name in a distinctKey). */
export const errorsKey = (table: string) => `${table}#errors`;

/**
 * What a rule read: the commit applies only if the key still holds that value (null: still
 * absent), or the list still has that many members (lists only grow, or go whole).
 */
export type Check = { key: string; value: string | null } | { key: string; length: number };

export type CommitOutcome =
  | { ok: true }
  /** A checked key changed: what each checked value holds now, in the order of the checks (lists left out). */
  | { ok: false; values: (string | null)[] };

export interface Backend {
  readonly kind: 'upstash' | 'embedded';
  /** The values of these keys, null where absent or expired, in one consistent read. */
  get(keys: readonly string[]): Promise<(string | null)[]>;
  /** Applies every write if every check holds, atomically; otherwise applies nothing. */
  commit(checks: readonly Check[], writes: readonly Write[]): Promise<CommitOutcome>;
  /** An index's members by rank, lowest score first (or highest first). */
  members(key: string, range: { offset: number; limit: number; highestFirst?: boolean }): Promise<string[]>;
  /** An index's members with a score from `min` to `max` (both included), lowest first, at most `limit`. */
  membersByScore(key: string, range: { min: number; max: number; limit: number }): Promise<string[]>;
  /** How many members an index has. */
  size(key: string): Promise<number>;
  /** A list's members, in order. */
  list(key: string): Promise<string[]>;
  /** A table of counters, as a null-prototype object (its fields come from what people send). */
  counters(key: string): Promise<Record<string, number>>;
  /**
   * Counts one more in a window of `windowMs` that starts at the first count, atomically:
   * however many arrive at once, each gets its own number.
   */
  tally(key: string, windowMs: number, now: Date): Promise<{ count: number; resetAt: number }>;
  /** Clears a tally. */
  clearTally(key: string): Promise<void>;
  /** How many members each distinct set holds (0 where absent), in the order of the keys. */
  distinctCounts(keys: readonly string[]): Promise<number[]>;
}

/** What a rule makes of the values it read: the writes to commit (none: nothing to change) and its answer. */
export interface Plan<R> {
  writes?: Write[];
  result: R;
}

/** A plan that found it must read more keys first (a key named by a value it read). */
export interface Needs {
  needs: string[];
}

/** Values read by key. */
export type Values = ReadonlyMap<string, string | null>;
/** Lists read by key. */
export type Lists = ReadonlyMap<string, readonly string[]>;

export interface Rule<R> {
  /** The keys whose values the plan reads; the commit checks each one is unchanged. */
  keys: readonly string[];
  /**
   * Plan the first try as if every key were absent, without reading: for writes that nearly
   * always create (a new lead, a first subscription), one round trip instead of two. When a
   * key was there after all, the commit says what it holds and the rule plans again.
   */
  assumeAbsent?: boolean;
  /** The lists whose members the plan reads; the commit checks none was appended to meanwhile. */
  lists?: readonly string[];
  plan(values: Values, lists: Lists): Plan<R> | Needs;
}

/** Raised when a rule's keys changed under it more often than any real contention explains. */
export class StoreContentionError extends Error {
  constructor() {
    super('the records kept changing during a write');
    this.name = 'StoreContentionError';
  }
}

/**
 * How many times a rule is planned again after a conflict. Each conflict means another write to
 * the same keys landed, so every retry is progress for someone: hundreds of writers on one key
 * all land.
 */
const MAX_TRIES = 500;

/**
 * Runs a rule: read, plan, commit if what was read is unchanged, and plan again from what the
 * keys hold now otherwise. The one retry loop of the store.
 */
export async function transact<R>(backend: Backend, rule: Rule<R>): Promise<R> {
  const keys = [...rule.keys];
  const listKeys = rule.lists ?? [];
  const readLists = async () => Promise.all(listKeys.map((key) => backend.list(key)));
  let verified = !rule.assumeAbsent;
  let [values, lists] = verified
    ? await Promise.all([backend.get(keys), readLists()])
    : [keys.map(() => null), listKeys.map(() => [])];
  for (let tries = 0; tries < MAX_TRIES; tries += 1) {
    const plan = rule.plan(
      new Map(keys.map((key, index) => [key, values[index] ?? null])),
      new Map(listKeys.map((key, index) => [key, lists[index] ?? []])),
    );
    if ('needs' in plan) {
      const more = plan.needs.filter((key) => !keys.includes(key));
      if (more.length === 0) throw new Error('a store rule asked for keys it had already read');
      keys.push(...more);
      values = [...values, ...(verified ? await backend.get(more) : more.map(() => null))];
      continue;
    }
    const { writes = [], result } = plan;
    // A plan that changes nothing needs no commit, unless what it read was only assumed.
    if (writes.length === 0 && verified) return result;
    const checks: Check[] = [
      ...keys.map((key, index) => ({ key, value: values[index] ?? null })),
      ...listKeys.map((key, index) => ({ key, length: lists[index]?.length ?? 0 })),
    ];
    const outcome = await backend.commit(checks, writes);
    if (outcome.ok) return result;
    values = outcome.values;
    if (listKeys.length > 0) lists = await readLists();
    verified = true;
  }
  throw new StoreContentionError();
}

/** A JSON value read by key, or undefined where there is none. */
export function parsed<T>(values: Values, key: string): T | undefined {
  const value = values.get(key);
  return typeof value === 'string' && value !== '' ? (JSON.parse(value) as T) : undefined;
}

/** A JSON string, or undefined, as read from a backend outside a rule. */
export function parse<T>(value: string | null | undefined): T | undefined {
  return typeof value === 'string' && value !== '' ? (JSON.parse(value) as T) : undefined;
}
