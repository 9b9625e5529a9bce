/** Where the e2e servers run and keep their data; shared by playwright.config.ts and the specs. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export const E2E_PORT = Number(process.env.E2E_PORT ?? 4399);
/** A second server whose store is unreachable, so that failures come from a real server. */
export const E2E_BROKEN_PORT = E2E_PORT - 1;
export const E2E_STORE_DIR = path.join(ROOT, '.data', 'e2e-store');

/** The admin login of the main e2e server (local plain-password mode). */
export const E2E_ADMIN_PASSWORD = 'e2e admin password 4f9c';
export const E2E_SESSION_SECRET = 'e2e-session-secret-0123456789abcdef0123';

export const brokenOrigin = `http://localhost:${E2E_BROKEN_PORT}`;

interface StoredData {
  subscribers: Record<string, { email: string; firstName: string; lastName?: string; sources: string[] }>;
  leads: { name: string; email: string; source: string; company?: string; notes?: string }[];
}

/** What the e2e server's embedded store holds right now. */
export function readE2EStore(): StoredData {
  try {
    return JSON.parse(readFileSync(path.join(E2E_STORE_DIR, 'store.json'), 'utf8')) as StoredData;
  } catch {
    return { subscribers: {}, leads: [] };
  }
}

/** An address no other test uses. */
export function uniqueEmail(label: string): string {
  return `${label}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 8)}@example.com`;
}
