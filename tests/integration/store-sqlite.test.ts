/**
 * What only the embedded SQLite store has to prove (the shared contract is in store-contract):
 * the old JSON store file is imported once and never harms the data, a process killed in the
 * middle of writing loses no write it had acknowledged and leaves no lock behind, a database of
 * an older schema is migrated, and spent challenges do not pile up.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  createSqliteStore,
  DATABASE_FILE,
  IMPORTED_SUFFIX,
  LEGACY_FILE,
  type SqliteStore,
} from '../../functions/_lib/store/sqlite';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let folder: string;
const opened: SqliteStore[] = [];
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

const legacyFile = () => path.join(folder, LEGACY_FILE);
const FUTURE = new Date(Date.now() + 3_600_000).toISOString();

/** A file as the old embedded store wrote it. */
const OLD_STORE = {
  subscribers: {
    'ada@example.com': {
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      sources: ['website_footer', 'newsletter_footer'],
      createdAt: '2026-10-01T08:00:00.000Z',
      updatedAt: '2026-10-03T08:00:00.000Z',
    },
    'n@example.com': {
      email: 'n@example.com',
      firstName: '1234',
      sources: ['newsletter_footer'],
      createdAt: '2026-10-02T08:00:00.000Z',
      updatedAt: '2026-10-02T08:00:00.000Z',
    },
  },
  leads: [
    {
      id: 'lead-1',
      name: 'Grace',
      email: 'grace@example.com',
      source: 'zoho_guide',
      notes: 'Guide',
      createdAt: '2026-10-01T09:00:00.000Z',
    },
    {
      id: 'lead-2',
      name: 'null',
      email: 'null@example.com',
      company: 'Acme',
      source: 'contact_form',
      createdAt: '2026-10-02T09:00:00.000Z',
    },
  ],
  honeypot: { subscribers: 3 },
  sessions: { 'live-session': FUTURE, 'old-session': '2020-01-01T00:00:00.000Z' },
  loginFailures: { '203.0.113.1': { count: 2, resetAt: 0 } },
};

describe('the old store file', () => {
  test('is imported on first open: every record readable, then set aside', async () => {
    writeFileSync(legacyFile(), JSON.stringify(OLD_STORE));
    const store = open();
    // Subscribers from before double opt-in count as confirmed, with the consent the old record shows.
    const imported = (subscriber: { createdAt: string; sources: string[] }) => ({
      ...subscriber,
      status: 'confirmed',
      consent: { subscribedAt: subscriber.createdAt, form: subscriber.sources[0] },
    });
    const [ada, n] = [OLD_STORE.subscribers['ada@example.com'], OLD_STORE.subscribers['n@example.com']];
    if (!ada || !n) throw new Error('the fixture lost its subscribers');
    expect(await store.getSubscriber('ada@example.com')).toEqual(imported(ada));
    expect(await store.getSubscriber('n@example.com')).toEqual(imported(n));
    expect(await store.listLeads({ offset: 0, limit: 10 })).toEqual(
      [OLD_STORE.leads[1], OLD_STORE.leads[0]].map((lead) => ({ ...lead, delivery: [] })),
    );
    expect(await store.listSubscribers({ offset: 0, limit: 10 })).toEqual([imported(n), imported(ada)]);
    expect(await store.dailyCounts('leads', ['2026-10-01', '2026-10-02'])).toEqual({
      '2026-10-01': { zoho_guide: 1 },
      '2026-10-02': { contact_form: 1 },
    });
    expect(await store.honeypotCounts()).toEqual({ subscribers: 3 });
    expect(await store.hasSession('live-session', new Date())).toBe(true);
    expect(await store.hasSession('old-session', new Date('2019-01-01'))).toBe(false);
    expect(existsSync(legacyFile())).toBe(false);
    expect(JSON.parse(readFileSync(`${legacyFile()}${IMPORTED_SUFFIX}`, 'utf8'))).toEqual(OLD_STORE);
  });

  test('is imported once: reopening, or the same file put back, adds nothing', async () => {
    writeFileSync(legacyFile(), JSON.stringify(OLD_STORE));
    const first = open();
    await first.recordHoneypot('subscribers', new Date());
    expect(await first.countLeads()).toBe(2);

    const reopened = open();
    expect(await reopened.countLeads()).toBe(2);
    writeFileSync(legacyFile(), JSON.stringify(OLD_STORE));
    const again = open();
    expect(await again.countLeads()).toBe(2);
    expect(await again.countSubscribers()).toBe(2);
    expect(await again.honeypotCounts()).toEqual({ subscribers: 4 });
    expect(existsSync(legacyFile())).toBe(false);
  });

  test.each([
    ['null', 'null'],
    ['an array', '[]'],
    ['a string', '"store"'],
    ['not JSON', '{"subscribers": '],
    ['subscribers as a list', JSON.stringify({ subscribers: [], leads: [] })],
    ['leads as an object', JSON.stringify({ subscribers: {}, leads: {} })],
  ])('of the wrong shape (%s) changes nothing and is left where it is', async (_label, content) => {
    const store = open();
    await store.subscribe({ email: 'kept@example.com', firstName: 'Kept', source: 'website_footer' }, new Date());
    await store.createSession('kept-session', new Date(Date.now() + 60_000));
    writeFileSync(legacyFile(), content);

    const reopened = open();
    expect(await reopened.countSubscribers()).toBe(1);
    expect(await reopened.hasSession('kept-session', new Date())).toBe(true);
    await reopened.subscribe({ email: 'next@example.com', firstName: 'Next', source: 'website_footer' }, new Date());
    expect(await reopened.countSubscribers()).toBe(2);
    expect(readFileSync(legacyFile(), 'utf8')).toBe(content);
  });

  test('with a malformed record imports every other record', async () => {
    const broken = {
      ...OLD_STORE,
      leads: [...OLD_STORE.leads, { id: 'lead-3', name: 42 }, null],
      subscribers: { ...OLD_STORE.subscribers, 'bad@example.com': { email: 'bad@example.com' } },
    };
    writeFileSync(legacyFile(), JSON.stringify(broken));
    const store = open();
    expect(await store.countLeads()).toBe(2);
    expect(await store.countSubscribers()).toBe(2);
    expect((await store.listLeads({ offset: 0, limit: 10 })).map((lead) => lead.id)).toEqual(['lead-2', 'lead-1']);
  });
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
    const lead = await store.createLead(
      { name: 'After', email: 'after@example.com', source: 'contact_form' },
      new Date(),
    );
    expect(await store.listLeads({ offset: 0, limit: 10 })).toEqual([{ ...lead, delivery: [] }]);
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

describe('the schema', () => {
  const database = () => new DatabaseSync(path.join(folder, DATABASE_FILE));

  test('a database from before held spam leads and throttled e-mails is migrated: its leads stay listed and counted', async () => {
    const store = open();
    const lead = await store.createLead({ name: 'Old', email: 'old@example.com', source: 'contact_form' }, new Date());
    store.close();
    // Back to the shape of version 1: no held, spam or content_check column, no challenge tables.
    const db = database();
    db.exec(`DROP INDEX leads_newest; DROP INDEX leads_by_day; DROP INDEX leads_by_campaign;
      ALTER TABLE leads DROP COLUMN held; ALTER TABLE leads DROP COLUMN spam; ALTER TABLE leads DROP COLUMN content_check;
      CREATE INDEX leads_newest ON leads (created_at DESC, seq DESC); CREATE INDEX leads_by_day ON leads (day, source);
      DROP TABLE spent_challenges; DROP TABLE challenge_failures; DROP TABLE outbox_throttle;
      PRAGMA user_version = 1;`);
    db.close();

    const reopened = open();
    expect(await reopened.listLeads({ offset: 0, limit: 10 })).toEqual([{ ...lead, delivery: [] }]);
    expect(await reopened.countLeads()).toBe(1);
    await reopened.createLead(
      { name: 'Spam', email: 'spam@example.com', source: 'contact_form', spam: { reasons: ['Akismet: spam'] } },
      new Date(),
    );
    await reopened.recordChallengeFailure('leads-create', new Date());
    expect(await reopened.spamOverview({ offset: 0, limit: 10 })).toMatchObject({
      held: 1,
      challengeFailures: { 'leads-create': 1 },
    });
    reopened.close();
    const migrated = database();
    try {
      expect(migrated.prepare('PRAGMA user_version').get()).toEqual({ user_version: 3 });
      const indexes = migrated
        .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'leads' AND sql IS NOT NULL")
        .all();
      for (const name of ['leads_newest', 'leads_by_day', 'leads_by_campaign'])
        expect(indexes.find((index) => index.name === name)?.sql).toContain('held');
    } finally {
      migrated.close();
    }
  });

  test('spent challenges are forgotten once they expire: later writes prune them', async () => {
    const store = open();
    const now = Date.now();
    for (let index = 0; index < 3; index += 1)
      await store.createLead({ name: 'A', email: 'a@example.com', source: 'contact_form' }, new Date(now), {
        challenge: { id: `challenge-${index}`, expiresAt: new Date(now + 60_000) },
      });
    await store.subscribe(
      { email: 'b@example.com', firstName: 'B', source: 'website_footer' },
      new Date(now + 120_000),
      {
        challenge: { id: 'challenge-later', expiresAt: new Date(now + 180_000) },
      },
    );
    const db = database();
    try {
      expect(db.prepare('SELECT id FROM spent_challenges').all()).toEqual([{ id: 'challenge-later' }]);
    } finally {
      db.close();
    }
  });
});
