// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/** The Spam section: leads held as spam and the owner's "Not spam", and what was refused before storing. */
import type { Lead } from '../../../src/shared/records';
import { parse, parsed, transact, type Backend } from './backend-contract';
import { KEYS } from './keys';
import { isHeld, listed } from './lead-lists';
import { queue } from './outbox';
import type { Page, QueueOptions, Saved, SpamOverview } from './types';

/** A held lead after the owner's "Not spam": from `now` on it is an ordinary lead. */
export function released(lead: Lead, now: Date): Lead {
  const { delivery: _delivery, ...rest } = lead;
  return { ...rest, spam: { reasons: lead.spam?.reasons ?? [], releasedAt: now.toISOString() } };
}

export function spamVerbs(backend: Backend) {
  return {
    /**
     * "Not spam": a held lead becomes an ordinary one, atomically: `spam.releasedAt` is set, it joins
     * the leads (listed, and so counted, under its original createdAt) and the entries
     * of `options.outbox` are queued. Undefined when no lead of that id is held (unknown, or
     * released already: of two releases at once, one queues the entries).
     */
    releaseSpam(id: string, now: Date, { outbox = () => [] }: QueueOptions<Lead> = {}) {
      const key = KEYS.lead(id);
      return transact<Saved<Lead> | undefined>(backend, {
        keys: [key],
        plan(values) {
          const lead = parsed<Lead>(values, key);
          if (!lead || !isHeld(lead)) return { result: undefined };
          const next = released(lead, now);
          const queuing = queue(outbox(next), values, now);
          if ('needs' in queuing) return queuing;
          const { writes, queued } = queuing;
          const result: Saved<Lead> = { record: { ...next, delivery: queued }, queued };
          return {
            writes: [
              { op: 'put', key, value: JSON.stringify(next) },
              { op: 'unindex', key: KEYS.leadsHeld, member: id },
              // Its arrival decides where it is listed and counted.
              ...listed(next),
              ...writes,
            ],
            result,
          };
        },
      });
    },

    /** The admin's Spam section: the held leads, newest first, and what was caught before storing. */
    async spamOverview({ offset, limit }: Page): Promise<SpamOverview> {
      const [held, ids, honeypot, challengeFailures] = await Promise.all([
        backend.size(KEYS.leadsHeld),
        backend.members(KEYS.leadsHeld, { offset, limit, highestFirst: true }),
        backend.counters(KEYS.honeypot),
        backend.counters(KEYS.challengeFailures),
      ]);
      const leads = (await backend.get(ids.map(KEYS.lead))).flatMap((value) => parse<Lead>(value) ?? []);
      return { held, leads, honeypot, challengeFailures };
    },

    /** Counts a submission refused for a missing, invalid, expired or spent proof of work, per endpoint. */
    async recordChallengeFailure(endpoint: string, _now: Date): Promise<void> {
      await backend.commit([], [{ op: 'count', key: KEYS.challengeFailures, field: endpoint, by: 1 }]);
    },

    /** Counts a submission caught by the honeypot, per endpoint. */
    async recordHoneypot(endpoint: string, _now: Date): Promise<void> {
      await backend.commit([], [{ op: 'count', key: KEYS.honeypot, field: endpoint, by: 1 }]);
    },
  };
}
