// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/**
 * The outbox: entries written with their records (queue()), claimed by one deliverer at a time
 * under a lease, completed with each attempt's outcome, retried by the owner, listed, and their
 * texts forgotten once delivered a while ago.
 */
import type { MailingProgress } from '../../../src/shared/api-responses';
import type { Delivery } from '../../../src/shared/records';
import { parse, parsed, transact, type Backend, type Needs, type Values, type Write } from './backend-contract';
import { KEYS } from './keys';
import { afterAttempt, deliveryOf, dueIndex, newState, OUTBOX_LEASE_MS, redacted, revived } from './outbox-state';
import type {
  ClaimedEntry,
  Completion,
  ListedOutboxEntry,
  NewOutboxEntry,
  OutboxMessage,
  OutboxState,
  Page,
  PrunedMessage,
} from './types';

/** The claim that holds an entry. */
export interface Lease {
  token: string;
  /** When the lease ends (ms). */
  until: number;
}

/** The keys that queueing these entries reads: their throttles' marks. */
export function queueKeys(entries: readonly NewOutboxEntry[]): string[] {
  return entries.flatMap((entry) => (entry.throttle ? [KEYS.outboxThrottle(entry.throttle.key)] : []));
}

/**
 * The writes of new entries, due now (or at their `dueAt`), beside the record a rule writes. A
 * throttled entry is written only if its key was not used within its interval (and then marks
 * it). Answers the writes and the states of the entries written, or, when the rule has not read a
 * throttle's mark yet (queueKeys()), the keys it needs.
 */
export function queue(
  entries: readonly NewOutboxEntry[],
  values: Values,
  now: Date,
): Needs | { writes: Write[]; queued: Delivery[] } {
  const needs = queueKeys(entries).filter((key) => !values.has(key));
  if (needs.length > 0) return { needs };
  const at = now.getTime();
  const writes: Write[] = [];
  const queued: Delivery[] = [];
  const usedNow = new Set<string>();
  for (const entry of entries) {
    if (entry.throttle) {
      const key = KEYS.outboxThrottle(entry.throttle.key);
      const last = Number(values.get(key) ?? Number.NaN);
      const interval = entry.throttle.seconds * 1000;
      if (usedNow.has(key) || at - last < interval) continue;
      usedNow.add(key);
      writes.push({ op: 'put', key, value: String(at), ttlMs: interval * 2 });
    }
    const state = newState(entry, now);
    writes.push(
      { op: 'put', key: KEYS.outboxState(entry.id), value: JSON.stringify(state) },
      { op: 'put', key: KEYS.outboxMessage(entry.id), value: JSON.stringify(entry.message) },
      { op: 'index', key: dueIndex(entry), member: entry.id, score: Date.parse(state.nextAttemptAt ?? '') },
      { op: 'index', key: KEYS.outboxAll, member: entry.id, score: at },
      { op: 'append', key: KEYS.outboxOf(entry.ref), member: entry.id },
    );
    queued.push(deliveryOf(state));
  }
  return { writes, queued };
}

/** One more (or less) in a mailing's progress. */
export function mailingCount(mailing: string, field: keyof MailingProgress, by: number): Write {
  return { op: 'count', key: KEYS.mailingCounts(mailing), field, by };
}

/** The writes that forget entries whatever their state (an erasure): records, places in every index, leases. */
export function forgetEntries(ref: string, ids: readonly string[]): Write[] {
  return [
    ...ids.flatMap((id): Write[] => [
      { op: 'del', key: KEYS.outboxState(id) },
      { op: 'del', key: KEYS.outboxMessage(id) },
      { op: 'del', key: KEYS.outboxLease(id) },
      ...[KEYS.outboxDue, KEYS.outboxDueBulk, KEYS.outboxDead, KEYS.outboxDelivered, KEYS.outboxAll].map(
        (index): Write => ({
          op: 'unindex',
          key: index,
          member: id,
        }),
      ),
    ]),
    { op: 'del', key: KEYS.outboxOf(ref) },
  ];
}

/** The states of the entries of these records, in order, by record. */
export async function deliveriesOf(backend: Backend, refs: readonly string[]): Promise<Map<string, Delivery[]>> {
  const lists = await Promise.all(refs.map((ref) => backend.list(KEYS.outboxOf(ref))));
  const states = await backend.get(lists.flat().map(KEYS.outboxState));
  const byRef = new Map<string, Delivery[]>();
  let next = 0;
  refs.forEach((ref, index) => {
    const deliveries: Delivery[] = [];
    for (const _id of lists[index] ?? []) {
      const state = parse<OutboxState>(states[next++]);
      if (state) deliveries.push(deliveryOf(state));
    }
    byRef.set(ref, deliveries);
  });
  return byRef;
}

/** The writes that reserve an entry under a lease: its claim, and its place in line moved to the lease's end. */
export function leaseWrites(state: OutboxState, lease: Lease): Write[] {
  return [
    // Kept a while past its end, for a late outcome to find it and be ignored.
    { op: 'put', key: KEYS.outboxLease(state.id), value: JSON.stringify(lease), ttlMs: 2 * OUTBOX_LEASE_MS },
    { op: 'index', key: dueIndex(state), member: state.id, score: lease.until },
  ];
}

/**
 * Whether an entry may be claimed at `now`: waiting, due by `dueBy` (`now` unless the claimer says
 * otherwise), and held by no lease that still runs.
 */
export function claimable(
  state: OutboxState | undefined,
  lease: Lease | undefined,
  now: number,
  dueBy = now,
): state is OutboxState {
  if (!state || state.status !== 'pending') return false;
  if (Date.parse(state.nextAttemptAt ?? '') > dueBy) return false;
  return !lease || lease.until <= now;
}

export function outboxVerbs(backend: Backend) {
  return {
    /**
     * Reserves up to `limit` entries due at `now` (or, with `ids`, those of them that are due) for
     * OUTBOX_LEASE_MS: no other claim gets them until the outcome is recorded or the lease ends.
     * With `dueBy`, also those that fall due before it: a claimer that runs at intervals takes an
     * entry at the run nearest its time rather than the first one after it.
     */
    async claimOutbox(
      now: Date,
      limit: number,
      { ids, dueBy = now }: { ids?: string[]; dueBy?: Date } = {},
    ): Promise<ClaimedEntry[]> {
      const at = now.getTime();
      const due = Math.max(at, dueBy.getTime());
      const candidates = ids ?? (await backend.membersByScore(KEYS.outboxDue, { min: 0, max: due, limit }));
      const token = crypto.randomUUID();
      const lease: Lease = { token, until: at + OUTBOX_LEASE_MS };
      return transact(backend, {
        keys: candidates.flatMap((id) => [KEYS.outboxState(id), KEYS.outboxLease(id), KEYS.outboxMessage(id)]),
        plan(values) {
          const claimed: ClaimedEntry[] = [];
          const writes: Write[] = [];
          for (const id of candidates) {
            if (claimed.length >= limit) break;
            const state = parsed<OutboxState>(values, KEYS.outboxState(id));
            const message = parsed<OutboxMessage>(values, KEYS.outboxMessage(id));
            if (!claimable(state, parsed<Lease>(values, KEYS.outboxLease(id)), at, due) || !message) continue;
            claimed.push({ entry: { ...state, message }, lease: token });
            writes.push(...leaseWrites(state, lease));
          }
          return { writes, result: claimed };
        },
      });
    },

    /**
     * Records the outcomes of attempts, in one store call; an outcome whose lease was lost (it ran
     * out and the entry was claimed again, or the entry was erased) is ignored. A message sent by
     * SMTP loses its secrets (redacted()); one written to the local outbox folder, which stands in
     * for the inboxes, keeps them. Answers how many were recorded.
     */
    completeOutbox(completions: Completion[], now: Date): Promise<number> {
      const ids = completions.map(({ claimed }) => claimed.entry.id);
      return transact(backend, {
        keys: ids.flatMap((id) => [KEYS.outboxState(id), KEYS.outboxLease(id)]),
        plan(values) {
          const writes: Write[] = [];
          let recorded = 0;
          for (const { claimed, outcome } of completions) {
            const id = claimed.entry.id;
            const state = parsed<OutboxState>(values, KEYS.outboxState(id));
            if (!state || parsed<Lease>(values, KEYS.outboxLease(id))?.token !== claimed.lease) continue;
            const next = afterAttempt(state, outcome, now);
            recorded += 1;
            if (next.mailing && next.status !== 'pending')
              writes.push(
                mailingCount(
                  next.mailing,
                  next.status === 'delivered' ? 'sent' : next.bounced ? 'bounced' : 'failed',
                  1,
                ),
              );
            writes.push(
              { op: 'put', key: KEYS.outboxState(id), value: JSON.stringify(next) },
              { op: 'del', key: KEYS.outboxLease(id) },
            );
            const sent =
              outcome.kind === 'delivered' && outcome.via === 'smtp' ? redacted(claimed.entry.message) : undefined;
            if (sent) writes.push({ op: 'put', key: KEYS.outboxMessage(id), value: JSON.stringify(sent) });
            if (next.status === 'pending') {
              writes.push({
                op: 'index',
                key: dueIndex(next),
                member: id,
                score: Date.parse(next.nextAttemptAt ?? ''),
              });
              continue;
            }
            writes.push({ op: 'unindex', key: dueIndex(next), member: id });
            writes.push(
              next.status === 'dead'
                ? { op: 'index', key: KEYS.outboxDead, member: id, score: Date.parse(next.createdAt) }
                : { op: 'index', key: KEYS.outboxDelivered, member: id, score: now.getTime() },
            );
          }
          return { writes, result: recorded };
        },
      });
    },

    /** Whether an entry of this throttle key was queued within its interval (the weekly letter asks before composing itself). */
    async throttleUsed(key: string): Promise<boolean> {
      const [value] = await backend.get([KEYS.outboxThrottle(key)]);
      return value !== null;
    },

    /** Writes entries that belong to no record (a newsletter's test), due now; answers their states. */
    queueEntries(entries: NewOutboxEntry[], now: Date): Promise<Delivery[]> {
      return transact(backend, {
        keys: queueKeys(entries),
        plan(values) {
          const queuing = queue(entries, values, now);
          return 'needs' in queuing ? queuing : { writes: queuing.writes, result: queuing.queued };
        },
      });
    },

    /** Puts a dead entry back in line, due now, with a new 24-hour window; false when there is no dead entry of that id. */
    retryOutbox(id: string, now: Date): Promise<boolean> {
      return transact(backend, {
        keys: [KEYS.outboxState(id)],
        plan(values) {
          const state = parsed<OutboxState>(values, KEYS.outboxState(id));
          if (state?.status !== 'dead') return { result: false };
          const writes: Write[] = [
            { op: 'put', key: KEYS.outboxState(id), value: JSON.stringify(revived(state, now)) },
            { op: 'unindex', key: KEYS.outboxDead, member: id },
            { op: 'index', key: dueIndex(state), member: id, score: now.getTime() },
            // Back in line: no longer counted as failed in its mailing's progress.
            ...(state.mailing ? [mailingCount(state.mailing, state.bounced ? 'bounced' : 'failed', -1)] : []),
          ];
          return { writes, result: true };
        },
      });
    },

    /** Newest first. */
    async listOutbox({ offset, limit }: Page): Promise<ListedOutboxEntry[]> {
      const ids = await backend.members(KEYS.outboxAll, { offset, limit, highestFirst: true });
      const values = await backend.get(ids.flatMap((id) => [KEYS.outboxState(id), KEYS.outboxMessage(id)]));
      return ids.flatMap((_id, index) => {
        const state = parse<OutboxState>(values[2 * index]);
        const message = parse<OutboxMessage | PrunedMessage>(values[2 * index + 1]);
        return state && message ? [{ ...state, message }] : [];
      });
    },

    /**
     * Forgets the text of up to `limit` entries delivered before `before`, oldest first, keeping
     * their states and subjects; answers how many. Entries waiting or dead keep their messages.
     */
    async pruneOutbox(before: Date, limit: number): Promise<number> {
      const ids = await backend.membersByScore(KEYS.outboxDelivered, { min: 0, max: before.getTime() - 1, limit });
      return transact(backend, {
        keys: ids.map(KEYS.outboxMessage),
        plan(values) {
          const writes = ids.flatMap((id): Write[] => {
            const message = parsed<OutboxMessage | PrunedMessage>(values, KEYS.outboxMessage(id));
            const unindex: Write = { op: 'unindex', key: KEYS.outboxDelivered, member: id };
            if (!message || 'pruned' in message) return [unindex];
            const title = message.channel === 'webhook' ? message.type : message.subject;
            const pruned: PrunedMessage = { pruned: true, title };
            return [{ op: 'put', key: KEYS.outboxMessage(id), value: JSON.stringify(pruned) }, unindex];
          });
          return { writes, result: ids.length };
        },
      });
    },

    async countOutbox(): Promise<{ total: number; pending: number; dead: number }> {
      const [total, pending, bulk, dead] = await Promise.all(
        [KEYS.outboxAll, KEYS.outboxDue, KEYS.outboxDueBulk, KEYS.outboxDead].map((key) => backend.size(key)),
      );
      return { total, pending: pending + bulk, dead };
    },
  };
}
