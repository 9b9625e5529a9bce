/** The owner's lead desk as the admin page calls it: the leads list, a lead's PATCH, and their answers. */
import { expect } from 'vitest';
import adminLeads from '../../functions/admin-leads';
import adminSpam from '../../functions/admin-spam';
import type { ApiErrorBody, LeadsPage } from '../../src/shared/api-responses';
import type { Lead } from '../../src/shared/records';
import { call, ORIGIN } from './admin-calls';
import type { Store } from './stores';

export const PASSWORD = 'a password for the lead desk';

/** The settings the desk's tests give a local run of the functions, besides the store's. */
export const DESK_ENV = {
  ADMIN_PASSWORD: PASSWORD,
  SESSION_SECRET: 'a session secret of at least thirty-two characters',
  // Concurrent PATCHes commit one after another; on a busy machine the last could wait past the
  // default 3 s bound and answer 503. What these tests check is that none is lost.
  STORE_TIMEOUT_MS: '30000',
};

/** PATCH /api/admin/leads/{id} as the admin page sends it, with its answer: the lead, or an error; `headers` add to or replace its own. */
export async function patchLead(
  cookie: string,
  id: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Partial<Lead> & Partial<ApiErrorBody> }> {
  const response = await call(adminLeads, `/api/admin/leads/${id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', origin: ORIGIN, cookie, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    params: { id },
  });
  return { status: response.status, body: (await response.json()) as Partial<Lead> & Partial<ApiErrorBody> };
}

/** GET /api/admin/leads with the query given, answering anything. */
export const getLeads = (cookie: string, query: string) =>
  call(adminLeads, `/api/admin/leads${query}`, { headers: { cookie } });

/** GET /api/admin/leads with the query given (already encoded), answering 200. */
export async function leadsPage(cookie: string, query = ''): Promise<LeadsPage> {
  const response = await getLeads(cookie, query);
  expect(response.status, `GET /api/admin/leads${query}`).toBe(200);
  return (await response.json()) as LeadsPage;
}

/** "Not spam" on a held lead (POST /api/admin/spam/{id}/release), as the admin page sends it: its status. */
export async function releaseLead(cookie: string, id: string): Promise<number> {
  const response = await call(adminSpam, `/api/admin/spam/${id}/release`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN, cookie },
    body: '{}',
    params: { id },
  });
  return response.status;
}

/** Stores a lead of the contact form at `at` (ms), as the form would. */
export async function leadAt(
  store: Store,
  at: number,
  fields: Partial<Pick<Lead, 'name' | 'email' | 'company' | 'source' | 'spam'>> = {},
): Promise<Lead> {
  const { record } = await store.createLead(
    { name: 'Ada Lovelace', email: `lead-${at}@example.com`, source: 'contact_form', ...fields },
    new Date(at),
  );
  return record;
}

/** The lead with this id as GET /api/admin/leads lists it (the first page holds it). */
export async function listedLead(cookie: string, id: string): Promise<Lead | undefined> {
  return (await leadsPage(cookie)).items.find((lead) => lead.id === id);
}
