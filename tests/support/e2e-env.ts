/** Where the e2e servers run and keep their data; shared by playwright.config.ts and the specs. */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSqliteStore, type Store } from './stores';
import type { Lead, Subscriber } from '../../src/shared/records';

/** How the folders of the runs' stores begin; the teardown removes only such a folder. */
export const E2E_STORE_PREFIX = 'e2e-store-';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 4399);
/** A second server whose store is unreachable, so that failures come from a real server. */
export const E2E_BROKEN_PORT = E2E_PORT - 1;
/**
 * The embedded store of this run: a folder of its own, so nothing a run leaves (records, a failed
 * login counted against the loopback address) reaches the next. The runner loads this module
 * first and names the folder in the environment, which its workers inherit; the store makes it
 * when the server first writes, so a run whose servers never start leaves nothing behind, and the
 * global teardown removes it (tests/support/e2e-teardown.ts).
 */
export const E2E_STORE_DIR = (process.env.E2E_STORE_DIR ??= path.join(
  tmpdir(),
  `${E2E_STORE_PREFIX}${process.pid}-${randomUUID()}`,
));

/**
 * Proofs of work at a hundredth of the live site's cost: the forms solve one for every submission,
 * by the same steps (functions/_lib/forms/signed-challenges.ts). The runner's environment is its
 * servers' and its workers'.
 */
process.env.LOCAL_PROOF_OF_WORK_COST ??= '50';

/** The admin login of the main e2e server (local plain-password mode). */
export const E2E_ADMIN_PASSWORD = 'e2e admin password 4f9c';
export const E2E_SESSION_SECRET = 'e2e-session-secret-0123456789abcdef0123';

export const brokenOrigin = `http://localhost:${E2E_BROKEN_PORT}`;
export const e2eOrigin = `http://localhost:${E2E_PORT}`;

/** Runs something against the embedded store in `folder` (a spec's own server's), closing it afterwards. */
export async function withStoreAt<T>(folder: string, work: (store: Store) => Promise<T>): Promise<T> {
  const store = createSqliteStore(folder);
  try {
    return await work(store);
  } finally {
    store.close();
  }
}

/** Reads the e2e server's embedded store through the store itself, as it is right now. */
function readE2EStore<T>(read: (store: Store) => Promise<T>): Promise<T> {
  return withStoreAt(E2E_STORE_DIR, read);
}

export function storedSubscriber(email: string): Promise<Subscriber | undefined> {
  return readE2EStore((store) => store.getSubscriber(email));
}

/** The leads from an address, newest first (each test uses addresses of its own). */
export function storedLeads(email: string): Promise<Lead[]> {
  return readE2EStore(async (store) =>
    (await store.listLeads({ offset: 0, limit: 1000 })).filter((lead) => lead.email === email),
  );
}

export async function storedLead(email: string): Promise<Lead | undefined> {
  return (await storedLeads(email))[0];
}

/** Erases a subscriber, as an erasure request from the admin page does; true when there was one. */
export function eraseSubscriber(email: string): Promise<boolean> {
  return readE2EStore(async (store) => (await store.deleteSubscriber(email)) !== undefined);
}

/** Marks a subscriber bounced, as a permanent refusal of a newsletter e-mail to them does. */
export function bounceSubscriber(email: string): Promise<void> {
  return readE2EStore(async (store) => {
    await store.markBounced(email, new Date(), 'SMTP 550 5.1.1 Mailbox unavailable');
  });
}

/** An address no other test uses. */
export function uniqueEmail(label: string): string {
  return `${label}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 8)}@example.com`;
}
