/** Where the e2e servers run and keep their data; shared by playwright.config.ts and the specs. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSqliteStore } from '../../functions/_lib/store/sqlite';
import type { Store } from '../../functions/_lib/store/types';
import type { Lead, Subscriber } from '../../src/shared/records';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export const E2E_PORT = Number(process.env.E2E_PORT ?? 4399);
/** A second server whose store is unreachable, so that failures come from a real server. */
export const E2E_BROKEN_PORT = E2E_PORT - 1;
export const E2E_STORE_DIR = path.join(ROOT, '.data', 'e2e-store');

/** The admin login of the main e2e server (local plain-password mode). */
export const E2E_ADMIN_PASSWORD = 'e2e admin password 4f9c';
export const E2E_SESSION_SECRET = 'e2e-session-secret-0123456789abcdef0123';

export const brokenOrigin = `http://localhost:${E2E_BROKEN_PORT}`;

/** Reads the e2e server's embedded store through the store itself, as it is right now. */
async function readE2EStore<T>(read: (store: Store) => Promise<T>): Promise<T> {
  const store = createSqliteStore(E2E_STORE_DIR);
  try {
    return await read(store);
  } finally {
    store.close();
  }
}

export function storedSubscriber(email: string): Promise<Subscriber | undefined> {
  return readE2EStore((store) => store.getSubscriber(email));
}

/** The leads from an address, newest first (each test uses addresses of its own). */
export function storedLeads(email: string): Promise<Lead[]> {
  return readE2EStore(async (store) => (await store.listLeads({ offset: 0, limit: 1000 })).filter((lead) => lead.email === email));
}

export async function storedLead(email: string): Promise<Lead | undefined> {
  return (await storedLeads(email))[0];
}

/** An address no other test uses. */
export function uniqueEmail(label: string): string {
  return `${label}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 8)}@example.com`;
}
