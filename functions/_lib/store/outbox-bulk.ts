// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/**
 * The outbox's second line: newsletter entries and the owner's tests of them, claimed only when
 * the first line has nothing due (the sweep asks the first line first), at most
 * MAIL_RATE_PER_MINUTE a minute. An entry whose subscriber is no longer confirmed when it comes
 * up is not sent: it is cancelled in the same step, so someone who leaves before their e-mail
 * goes out never gets it.
 */
import { parsed, transact, type Backend, type Write } from './backend-contract';
import { KEYS } from './keys';
import { claimable, leaseWrites, mailingCount, type Lease } from './outbox';
import { cancelled, OUTBOX_LEASE_MS } from './outbox-state';
import { subscriberOf } from './subscribers';
import type { ClaimedEntry, OutboxMessage, OutboxState } from './types';

/** Why an entry is not sent, by its subscriber's status (or their record's absence). */
const CANCELLED_BECAUSE = {
  unsubscribed: 'Not sent: they unsubscribed before it went out',
  bounced: 'Not sent: their address bounced before it went out',
  pending: 'Not sent: they are no longer confirmed',
  gone: 'Not sent: their record was erased',
} as const;

export function bulkVerbs(backend: Backend) {
  return {
    /**
     * Reserves up to `limit` newsletter entries due at `now`, within what `perMinute` leaves of
     * this minute (null: no limit), as claimOutbox() does; cancels the due ones whose subscriber
     * is no longer confirmed. With `ids` (a test the owner waits for), only those, and only when
     * nothing is due in the first line: that caller, unlike the sweep, has not served it first.
     */
    async claimBulk(
      now: Date,
      limit: number,
      perMinute: number | null,
      { ids }: { ids?: string[] } = {},
    ): Promise<ClaimedEntry[]> {
      const at = now.getTime();
      const minute = KEYS.mailRate(Math.floor(at / 60_000));
      if (ids && (await backend.membersByScore(KEYS.outboxDue, { min: 0, max: at, limit: 1 })).length > 0) return [];
      const candidates = ids ?? (await backend.membersByScore(KEYS.outboxDueBulk, { min: 0, max: at, limit }));
      if (candidates.length === 0) return [];
      const token = crypto.randomUUID();
      const lease: Lease = { token, until: at + OUTBOX_LEASE_MS };
      return transact<ClaimedEntry[]>(backend, {
        keys: [
          minute,
          ...candidates.flatMap((id) => [KEYS.outboxState(id), KEYS.outboxLease(id), KEYS.outboxMessage(id)]),
        ],
        plan(values) {
          const states = candidates.flatMap((id) => {
            const state = parsed<OutboxState>(values, KEYS.outboxState(id));
            return claimable(state, parsed<Lease>(values, KEYS.outboxLease(id)), at) ? [state] : [];
          });
          // A test goes to whom the owner named (refused, when queued, if they left or bounced).
          const subscribers = states.filter((state) => !state.testOf);
          const unread = [...new Set(subscribers.map((state) => KEYS.subscriber(state.ref)))].filter(
            (key) => !values.has(key),
          );
          if (unread.length > 0) return { needs: unread };
          const used = Number(values.get(minute) ?? 0);
          const allowed = perMinute === null ? limit : Math.max(0, Math.min(limit, perMinute - used));
          const claimed: ClaimedEntry[] = [];
          const writes: Write[] = [];
          for (const state of states) {
            const status = state.testOf
              ? undefined
              : (subscriberOf(values.get(KEYS.subscriber(state.ref)))?.status ?? 'gone');
            if (status !== undefined && status !== 'confirmed') {
              writes.push(
                {
                  op: 'put',
                  key: KEYS.outboxState(state.id),
                  value: JSON.stringify(cancelled(state, CANCELLED_BECAUSE[status])),
                },
                { op: 'unindex', key: KEYS.outboxDueBulk, member: state.id },
                ...(state.mailing ? [mailingCount(state.mailing, 'cancelled', 1)] : []),
              );
              continue;
            }
            const message = parsed<OutboxMessage>(values, KEYS.outboxMessage(state.id));
            if (claimed.length >= allowed || !message) continue;
            claimed.push({ entry: { ...state, message }, lease: token });
            writes.push(...leaseWrites(state, lease));
          }
          if (claimed.length > 0 && perMinute !== null)
            writes.push({ op: 'put', key: minute, value: String(used + claimed.length), ttlMs: 120_000 });
          return { writes, result: claimed };
        },
      });
    },
  };
}
