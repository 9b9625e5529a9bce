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
import type * as StoresModule from './stores.ts';
import type * as DatabaseModule from '../../functions/_lib/store/sqlite/database.ts';
import { importBundled } from '../../scripts/harness/functions.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const [mode, folder] = process.argv.slice(2);
if (!folder || (mode !== 'burst' && mode !== 'hold')) throw new Error('usage: sqlite-writer.ts burst|hold <folder>');

const { createSqliteStore } = await importBundled<typeof StoresModule>(ROOT, 'tests/support/stores.ts');
const { DATABASE_FILE } = await importBundled<typeof DatabaseModule>(ROOT, 'functions/_lib/store/sqlite/database.ts');
const store = createSqliteStore(folder);
// Opens the database (and creates it) before anything else happens.
await store.countLeads();

if (mode === 'hold') {
  const db = new DatabaseSync(path.join(folder, DATABASE_FILE));
  db.exec('BEGIN IMMEDIATE');
  db.exec("INSERT INTO kv (key, value) VALUES ('lead:never-committed', '{}')");
  db.exec("INSERT INTO idx (name, member, score) VALUES ('leads:by_created', 'never-committed', 0)");
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
          const { record: lead } = await store.createLead(
            { name: `Burst ${number}`, email: `lead${number}@example.com`, source: 'contact_form' },
            now,
          );
          acknowledge(`lead ${lead.id}`);
        }
      }),
    );
  }
}
