/**
 * Databases of the embedded store's earlier layouts, to open with today's store: a table per
 * concern, as versions 0 and 3 of it left one, and today's tables as version 100 laid them out.
 */
import type { DatabaseSync } from 'node:sqlite';
import { KEYS } from '../../functions/_lib/store/keys';
import { LEGACY_MIGRATIONS, LEGACY_SCHEMA } from '../../functions/_lib/store/sqlite/legacy';

const LATER = Date.now() + 3_600_000;
const CREATED = '2026-10-01T09:00:00.000Z';

/** An outbox entry's state and message as the earlier layout kept them. */
const entry = (id: string, kind: string, status: string, message: object) => ({
  id,
  state: JSON.stringify({
    id,
    kind,
    ref: 'lead-1',
    to: 'team@example.com',
    status,
    attempts: status === 'delivered' ? 1 : 0,
    createdAt: CREATED,
    ...(status === 'pending' ? { nextAttemptAt: CREATED } : { deliveredAt: CREATED, via: 'smtp' }),
    expiresAt: new Date(LATER).toISOString(),
  }),
  message: JSON.stringify(message),
  status,
});

/** Lead 1's entries: a webhook waiting, an e-mail delivered. */
const waiting = entry('entry-1', 'webhook', 'pending', { channel: 'webhook', type: 'lead.created', body: '{}' });
const sent = entry('entry-2', 'lead-notification', 'delivered', {
  channel: 'mail',
  to: ['team@example.com'],
  subject: 'New lead: Grace',
  text: 'Hi',
  html: '<p>Hi</p>',
});

/** Creates the tables of a version of the earlier layout and fills them. */
export function writeLegacyDatabase(db: DatabaseSync, version: 0 | 3): void {
  db.exec(LEGACY_SCHEMA);
  for (const sql of LEGACY_MIGRATIONS.slice(0, version)) db.exec(sql);
  db.exec(`PRAGMA user_version = ${version}`);
  const subscriber = db.prepare(
    'INSERT INTO subscribers (email, first_name, last_name, sources, first_source, created_at, updated_at, day) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  subscriber.run(
    'ada@example.com',
    'Ada',
    'Lovelace',
    '["website_footer","newsletter_footer"]',
    'website_footer',
    CREATED,
    CREATED,
    '2026-10-01',
  );
  subscriber.run(
    'n@example.com',
    '1234',
    null,
    '["newsletter_footer"]',
    'newsletter_footer',
    CREATED,
    CREATED,
    '2026-10-01',
  );
  const lead = db.prepare(
    'INSERT INTO leads (id, name, email, source, notes, created_at, day) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  lead.run('lead-1', 'Grace', 'grace@example.com', 'zoho_guide', 'Guide', CREATED, '2026-10-01');
  lead.run('lead-2', 'Newer', 'newer@example.com', 'contact_form', null, '2026-10-02T09:00:00.000Z', '2026-10-02');
  db.prepare("INSERT INTO honeypot (endpoint, count) VALUES ('subscribers', 3)").run();
  const session = db.prepare('INSERT INTO sessions (id, expires_at) VALUES (?, ?)');
  session.run('live-session', LATER);
  session.run('old-session', Date.parse('2020-01-01T00:00:00.000Z'));
  const outbox = db.prepare(
    "INSERT INTO outbox (id, ref, state, message, status, due_at) VALUES (?, 'lead-1', ?, ?, ?, ?)",
  );
  outbox.run(waiting.id, waiting.state, waiting.message, waiting.status, Date.parse(CREATED));
  outbox.run(sent.id, sent.state, sent.message, sent.status, null);
  if (version < 3) return;
  db.exec(`UPDATE subscribers SET status = 'pending' WHERE email = 'ada@example.com';
    UPDATE subscribers SET status = 'unsubscribed' WHERE email = 'n@example.com';`);
  db.prepare(
    'INSERT INTO leads (id, name, email, source, created_at, day, held, spam) VALUES (?, ?, ?, ?, ?, ?, 1, ?)',
  ).run('lead-3', 'Spammy', 'spam@example.com', 'contact_form', CREATED, '2026-10-01', '{"reasons":["Akismet: spam"]}');
}

/** Today's tables as version 100 created them. */
const FIRST_GENERIC_SCHEMA = `
CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at INTEGER) WITHOUT ROWID;
CREATE INDEX kv_expiry ON kv (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE idx (name TEXT NOT NULL, member TEXT NOT NULL, score INTEGER NOT NULL,
  PRIMARY KEY (name, member)) WITHOUT ROWID;
CREATE INDEX idx_by_score ON idx (name, score, member);
CREATE TABLE lists (seq INTEGER PRIMARY KEY, name TEXT NOT NULL, member TEXT NOT NULL);
CREATE INDEX lists_by_name ON lists (name, seq);
CREATE TABLE counters (name TEXT NOT NULL, field TEXT NOT NULL, value INTEGER NOT NULL,
  expires_at INTEGER, PRIMARY KEY (name, field)) WITHOUT ROWID;
CREATE TABLE tallies (key TEXT PRIMARY KEY, count INTEGER NOT NULL, reset_at INTEGER NOT NULL);
PRAGMA user_version = 100;
`;

/**
 * A database of version 100: lead 1 with its two entries, its count per day and form (a counter
 * the store no longer reads, left where it is), and the idempotency key `key-1` that stored it.
 */
export function writeFirstGenericDatabase(db: DatabaseSync): void {
  db.exec(FIRST_GENERIC_SCHEMA);
  const put = db.prepare('INSERT INTO kv (key, value, expires_at) VALUES (?, ?, ?)');
  const lead = { id: 'lead-1', name: 'Grace', email: 'grace@example.com', source: 'zoho_guide', createdAt: CREATED };
  put.run(KEYS.lead(lead.id), JSON.stringify(lead), null);
  put.run(KEYS.idempotency('key-1'), JSON.stringify({ ref: lead.id }), LATER);
  const index = db.prepare('INSERT INTO idx (name, member, score) VALUES (?, ?, ?)');
  index.run(KEYS.leadsByCreated, lead.id, Date.parse(CREATED));
  const append = db.prepare('INSERT INTO lists (name, member) VALUES (?, ?)');
  for (const made of [waiting, sent]) {
    put.run(KEYS.outboxState(made.id), made.state, null);
    put.run(KEYS.outboxMessage(made.id), made.message, null);
    index.run(KEYS.outboxAll, made.id, Date.parse(CREATED));
    append.run(KEYS.outboxOf(lead.id), made.id);
  }
  index.run(KEYS.outboxDue, waiting.id, Date.parse(CREATED));
  db.prepare('INSERT INTO counters (name, field, value) VALUES (?, ?, 1)').run('stats:leads:2026-10-01', lead.source);
}
