// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/** The Leads list's filters: which leads a filter keeps, the bounded scan that finds them, and the counts per status. */
import type { LeadStatusCounts } from '../../../src/shared/api-responses';
import type { Lead } from '../../../src/shared/records';
import { parse, type Backend } from './backend-contract';
import { KEYS } from './keys';
import { statusOf } from './lead-lists';
import type { LeadFilter } from './types';

/**
 * How many leads, newest first, a filtered list or count reads at most. No index holds a lead's
 * name, e-mail, company, form or status, so a filter reads the records themselves: it looks
 * through the newest 20,000 leads (as the Visits report reads at most MAX_RECORDS) and finds
 * nothing older, which keeps the slowest search within the admin's deadline. A status's total
 * comes from its count (leadStatusCounts), which knows every lead.
 */
export const MAX_SCANNED = 20_000;

/**
 * A scan reads FIRST_CHUNK leads, then twice as many at each step up to LARGEST_CHUNK: the first
 * page of a common filter costs one small read, a rare one few round trips.
 */
const FIRST_CHUNK = 100;
const LARGEST_CHUNK = 1_000;

/** The filter's fields that narrow the list (an empty text narrows nothing), or undefined when none does. */
export function narrowing(filter: LeadFilter | undefined): LeadFilter | undefined {
  const { q, status, form } = filter ?? {};
  const kept: LeadFilter = {
    ...(q ? { q } : {}),
    ...(status ? { status } : {}),
    ...(form ? { form } : {}),
  };
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/** Whether the filter narrows by status alone: its total is that status's count, with no scan. */
export const statusOnly = (filter: LeadFilter): filter is { status: NonNullable<LeadFilter['status']> } =>
  filter.status !== undefined && filter.q === undefined && filter.form === undefined;

/** The test a filter puts each lead to: every field given must hold. */
export function matcher({ q, status, form }: LeadFilter): (lead: Lead) => boolean {
  // toLowerCase, not toLocaleLowerCase: the same answer whatever the server's locale.
  const needle = q?.toLowerCase();
  return (lead) =>
    (status === undefined || statusOf(lead) === status) &&
    (form === undefined || lead.source === form) &&
    (!needle || [lead.name, lead.email, lead.company].some((value) => value?.toLowerCase().includes(needle)));
}

/** Listed leads in each status, from their count and the leads' total (see KEYS.leadStatuses). */
export function statusCounts(total: number, counted: Record<string, number>): LeadStatusCounts {
  const marked = {
    replied: counted.replied ?? 0,
    booked: counted.booked ?? 0,
    won: counted.won ?? 0,
    lost: counted.lost ?? 0,
  };
  const others = Object.values(marked).reduce((sum, count) => sum + count, 0);
  // The total and the counts are two reads: one taken while a marked lead is erased may be one off
  // for that moment, never below nothing.
  return { new: Math.max(0, total - others), ...marked };
}

/** Listed leads in each status. */
export async function leadStatusCounts(backend: Backend): Promise<LeadStatusCounts> {
  const [total, counted] = await Promise.all([backend.size(KEYS.leadsByCreated), backend.counters(KEYS.leadStatuses)]);
  return statusCounts(total, counted);
}

export interface Scan {
  /** Matches to pass over before the first one kept (a page's offset). */
  skip: number;
  /** Matches to keep at most (a page's size); 0 to count only. */
  take: number;
  /** Whether every match must be counted (a total), rather than stopping once `take` are kept. */
  countAll: boolean;
  /** How many leads match at most, when a count says so: the scan stops once it found them all. */
  known?: number;
}

/**
 * The listed leads `keep` keeps, newest first among the newest MAX_SCANNED: the page `skip` and
 * `take` ask for, and how many matched. It reads the index and the records a chunk at a time and
 * stops as soon as it has what it was asked for.
 */
export async function scanLeads(
  backend: Backend,
  keep: (lead: Lead) => boolean,
  { skip, take, countAll, known = Infinity }: Scan,
): Promise<{ leads: Lead[]; matched: number }> {
  const leads: Lead[] = [];
  // Ranks move while a scan runs: a lead that arrives meanwhile pushes the next chunk down by one,
  // and the lead already read comes again at its start.
  const seen = new Set<string>();
  let matched = 0;
  let chunk = FIRST_CHUNK;
  for (let offset = 0; offset < MAX_SCANNED && matched < known && (countAll || leads.length < take);) {
    const limit = Math.min(chunk, MAX_SCANNED - offset);
    const ids = await backend.members(KEYS.leadsByCreated, { offset, limit, highestFirst: true });
    const unseen = ids.filter((id) => !seen.has(id));
    for (const id of unseen) seen.add(id);
    for (const value of await backend.get(unseen.map(KEYS.lead))) {
      const lead = parse<Lead>(value);
      if (!lead || !keep(lead)) continue;
      matched += 1;
      if (matched > skip && leads.length < take) leads.push(lead);
    }
    // A short chunk is the end of the index.
    if (ids.length < limit) break;
    offset += limit;
    chunk = Math.min(2 * chunk, LARGEST_CHUNK);
  }
  return { leads, matched };
}
