/**
 * What only the embedded SQLite store has to prove (the shared contract is in store-contract): a
 * process killed in the middle of writing loses no write it had acknowledged and leaves no lock
 * behind, commits that share a transaction each keep their own checks and errors, a database of
 * the earlier layout is brought into this one with nothing lost, and expired marks do not pile up.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { sqliteBackend } from '../../functions/_lib/store/sqlite/sqlite-backend';
import { DATABASE_FILE, LAYOUT_VERSION } from '../../functions/_lib/store/sqlite/database';
import { SALT_TTL_MS, VISITS_TTL_SECONDS } from '../../functions/_lib/store/visits';
import { createSqliteStore, type SqliteStore } from '../support/stores';
import { writeFirstGenericDatabase, writeLegacyDatabase } from '../support/legacy-database';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let folder: string;
const opened: Pick<SqliteStore, 'close'>[] = [];
const open = () => {
  const store = createSqliteStore(folder);
  opened.push(store);
  return store;
};

beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'store-sqlite-'));
});
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  rmSync(folder, { recursive: true, force: true });
});

/** Runs tests/support/sqlite-writer.ts; resolves with what it printed once it has exited. */
function runWriter(
  mode: 'burst' | 'hold',
  killWhen: (lines: string[]) => boolean,
): Promise<{ lines: string[]; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'tests/support/sqlite-writer.ts'), mode, folder], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      if (!child.killed && killWhen(output.split('\n').slice(0, -1))) child.kill('SIGKILL');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`the writer exited by itself (code ${code}): ${errors}`));
      // Only whole lines: a line cut by the kill was not acknowledged.
      else resolve({ lines: output.split('\n').slice(0, -1), signal });
    });
  });
}

describe('a writer killed with SIGKILL', () => {
  test('mid-burst loses no write it had acknowledged', async () => {
    const { lines } = await runWriter('burst', (printed) => printed.length >= 400);
    expect(lines.length).toBeGreaterThanOrEqual(400);
    const emails = lines
      .filter((line) => line.startsWith('subscriber '))
      .map((line) => line.slice('subscriber '.length));
    const leadIds = new Set(lines.filter((line) => line.startsWith('lead ')).map((line) => line.slice('lead '.length)));
    expect(emails.length + leadIds.size).toBe(lines.length);

    const store = open();
    const missing = [];
    for (const email of emails) if (!(await store.getSubscriber(email))) missing.push(email);
    const stored = new Set((await store.listLeads({ offset: 0, limit: 1_000_000 })).map((lead) => lead.id));
    for (const id of leadIds) if (!stored.has(id)) missing.push(id);
    expect(missing).toEqual([]);
    expect(await store.countSubscribers()).toBeGreaterThanOrEqual(emails.length);

    const check = new DatabaseSync(path.join(folder, DATABASE_FILE), { readOnly: true });
    try {
      expect(check.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    } finally {
      check.close();
    }
  });

  test('while holding the write lock leaves no lock behind and its unfinished write is rolled back', async () => {
    await runWriter('hold', (printed) => printed.includes('holding'));
    const store = open();
    const { record: lead } = await store.createLead(
      { name: 'After', email: 'after@example.com', source: 'contact_form' },
      new Date(),
    );
    expect(await store.listLeads({ offset: 0, limit: 10 })).toEqual([{ ...lead, delivery: [] }]);
  });
});

describe('commits that arrive together', () => {
  const backend = () => {
    const made = sqliteBackend(folder);
    opened.push(made);
    return made;
  };

  test('each checks what the ones before it wrote', async () => {
    const store = backend();
    const first = { op: 'put', key: 'k', value: 'first' } as const;
    const second = { op: 'put', key: 'k', value: 'second' } as const;
    expect(
      await Promise.all([
        store.commit([{ key: 'k', value: null }], [first]),
        store.commit([{ key: 'k', value: null }], [second]),
      ]),
    ).toEqual([{ ok: true }, { ok: false, values: ['first'] }]);
    expect(await store.get(['k'])).toEqual(['first']);
  });

  test('one whose write fails fails alone; the others land', async () => {
    const store = backend();
    const outcomes = await Promise.allSettled([
      store.commit([], [{ op: 'put', key: 'a', value: '1' }]),
      // An index needs a score: SQLite refuses the row.
      store.commit(
        [],
        [
          { op: 'put', key: 'b', value: '2' },
          { op: 'index', key: 'i', member: 'm', score: Number.NaN },
        ],
      ),
      store.commit([], [{ op: 'put', key: 'c', value: '3' }]),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await store.get(['a', 'b', 'c'])).toEqual(['1', null, '3']);
  });
});

describe('loading', () => {
  /** Chooses a backend the way a function does, in a fresh process, and says whether node:sqlite was loaded. */
  function loadsSqlite(env: Record<string, string>): { backend: string; sqlite: boolean } {
    const script = `
      const { importBundled } = await import('./scripts/harness/functions.ts');
      const { getBackend } = await importBundled(process.cwd(), 'functions/_lib/store/get-store.ts');
      const backend = await getBackend();
      if (backend) await backend.store.countLeads().catch(() => undefined);
      console.log(JSON.stringify({ backend: backend?.kind ?? 'none', sqlite: process.moduleLoadList.some((name) => name.includes('sqlite')) }));
    `;
    const { SITE_LOCAL_RUN: _inherited, ...inherited } = process.env;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      env: { ...inherited, ...env },
      encoding: 'utf8',
    });
    return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as { backend: string; sqlite: boolean };
  }

  test('a deployed function never loads node:sqlite; a local run loads it for the embedded store', () => {
    const upstash = {
      UPSTASH_REDIS_REST_URL: 'http://127.0.0.1:9',
      UPSTASH_REDIS_REST_TOKEN: 'unused',
      STORE_TIMEOUT_MS: '100',
      LOCAL_STORE_DIR: folder,
    };
    expect(loadsSqlite(upstash)).toEqual({ backend: 'upstash', sqlite: false });
    const local = { UPSTASH_REDIS_REST_URL: '', UPSTASH_REDIS_REST_TOKEN: '', LOCAL_STORE_DIR: folder };
    expect(loadsSqlite(local)).toEqual({ backend: 'none', sqlite: false });
    expect(loadsSqlite({ ...local, SITE_LOCAL_RUN: 'true' })).toEqual({ backend: 'embedded', sqlite: true });
  });
});

describe('the layout', () => {
  const database = () => new DatabaseSync(path.join(folder, DATABASE_FILE));
  /** What version 103 added: distinct_sets, and indexes to prune counters and tallies by. */
  const WITHOUT_LAYOUT_103 =
    'DROP INDEX distinct_sets_expiry; DROP TABLE distinct_sets; DROP INDEX counters_expiry; DROP INDEX tallies_expiry';

  /** The tables and indexes of a database, as SQLite keeps their definitions. */
  const layoutOf = (db: DatabaseSync) =>
    db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name').all();

  /** The folder's database is at this version, laid out as a new one (only this layout's tables, and as it makes them). */
  async function expectThisLayout(): Promise<void> {
    const newFolder = mkdtempSync(path.join(tmpdir(), 'store-sqlite-new-'));
    const made = createSqliteStore(newFolder);
    await made.countLeads();
    made.close();
    const migrated = database();
    const fresh = new DatabaseSync(path.join(newFolder, DATABASE_FILE), { readOnly: true });
    try {
      expect(migrated.prepare('PRAGMA user_version').get()).toEqual({ user_version: LAYOUT_VERSION });
      const tables = migrated.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
      expect(tables.map((table) => table.name)).toEqual([
        'counters',
        'distinct_members',
        'distinct_sets',
        'idx',
        'kv',
        'lists',
        'tallies',
      ]);
      expect(layoutOf(migrated)).toEqual(layoutOf(fresh));
    } finally {
      migrated.close();
      fresh.close();
      rmSync(newFolder, { recursive: true, force: true });
    }
  }

  test.each([0, 3] as const)(
    'a database of the earlier layout (version %i) keeps every record, count, session and outbox entry',
    async (version) => {
      const old = database();
      writeLegacyDatabase(old, version);
      old.close();

      const store = open();
      expect(
        (await store.listLeads({ offset: 0, limit: 10 })).map((lead) => [lead.name, lead.delivery?.length]),
      ).toEqual([
        ['Newer', 0],
        ['Grace', 2],
      ]);
      expect(await store.countLeads()).toBe(2);
      // Each on the day it came in, for the figures, which count them from these times.
      const { leads } = await store.createdBetween(Date.parse('2026-10-01'), Date.parse('2026-10-03'), 10);
      expect(leads.map((lead) => [lead.name, lead.createdAt])).toEqual([
        ['Grace', '2026-10-01T09:00:00.000Z'],
        ['Newer', '2026-10-02T09:00:00.000Z'],
      ]);
      expect(await store.getSubscriber('ada@example.com')).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });
      expect(await store.subscriberStatusCounts()).toEqual(
        version === 0
          ? { pending: 0, confirmed: 2, unsubscribed: 0, bounced: 0 }
          : { pending: 1, confirmed: 0, unsubscribed: 1, bounced: 0 },
      );
      expect(await store.honeypotCounts()).toEqual({ subscribers: 3 });
      // Its sessions were opened before sessions belonged to a password: the owner logs in again.
      expect(await store.hasSession('live-session', new Date(), 'any')).toBe(false);
      // The entry that was waiting is still due; the delivered one is listed.
      expect((await store.claimOutbox(new Date(), 10)).map(({ entry }) => entry.kind)).toEqual(['webhook']);
      expect(await store.countOutbox()).toEqual({ total: 2, pending: 1, dead: 0 });
      if (version === 3) expect((await store.spamOverview({ offset: 0, limit: 10 })).held).toBe(1);
      store.close();
      await expectThisLayout();
    },
  );

  test('a database of the first layout of these tables (version 100) keeps every record, index, list and mark', async () => {
    const old = database();
    writeFirstGenericDatabase(old);
    old.close();

    const store = open();
    expect((await store.listLeads({ offset: 0, limit: 10 })).map((lead) => [lead.name, lead.delivery?.length])).toEqual(
      [['Grace', 2]],
    );
    const { leads } = await store.createdBetween(Date.parse('2026-10-01'), Date.parse('2026-10-02'), 10);
    expect(leads.map((lead) => lead.id)).toEqual(['lead-1']);
    expect((await store.claimOutbox(new Date(), 10)).map(({ entry }) => entry.id)).toEqual(['entry-1']);
    const again = await store.createLead(
      { name: 'Grace', email: 'grace@example.com', source: 'zoho_guide' },
      new Date(),
      {
        idempotencyKey: 'key-1',
      },
    );
    expect(again).toMatchObject({ record: { id: 'lead-1' }, repeated: true });
    // The list kept its order.
    expect(await store.deleteLead('lead-1')).toEqual({ entries: ['entry-1', 'entry-2'] });
    store.close();
    await expectThisLayout();
  });

  test('a database of the layout before distinct sets (version 101) gains them and keeps every record', async () => {
    const first = open();
    await first.createLead({ name: 'Ada', email: 'ada@example.com', source: 'contact_form' }, new Date());
    first.close();
    const old = database();
    old.exec(`DROP INDEX distinct_members_expiry; DROP TABLE distinct_members; ${WITHOUT_LAYOUT_103};
      PRAGMA user_version = 101`);
    old.close();

    const store = open();
    expect((await store.listLeads({ offset: 0, limit: 10 })).map((lead) => lead.name)).toEqual(['Ada']);
    await store.recordView({ day: '2026-11-20', visitor: 'v', path: '/', source: 'Direct', device: 'phone' });
    expect((await store.visitDays(['2026-11-20'], '2000-01-01'))[0]?.visitors).toBe(1);
    store.close();
    await expectThisLayout();
  });

  test('a database of the layout that kept every visitor hash (version 102) counts them still, and forgets them within two days', async () => {
    const first = open();
    await first.recordView({ day: '2026-11-20', visitor: 'v', path: '/', source: 'Direct', device: 'phone' });
    first.close();
    const old = database();
    // As version 102 kept them: every member until its set expired, 25 months on.
    old.exec(`${WITHOUT_LAYOUT_103}; UPDATE distinct_members SET expires_at = ${Date.now() + VISITS_TTL_SECONDS * 1000};
      PRAGMA user_version = 102`);
    old.close();

    const store = open();
    const [day] = await store.visitDays(['2026-11-20'], '2000-01-01');
    expect(day).toMatchObject({ visitors: 1, pages: { '/': { views: 1, visitors: 1 } } });
    store.close();
    const db = database();
    try {
      const latest = db.prepare('SELECT max(expires_at) AS latest FROM distinct_members').get()?.latest;
      expect(latest).toBeLessThanOrEqual(Date.now() + SALT_TTL_MS);
    } finally {
      db.close();
    }
    await expectThisLayout();
  });

  test('expired marks are forgotten: later writes prune them', async () => {
    const store = open();
    const now = Date.now();
    for (let index = 0; index < 3; index += 1)
      await store.createLead({ name: 'A', email: 'a@example.com', source: 'contact_form' }, new Date(now), {
        challenge: { id: `challenge-${index}`, expiresAt: new Date(now + 50) },
      });
    // The clock moves past the marks' expiry instead of the test waiting for it: 50 ms from when
    // each was written (on a busy machine, well after `now`), so 100 ms from the last write.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 100 });
    try {
      await store.subscribe({ email: 'b@example.com', firstName: 'B', source: 'website_footer' }, new Date(), {
        challenge: { id: 'challenge-later', expiresAt: new Date(Date.now() + 180_000) },
      });
    } finally {
      vi.useRealTimers();
    }
    const db = database();
    try {
      expect(db.prepare("SELECT key FROM kv WHERE key LIKE 'challenge:spent:%'").all()).toEqual([
        { key: 'challenge:spent:challenge-later' },
      ]);
    } finally {
      db.close();
    }
  });
});

describe('what has expired goes with the next write', () => {
  const DAY = '2026-11-20';
  const view = { day: DAY, visitor: 'v', path: '/', source: 'Direct', device: 'phone' } as const;

  /** The rows a query finds in the folder's database. */
  function rows(sql: string) {
    const db = new DatabaseSync(path.join(folder, DATABASE_FILE), { readOnly: true });
    try {
      return db.prepare(sql).all();
    } finally {
      db.close();
    }
  }

  /** Runs `work` with the clock `ms` ahead: the time passes without the test waiting for it. */
  async function later<T>(ms: number, work: () => Promise<T>): Promise<T> {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + ms });
    try {
      return await work();
    } finally {
      vi.useRealTimers();
    }
  }

  test('rate windows and login attempts, once their window is over', async () => {
    const store = open();
    await store.recordView(view, { client: 'client-hash', perMinute: 10, visitorsPerMinute: 5 });
    await store.countLoginAttempt('login-hash', 15 * 60, new Date());
    expect(rows('SELECT key FROM tallies')).not.toEqual([]);
    await later(15 * 60_000 + 1, () => store.endAllSessions());
    expect(rows('SELECT key FROM tallies')).toEqual([]);
  });

  test("a day's visitor hashes, once its salt has gone; its figures still count them", async () => {
    const store = open();
    for (const visitor of ['a', 'b', 'c']) await store.recordView({ ...view, visitor, source: 'linkedin.com' });
    expect(rows("SELECT member FROM distinct_members WHERE member = 'a'")).toHaveLength(4);
    const [day] = await later(SALT_TTL_MS + 1, async () => {
      await store.endAllSessions();
      return store.visitDays([DAY], '2000-01-01');
    });
    expect(rows('SELECT member FROM distinct_members')).toEqual([]);
    expect(day).toMatchObject({
      visitors: 3,
      pages: { '/': { views: 3, visitors: 3 } },
      sources: { 'linkedin.com': { views: 3, visitors: 3 } },
      devices: { phone: { views: 3, visitors: 3 } },
    });
  });

  test("a day's tables and sets, once its 25 months are over", async () => {
    const store = open();
    await store.recordView(view);
    expect(rows('SELECT name FROM counters')).not.toEqual([]);
    await later(VISITS_TTL_SECONDS * 1000 + 1, () => store.endAllSessions());
    expect(rows('SELECT name FROM counters')).toEqual([]);
    expect(rows('SELECT name FROM distinct_sets')).toEqual([]);
    expect(rows("SELECT key FROM kv WHERE key LIKE 'visits:%'")).toEqual([]);
  });
});
