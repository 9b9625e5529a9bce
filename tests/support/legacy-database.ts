/**
 * A database of the embedded store's earlier layout (a table per concern), as versions 0 and 3
 * of it left one, to open with today's store.
 */
import type { DatabaseSync } from 'node:sqlite';
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
  const waiting = entry('entry-1', 'webhook', 'pending', { channel: 'webhook', type: 'lead.created', body: '{}' });
  outbox.run(waiting.id, waiting.state, waiting.message, waiting.status, Date.parse(CREATED));
  const sent = entry('entry-2', 'lead-notification', 'delivered', {
    channel: 'mail',
    to: ['team@example.com'],
    subject: 'New lead: Grace',
    text: 'Hi',
    html: '<p>Hi</p>',
  });
  outbox.run(sent.id, sent.state, sent.message, sent.status, null);
  if (version < 3) return;
  db.exec(`UPDATE subscribers SET status = 'pending' WHERE email = 'ada@example.com';
    UPDATE subscribers SET status = 'unsubscribed' WHERE email = 'n@example.com';`);
  db.prepare(
    'INSERT INTO leads (id, name, email, source, created_at, day, held, spam) VALUES (?, ?, ?, ?, ?, ?, 1, ?)',
  ).run('lead-3', 'Spammy', 'spam@example.com', 'contact_form', CREATED, '2026-10-01', '{"reasons":["Akismet: spam"]}');
}
