// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/** Where a lead stands, and the writes that list and count it: shared by leads, bookings and spam. */
import type { Lead, LeadStatus } from '../../../src/shared/records';
import type { Write } from './backend-contract';
import { KEYS } from './keys';

/** Whether a lead is held as spam: judged spam and not (yet) released by the owner. */
export function isHeld(lead: Pick<Lead, 'spam'>): boolean {
  return lead.spam !== undefined && lead.spam.releasedAt === undefined;
}

/** Where the owner is with a lead: one nobody has marked is `new`. */
export const statusOf = (lead: Pick<Lead, 'status'>): LeadStatus => lead.status ?? 'new';

/**
 * The count of a listed lead's status, one more (by 1) or one fewer (by -1). `new` is not kept
 * (KEYS.leadStatuses): it is what the other statuses leave, so a new lead counts nothing.
 */
export function statusCounted(lead: Pick<Lead, 'status'>, by: 1 | -1): Write[] {
  const status = statusOf(lead);
  return status === 'new' ? [] : [{ op: 'count', key: KEYS.leadStatuses, field: status, by }];
}

/** The writes that list and count a lead that is not held (a new one, or one released). */
export function listed(lead: Lead): Write[] {
  return [
    { op: 'index', key: KEYS.leadsByCreated, member: lead.id, score: Date.parse(lead.createdAt) },
    // A held lead cannot be marked (updateLead), so a released one is new: kept for the rule's sake.
    ...statusCounted(lead, 1),
  ];
}

/** The writes that take a listed lead out of the list and out of every count listed() put it in. */
export function unlisted(lead: Lead): Write[] {
  return [{ op: 'unindex', key: KEYS.leadsByCreated, member: lead.id }, ...statusCounted(lead, -1)];
}
