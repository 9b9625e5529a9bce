// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/** Leads: a new one with its deliveries (or held as spam), and an erasure. */
import type { Lead } from '../../../src/shared/records';
import { parse, parsed, transact, type Backend, type Write } from './backend-contract';
import { counted } from './counting';
import { KEYS } from './keys';
import { forgetEntries, queue, queueKeys } from './outbox';
import { admit, submissionKeys } from './submissions';
import type { LeadInput, LeadResult, QueueOptions, WriteOptions } from './types';

/** Whether a lead is held as spam: judged spam and not (yet) released by the owner. */
export function isHeld(lead: Pick<Lead, 'spam'>): boolean {
  return lead.spam !== undefined && lead.spam.releasedAt === undefined;
}

/** A lead with its optional fields present only when they hold something. */
function leadOf(input: LeadInput, id: string, now: Date): Lead {
  const lead: Lead = { id, name: input.name, email: input.email, source: input.source, createdAt: now.toISOString() };
  for (const field of ['emailAscii', 'company', 'notes', 'page', 'attribution', 'spam', 'contentCheck'] as const)
    if (input[field] !== undefined) Object.assign(lead, { [field]: input[field] });
  return lead;
}

/** The writes that list and count a lead that is not held (a new one, or one released). */
export function listed(lead: Lead): Write[] {
  return [
    { op: 'index', key: KEYS.leadsByCreated, member: lead.id, score: Date.parse(lead.createdAt) },
    ...counted('leads', lead, 1),
  ];
}

export function leadVerbs(backend: Backend) {
  return {
    /**
     * Appends a lead with the entries of `options.outbox`; with a key seen before, appends nothing
     * and gives back the first lead. A lead whose input holds a `spam` mark is held: it is kept and
     * listed by spamOverview() only (not in listLeads, countLeads, the per-day or campaign counts
     * or the dashboard's leads) and nothing is queued for it.
     */
    createLead(input: LeadInput, now: Date, options: WriteOptions & QueueOptions<Lead> = {}): Promise<LeadResult> {
      const lead = leadOf(input, crypto.randomUUID(), now);
      const key = KEYS.lead(lead.id);
      const held = isHeld(lead);
      // A held lead queues nothing: its e-mails and webhook wait for the owner's "Not spam".
      const outbox = held ? () => [] : (options.outbox ?? (() => []));
      return transact<LeadResult>(backend, {
        keys: [key, ...submissionKeys(options), ...queueKeys(outbox(lead))],
        assumeAbsent: true,
        plan(values) {
          const admitted = admit(values, options, lead.id, now);
          if ('repeatOf' in admitted) {
            const first = KEYS.lead(admitted.repeatOf);
            if (!values.has(first)) return { needs: [first] };
            // The first lead, or, when the owner has erased it since, the one not stored again.
            return { result: { record: parsed<Lead>(values, first) ?? lead, queued: [], repeated: true } };
          }
          const queuing = queue(outbox(lead), values, now);
          if ('needs' in queuing) return queuing;
          const { writes, queued } = queuing;
          return {
            writes: [
              ...admitted.writes,
              { op: 'put', key, value: JSON.stringify(lead) },
              ...(held
                ? [{ op: 'index', key: KEYS.leadsHeld, member: lead.id, score: now.getTime() } satisfies Write]
                : listed(lead)),
              ...writes,
            ],
            result: { record: lead, queued, repeated: false },
          };
        },
      });
    },

    /**
     * Erases a lead, held or not, with its outbox entries (an erasure request, or a lead the owner
     * does not want kept), atomically; it leaves every list and count. A
     * form submission repeated with the erased lead's idempotency key stores nothing again. Answers the
     * ids of its entries (whose local copies go too), or undefined when there was none.
     */
    deleteLead(id: string): Promise<{ entries: string[] } | undefined> {
      const key = KEYS.lead(id);
      const entries = KEYS.outboxOf(id);
      return transact<{ entries: string[] } | undefined>(backend, {
        keys: [key],
        lists: [entries],
        plan(values, lists) {
          const lead = parse<Lead>(values.get(key));
          if (!lead) return { result: undefined };
          const ids = [...(lists.get(entries) ?? [])];
          const writes: Write[] = [
            { op: 'del', key },
            ...(isHeld(lead)
              ? [{ op: 'unindex', key: KEYS.leadsHeld, member: id } satisfies Write]
              : [
                  { op: 'unindex', key: KEYS.leadsByCreated, member: id } satisfies Write,
                  ...counted('leads', lead, -1),
                ]),
            ...forgetEntries(id, ids),
          ];
          return { writes, result: { entries: ids } };
        },
      });
    },
  };
}
