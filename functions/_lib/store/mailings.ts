// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/**
 * The newsletter's mailings: asked for (by the owner or automatically) or declined, then fanned
 * out, one outbox entry per confirmed subscriber, a batch at a time, resumed where it stopped.
 * An entry's id comes from the mailing and the address, and the fan-out writes only entries that
 * are not there yet, in the same step that moves its cursor: however often it runs, or however
 * many run at once, each subscriber gets one entry.
 */
import type { MailingProgress } from '../../../src/shared/api-responses';
import type { Subscriber } from '../../../src/shared/records';
import { parse, parsed, transact, type Backend, type Write } from './backend-contract';
import { countTable } from './counting';
import { KEYS } from './keys';
import { mailingCount, queue } from './outbox';
import { subscriberOf, subscriberVerbs } from './subscribers';
import type { NewOutboxEntry, SubscriberCursor } from './types';

/** A mailing as the store keeps it, once the owner (or automatic sending) did something with it. */
export interface MailingRecord {
  /** `post-<slug>` or `issue-<slug>`. */
  id: string;
  subject: string;
  /** sending: asked for (its fan-out may be over, its entries delivered); skipped: "Don't send". */
  status: 'sending' | 'skipped';
  requestedAt?: string;
  requestedBy?: 'owner' | 'automatic';
  /** The site's origin for the e-mails' links (the page, the unsubscribe), as it was when sending was asked for. */
  origin?: string;
  /** While the fan-out runs, where it stopped: the next batch starts after this subscriber. */
  cursor?: SubscriberCursor;
  /** When the fan-out wrote its last batch. */
  fannedOutAt?: string;
  skippedAt?: string;
}

/** Automatic sending: when it was first on, and when each mailing was first seen published (ms). */
export interface AutoSendState {
  since: number;
  seen: Record<string, number>;
}

/** What one batch of a fan-out did. */
export interface FanOutStep {
  /** Entries written (subscribers confirmed at that moment who had none). */
  written: number;
  /** Whether the fan-out is over (or there was none to do). */
  done: boolean;
}

const progressOf = (counts: Record<string, number>): MailingProgress => ({
  queued: counts.queued ?? 0,
  sent: counts.sent ?? 0,
  failed: counts.failed ?? 0,
  bounced: counts.bounced ?? 0,
  cancelled: counts.cancelled ?? 0,
});

export function mailingVerbs(backend: Backend) {
  const { listConfirmedSubscribers } = subscriberVerbs(backend);

  return {
    /** The records and progress of these mailings (no record: nothing was done with it yet). */
    async mailings(
      ids: readonly string[],
    ): Promise<Map<string, { record?: MailingRecord; progress: MailingProgress }>> {
      const [records, counts] = await Promise.all([
        backend.get(ids.map(KEYS.mailing)),
        Promise.all(ids.map((id) => backend.counters(KEYS.mailingCounts(id)))),
      ]);
      return new Map(
        ids.map((id, index) => {
          const record = parse<MailingRecord>(records[index]);
          return [id, { ...(record ? { record } : {}), progress: progressOf(counts[index] ?? countTable()) }];
        }),
      );
    },

    /**
     * Asks for a mailing to be sent; its fan-out starts at the next sweep. Nothing changes for one
     * being (or already) sent, nor for a declined one: "Don't send" is for good.
     */
    requestMailing(
      mailing: { id: string; subject: string },
      by: 'owner' | 'automatic',
      origin: string,
      now: Date,
    ): Promise<{ record: MailingRecord; started: boolean }> {
      const key = KEYS.mailing(mailing.id);
      return transact<{ record: MailingRecord; started: boolean }>(backend, {
        keys: [key],
        plan(values) {
          const existing = parsed<MailingRecord>(values, key);
          if (existing?.status === 'sending' || existing?.status === 'skipped')
            return { result: { record: existing, started: false } };
          const record: MailingRecord = {
            id: mailing.id,
            subject: mailing.subject,
            status: 'sending',
            requestedAt: now.toISOString(),
            requestedBy: by,
            origin,
          };
          return {
            writes: [
              { op: 'put', key, value: JSON.stringify(record) },
              { op: 'index', key: KEYS.mailingsFanningOut, member: mailing.id, score: now.getTime() },
            ],
            result: { record, started: true },
          };
        },
      });
    },

    /** "Don't send": undefined when it is being (or was) sent, which cannot be undone. */
    skipMailing(mailing: { id: string; subject: string }, now: Date): Promise<MailingRecord | undefined> {
      const key = KEYS.mailing(mailing.id);
      return transact(backend, {
        keys: [key],
        plan(values) {
          const existing = parsed<MailingRecord>(values, key);
          if (existing?.status === 'sending') return { result: undefined };
          if (existing) return { result: existing };
          const record: MailingRecord = {
            id: mailing.id,
            subject: mailing.subject,
            status: 'skipped',
            skippedAt: now.toISOString(),
          };
          return { writes: [{ op: 'put', key, value: JSON.stringify(record) }], result: record };
        },
      });
    },

    /** The mailings whose fan-out is not over, oldest request first. */
    mailingsFanningOut(): Promise<string[]> {
      return backend.members(KEYS.mailingsFanningOut, { offset: 0, limit: 100 });
    },

    /**
     * One batch of a mailing's fan-out: an entry (`entryFor`) for each of the next `limit`
     * subscribers confirmed now who has none yet, and the cursor moved past them, in one atomic
     * step. A batch that raced another (the cursor moved meanwhile) writes nothing.
     */
    async fanOutMailing(
      id: string,
      now: Date,
      limit: number,
      entryFor: (subscriber: Subscriber, record: MailingRecord) => NewOutboxEntry,
    ): Promise<FanOutStep> {
      const key = KEYS.mailing(id);
      const [value] = await backend.get([key]);
      const start = parse<MailingRecord>(value);
      if (start?.status !== 'sending' || start.fannedOutAt) {
        await backend.commit([], [{ op: 'unindex', key: KEYS.mailingsFanningOut, member: id }]);
        return { written: 0, done: true };
      }
      const { subscribers, next } = await listConfirmedSubscribers(start.cursor, limit);
      const entries = subscribers.map((subscriber) => entryFor(subscriber, start));
      return transact<FanOutStep>(backend, {
        keys: [
          key,
          ...subscribers.map((subscriber) => KEYS.subscriber(subscriber.email)),
          ...entries.map((entry) => KEYS.outboxState(entry.id)),
        ],
        plan(values) {
          const record = parsed<MailingRecord>(values, key);
          if (record?.status !== 'sending' || JSON.stringify(record.cursor) !== JSON.stringify(start.cursor))
            return { result: { written: 0, done: record?.fannedOutAt !== undefined } };
          // Only those still confirmed now, and only once each.
          const fresh = entries.filter(
            (entry) =>
              subscriberOf(values.get(KEYS.subscriber(entry.ref)))?.status === 'confirmed' &&
              values.get(KEYS.outboxState(entry.id)) === null,
          );
          const queuing = queue(fresh, values, now);
          if ('needs' in queuing) return queuing;
          // A finished fan-out keeps no cursor: it names a subscriber, and the record is kept for good.
          const { cursor: _passed, ...rest } = record;
          const moved: MailingRecord = { ...rest, ...(next ? { cursor: next } : { fannedOutAt: now.toISOString() }) };
          const writes: Write[] = [
            ...queuing.writes,
            { op: 'put', key, value: JSON.stringify(moved) },
            ...(fresh.length > 0 ? [mailingCount(id, 'queued', fresh.length)] : []),
            ...(next ? [] : [{ op: 'unindex', key: KEYS.mailingsFanningOut, member: id } as const]),
          ];
          return { writes, result: { written: fresh.length, done: !next } };
        },
      });
    },

    /** Automatic sending's state, as last noted; undefined before a sweep noted it. */
    async autoSendState(): Promise<AutoSendState | undefined> {
      const [value] = await backend.get([KEYS.newsletterAutoSend]);
      return parse<AutoSendState>(value);
    },

    /**
     * Notes that automatic sending is on (from now, the first time) and when each of these
     * published mailings was first seen; answers the state.
     */
    noteAutoSend(ids: readonly string[], now: Date): Promise<AutoSendState> {
      const key = KEYS.newsletterAutoSend;
      return transact(backend, {
        keys: [key],
        plan(values) {
          const state = parsed<AutoSendState>(values, key) ?? { since: now.getTime(), seen: {} };
          const unseen = ids.filter((id) => state.seen[id] === undefined);
          if (unseen.length === 0 && values.get(key) !== null) return { result: state };
          const next: AutoSendState = {
            since: state.since,
            seen: { ...state.seen, ...Object.fromEntries(unseen.map((id) => [id, now.getTime()])) },
          };
          return { writes: [{ op: 'put', key, value: JSON.stringify(next) }], result: next };
        },
      });
    },
  };
}
