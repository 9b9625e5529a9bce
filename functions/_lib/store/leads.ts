// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/** Leads: a new one with its deliveries (or held as spam), the owner's status and note, and an erasure. */
import type { Booking, Lead } from '../../../src/shared/records';
import { erasureKeys, erasureWrites } from './bookings';
import { isHeld, listed, statusCounted, statusOf, unlisted } from './lead-lists';
import { parse, parsed, transact, type Backend, type Write } from './backend-contract';
import { forgetLegacyCounters } from './counting';
import { KEYS } from './keys';
import { deliveriesOf, forgetEntries, queue, queueKeys } from './outbox';
import { admit, submissionKeys } from './submissions';
import type { LeadInput, LeadResult, LeadUpdate, QueueOptions, WriteOptions } from './types';

/** A lead with its optional fields present only when they hold something. */
function leadOf(input: LeadInput, id: string, now: Date): Lead {
  const lead: Lead = { id, name: input.name, email: input.email, source: input.source, createdAt: now.toISOString() };
  for (const field of ['emailAscii', 'company', 'notes', 'page', 'attribution', 'spam', 'contentCheck'] as const)
    if (input[field] !== undefined) Object.assign(lead, { [field]: input[field] });
  return lead;
}

/**
 * A lead with the owner's change: a status or note given replaces the one it had, one not given
 * stays. `new` and an empty note are kept as no field at all, as on a lead nobody has marked, so
 * that a lead has one shape for each state.
 */
export function updated(lead: Lead, update: LeadUpdate, now: Date): Lead {
  const { status: oldStatus, note: oldNote, ...rest } = lead;
  const status = update.status ?? oldStatus;
  const note = update.note === undefined ? oldNote : update.note.trim();
  return {
    ...rest,
    ...(status && status !== 'new' ? { status } : {}),
    ...(note ? { note } : {}),
    updatedAt: now.toISOString(),
  };
}

export function leadVerbs(backend: Backend) {
  return {
    /**
     * Appends a lead with the entries of `options.outbox`; with a key seen before, appends nothing
     * and gives back the first lead. A lead whose input holds a `spam` mark is held: it is kept and
     * listed by spamOverview() only (not in listLeads, countLeads, createdBetween or the
     * dashboard's leads, so in no figure) and nothing is queued for it.
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
      const bookingKey = KEYS.booking(id);
      return transact<{ entries: string[] } | undefined>(backend, {
        keys: [key, bookingKey],
        lists: [entries],
        plan(values, lists) {
          const lead = parse<Lead>(values.get(key));
          if (!lead) return { result: undefined };
          // A booked call's lead has the booking's id: the call goes with it, and frees its time.
          const booking = parsed<Booking>(values, bookingKey);
          const needs = booking ? erasureKeys(booking).filter((other) => !values.has(other)) : [];
          if (needs.length > 0) return { needs };
          const ids = [...(lists.get(entries) ?? [])];
          const writes: Write[] = [
            { op: 'del', key },
            ...(isHeld(lead) ? [{ op: 'unindex', key: KEYS.leadsHeld, member: id } satisfies Write] : unlisted(lead)),
            ...(booking ? erasureWrites(booking, values) : []),
            ...forgetEntries(id, ids),
            ...forgetLegacyCounters(),
          ];
          return { writes, result: { entries: ids } };
        },
      });
    },

    /**
     * The owner's status and private note on a lead (LeadUpdateRequest), with `updatedAt` set to
     * `now`; a new status moves the lead from one count of leadStatusCounts() to the other, in
     * the same step. The commit checks the lead as it was read and plans again when it changed,
     * so two changes at once (the status from one tab, the note from another) both stay.
     * Answers the lead as listLeads() shows it, with its deliveries; undefined when there is no
     * such lead, or when it is held as spam: a held lead is in no list of the desk and in no
     * count, so it cannot be marked until the owner releases it ("Not spam").
     */
    async updateLead(id: string, update: LeadUpdate, now: Date): Promise<Lead | undefined> {
      const key = KEYS.lead(id);
      const lead = await transact<Lead | undefined>(backend, {
        keys: [key],
        plan(values) {
          const stored = parsed<Lead>(values, key);
          if (!stored || isHeld(stored)) return { result: undefined };
          const next = updated(stored, update, now);
          const moved = statusOf(stored) !== statusOf(next);
          return {
            writes: [
              { op: 'put', key, value: JSON.stringify(next) },
              ...(moved ? [...statusCounted(stored, -1), ...statusCounted(next, 1)] : []),
            ],
            result: next,
          };
        },
      });
      if (!lead) return undefined;
      return { ...lead, delivery: (await deliveriesOf(backend, [id])).get(id) ?? [] };
    },
  };
}
