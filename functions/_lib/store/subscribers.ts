// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/** The newsletter's subscribers: a sign-up, its confirmation, an unsubscription, an erasure. */
import { createHash } from 'node:crypto';
import type { Subscriber, SubscriberStatus } from '../../../src/shared/records';
import { parse, parsed, transact, type Backend, type Write } from './backend-contract';
import { forgetLegacyCounters } from './counting';
import { KEYS } from './keys';
import { forgetEntries, mailingCount, queue, queueKeys } from './outbox';
import { admit, submissionKeys } from './submissions';
import { bounced, confirmed, newSubscriber, unsubscribed, withStatus, type SubscriberChange } from './subscriber-rules';
import type {
  ConfirmInput,
  NewOutboxEntry,
  OutboxState,
  QueueOptions,
  StatusChange,
  SubscribeInput,
  SubscribeResult,
  SubscriberCursor,
  WriteOptions,
} from './types';

const STATUS_INDEX: Partial<Record<SubscriberStatus, string>> = {
  pending: KEYS.subscribersPending,
  unsubscribed: KEYS.subscribersUnsubscribed,
  bounced: KEYS.subscribersBounced,
};

/**
 * What a sign-up's idempotency key holds of it: a digest of the address, not the address, since
 * the key outlives an erasure by up to a day. A retry carries the first body (the key's body
 * digest sees to it), so its own address is the one the digest was made of.
 */
const signUpRef = (email: string) =>
  `sha256:${createHash('sha256').update(email, 'utf8').digest('base64url').slice(0, 32)}`;

/** A subscriber record as read: null, or one stored before double opt-in (given its status then). */
export function subscriberOf(value: string | null | undefined): Subscriber | undefined {
  const record = parse<Subscriber>(value);
  return record ? withStatus(record) : undefined;
}

/** Whether a subscriber comes after a cursor in the walk: later, or at the same moment with a later address (byte order, as the indexes sort). */
function isAfter(subscriber: Subscriber, cursor: SubscriberCursor): boolean {
  const at = Date.parse(subscriber.createdAt);
  return (
    at > cursor.at || (at === cursor.at && Buffer.compare(Buffer.from(subscriber.email), Buffer.from(cursor.email)) > 0)
  );
}

/** The writes that put a subscriber in the index of its status (and out of the other). */
function statusWrites(subscriber: Subscriber): Write[] {
  const score = Date.parse(subscriber.createdAt);
  return Object.entries(STATUS_INDEX).map(([status, key]): Write =>
    status === subscriber.status
      ? { op: 'index', key, member: subscriber.email, score }
      : { op: 'unindex', key, member: subscriber.email },
  );
}

export function subscriberVerbs(backend: Backend) {
  /** A subscriber's change of status: the record, its status index, the entries. */
  function changeStatus(
    email: string,
    now: Date,
    change: (subscriber: Subscriber) => SubscriberChange,
    outbox: (subscriber: Subscriber) => NewOutboxEntry[] = () => [],
  ): Promise<StatusChange | undefined> {
    const key = KEYS.subscriber(email);
    return transact<StatusChange | undefined>(backend, {
      keys: [key],
      plan(values) {
        const subscriber = subscriberOf(values.get(key));
        if (!subscriber) return { result: undefined };
        const { next, changed, confirmedNow, refused } = change(subscriber);
        if (!changed) return { result: { record: next, queued: [], changed, ...(refused ? { refused } : {}) } };
        const queuing = queue(confirmedNow ? outbox(next) : [], values, now);
        if ('needs' in queuing) return queuing;
        const { writes, queued } = queuing;
        return {
          writes: [{ op: 'put', key, value: JSON.stringify(next) }, ...statusWrites(next), ...writes],
          result: { record: next, queued, changed },
        };
      },
    });
  }

  return {
    /**
     * Records a subscription: a new address becomes a pending subscriber; a known one is left as it
     * is (names and sources change only when a confirmation link is opened). Queues the entries of
     * `options.outbox` (the confirmation e-mail) unless their throttle holds them back.
     */
    subscribe(
      input: SubscribeInput,
      now: Date,
      options: WriteOptions & QueueOptions<Subscriber> = {},
    ): Promise<SubscribeResult> {
      const key = KEYS.subscriber(input.email);
      const incoming = newSubscriber(input, now);
      const { outbox = () => [] } = options;
      return transact<SubscribeResult>(backend, {
        keys: [key, ...submissionKeys(options), ...queueKeys(outbox(incoming))],
        // Nearly every sign-up is a new address: one round trip.
        assumeAbsent: true,
        plan(values) {
          const ref = signUpRef(input.email);
          const admitted = admit(values, options, ref, now);
          if ('repeatOf' in admitted) {
            // A key marked before digests were kept holds the address itself.
            const first = KEYS.subscriber(admitted.repeatOf === ref ? input.email : admitted.repeatOf);
            if (!values.has(first)) return { needs: [first] };
            return { result: { record: subscriberOf(values.get(first)), queued: [], created: false, repeated: true } };
          }
          const existing = subscriberOf(values.get(key));
          const record = existing ?? incoming;
          const queuing = queue(outbox(record), values, now);
          if ('needs' in queuing) return queuing;
          const { writes, queued } = queuing;
          const created: Write[] = existing
            ? []
            : [
                { op: 'put', key, value: JSON.stringify(incoming) },
                { op: 'index', key: KEYS.subscribersByCreated, member: input.email, score: now.getTime() },
                ...statusWrites(incoming),
              ];
          return {
            writes: [...admitted.writes, ...created, ...writes],
            result: { record, queued, created: !existing, repeated: false },
          };
        },
      });
    },

    /**
     * Confirms a subscriber with what the link carries (names, form); the entries of
     * `options.outbox` (the webhook) are written in the same step, only when the status changes
     * to confirmed.
     */
    confirmSubscriber(input: ConfirmInput, now: Date, options: QueueOptions<Subscriber> = {}) {
      return changeStatus(input.email, now, (subscriber) => confirmed(subscriber, input, now), options.outbox);
    },

    unsubscribe(email: string, now: Date): Promise<StatusChange | undefined> {
      return changeStatus(email, now, (subscriber) => unsubscribed(subscriber, now));
    },

    /** Marks a subscriber bounced: their mail server refused a message for good (`reason`: what it said). */
    markBounced(email: string, now: Date, reason: string): Promise<StatusChange | undefined> {
      return changeStatus(email, now, (subscriber) => bounced(subscriber, now, reason));
    },

    /**
     * The confirmed subscribers, `limit` at a time, in the order they first subscribed: the next
     * batch starts after `after`, the cursor of the batch before (none for the first). A walk in
     * batches meets everyone confirmed when their batch is read; `next` is absent once it is over.
     */
    async listConfirmedSubscribers(
      after: SubscriberCursor | undefined,
      limit: number,
    ): Promise<{ subscribers: Subscriber[]; next?: SubscriberCursor }> {
      const subscribers: Subscriber[] = [];
      let cursor = after;
      let page = Math.max(limit, 100);
      for (;;) {
        const emails = await backend.membersByScore(KEYS.subscribersByCreated, {
          min: cursor?.at ?? 0,
          max: Number.MAX_SAFE_INTEGER,
          limit: page,
        });
        const read = (await backend.get(emails.map(KEYS.subscriber))).flatMap((value) => subscriberOf(value) ?? []);
        const fresh = read.filter((subscriber) => !cursor || isAfter(subscriber, cursor));
        for (const subscriber of fresh) {
          if (subscribers.length === limit) return { subscribers, ...(cursor ? { next: cursor } : {}) };
          cursor = { at: Date.parse(subscriber.createdAt), email: subscriber.email };
          if (subscriber.status === 'confirmed') subscribers.push(subscriber);
        }
        if (emails.length < page) return { subscribers };
        // A page wholly taken by subscribers of one millisecond already met: read a larger one.
        if (fresh.length === 0) page *= 2;
      }
    },

    /**
     * Erases a subscriber (an erasure request) with the entries queued for the address, and takes
     * them out of every count; answers the ids of those entries (whose local copies go too), or
     * undefined when there was none.
     */
    deleteSubscriber(email: string): Promise<{ entries: string[] } | undefined> {
      const key = KEYS.subscriber(email);
      const entries = KEYS.outboxOf(email);
      return transact<{ entries: string[] } | undefined>(backend, {
        keys: [key],
        lists: [entries],
        plan(values, lists) {
          const subscriber = subscriberOf(values.get(key));
          const ids = [...(lists.get(entries) ?? [])];
          // A newsletter e-mail still waiting will not go: its mailing counts it as not sent.
          const unread = ids.map(KEYS.outboxState).filter((state) => !values.has(state));
          if (unread.length > 0) return { needs: unread };
          const waiting = ids.flatMap((id) => {
            const state = parsed<OutboxState>(values, KEYS.outboxState(id));
            return state?.mailing && state.status === 'pending' ? [mailingCount(state.mailing, 'cancelled', 1)] : [];
          });
          const writes: Write[] = [
            ...waiting,
            { op: 'del', key },
            { op: 'del', key: KEYS.confirmationSent(email) },
            ...[KEYS.subscribersByCreated, ...Object.values(STATUS_INDEX)].map((index): Write => ({
              op: 'unindex',
              key: index,
              member: email,
            })),
            // The e-mails queued for the address hold it too.
            ...forgetEntries(email, ids),
            ...forgetLegacyCounters(),
          ];
          return { writes, result: subscriber ? { entries: ids } : undefined };
        },
      });
    },
  };
}
