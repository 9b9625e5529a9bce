/**
 * A process that writes to the embedded SQLite store until it is killed, for the crash tests.
 *
 *   node tests/support/sqlite-writer.ts burst <folder>   subscriptions and leads in bursts; prints
 *                                                        `subscriber <email>` or `lead <id>` once
 *                                                        each write has resolved (acknowledged)
 *   node tests/support/sqlite-writer.ts hold <folder>    takes the write lock, writes a lead inside
 *                                                        an open transaction, prints `holding` and waits
 */
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import type * as SqliteModule from '../../functions/_lib/store/sqlite.ts';
import { importBundled } from '../../scripts/harness/functions.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const [mode, folder] = process.argv.slice(2);
if (!folder || (mode !== 'burst' && mode !== 'hold')) throw new Error('usage: sqlite-writer.ts burst|hold <folder>');

const { createSqliteStore, DATABASE_FILE } = await importBundled<typeof SqliteModule>(
  ROOT,
  'functions/_lib/store/sqlite.ts',
);
const store = createSqliteStore(folder);
// Opens the database (and creates it) before anything else happens.
await store.countLeads();

if (mode === 'hold') {
  const db = new DatabaseSync(path.join(folder, DATABASE_FILE));
  db.exec('BEGIN IMMEDIATE');
  db.prepare(
    "INSERT INTO leads (id, name, email, source, created_at, day) VALUES ('never-committed', 'Ghost', 'ghost@example.com', 'contact_form', '2026-01-01T00:00:00.000Z', '2026-01-01')",
  ).run();
  process.stdout.write('holding\n');
  // Keeps the process (and its lock) alive until it is killed.
  setInterval(() => undefined, 60_000);
} else {
  const now = new Date();
  // Stdout to a pipe is synchronous on Linux: a line printed is in the pipe before the next write starts.
  const acknowledge = (line: string) => process.stdout.write(`${line}\n`);
  for (let round = 0; round < 100_000; round += 1) {
    await Promise.all(
      Array.from({ length: 10 }, async (_, index) => {
        const number = round * 10 + index;
        if (index % 2 === 0) {
          const email = `burst${number}@example.com`;
          await store.subscribe({ email, firstName: `Burst ${number}`, source: 'website_footer' }, now);
          acknowledge(`subscriber ${email}`);
        } else {
          const lead = await store.createLead(
            { name: `Burst ${number}`, email: `lead${number}@example.com`, source: 'contact_form' },
            now,
          );
          acknowledge(`lead ${lead.id}`);
        }
      }),
    );
  }
}
