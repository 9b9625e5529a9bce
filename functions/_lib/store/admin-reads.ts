// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/** What the admin page reads: totals, lists newest first, the records of a span of time, the dashboard's first view. */
import type { Lead, Subscriber } from '../../../src/shared/records';
import { parse, type Backend } from './backend-contract';
import { KEYS } from './keys';
import { leadStatusCounts, matcher, narrowing, scanLeads, statusOnly } from './lead-filters';
import { deliveriesOf } from './outbox';
import { statusCounts } from './subscriber-rules';
import { subscriberOf } from './subscribers';
import type { DashboardData, LeadFilter, Page, SubscriberStatusCounts } from './types';

/** An object of promises, awaited together: one round of reads. */
async function allOf<T extends Record<string, Promise<unknown>>>(
  promises: T,
): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const entries = await Promise.all(Object.entries(promises).map(async ([name, promise]) => [name, await promise]));
  // The same names, each with its promise's value.
  return Object.fromEntries(entries) as { [K in keyof T]: Awaited<T[K]> };
}

/** Verbs whose work grows with the data: getStore() gives them twice the deadline. */
export const SLOW_VERBS = [
  'spamOverview',
  'listOutbox',
  'pruneOutbox',
  'countOutbox',
  'subscriberStatusCounts',
  'countSubscribers',
  'countLeads',
  'listSubscribers',
  'listLeads',
  'dashboard',
  'createdBetween',
  'visitDays',
  'deleteSubscriber',
  'deleteLead',
] as const;

export function adminReadVerbs(backend: Backend) {
  async function listSubscribers({ offset, limit }: Page): Promise<Subscriber[]> {
    const emails = await backend.members(KEYS.subscribersByCreated, { offset, limit, highestFirst: true });
    return (await backend.get(emails.map(KEYS.subscriber))).flatMap((value) => subscriberOf(value) ?? []);
  }

  /**
   * Leads that are not held, newest first, each with the states of its outbox entries. With a
   * filter, those it keeps among the newest MAX_SCANNED (lead-filters.ts); without one, straight
   * from the index, however many there are.
   */
  async function listLeads({ offset, limit }: Page, filter?: LeadFilter): Promise<Lead[]> {
    const narrowed = narrowing(filter);
    if (!narrowed) {
      const ids = await backend.members(KEYS.leadsByCreated, { offset, limit, highestFirst: true });
      const [values, deliveries] = await Promise.all([backend.get(ids.map(KEYS.lead)), deliveriesOf(backend, ids)]);
      return values.flatMap((value) => {
        const lead = parse<Lead>(value);
        return lead ? [{ ...lead, delivery: deliveries.get(lead.id) ?? [] }] : [];
      });
    }
    // A status's count says when every lead in it was found: the New ones are the newest, mostly.
    const known = statusOnly(narrowed) ? (await leadStatusCounts(backend))[narrowed.status] : undefined;
    const { leads } = await scanLeads(backend, matcher(narrowed), {
      skip: offset,
      take: limit,
      countAll: false,
      known,
    });
    const deliveries = await deliveriesOf(
      backend,
      leads.map((lead) => lead.id),
    );
    return leads.map((lead) => ({ ...lead, delivery: deliveries.get(lead.id) ?? [] }));
  }

  /** Leads that are not held; with a filter, those it keeps (a status from its count, the rest among the newest MAX_SCANNED). */
  async function countLeads(filter?: LeadFilter): Promise<number> {
    const narrowed = narrowing(filter);
    if (!narrowed) return backend.size(KEYS.leadsByCreated);
    if (statusOnly(narrowed)) return (await leadStatusCounts(backend))[narrowed.status];
    return (await scanLeads(backend, matcher(narrowed), { skip: 0, take: 0, countAll: true })).matched;
  }

  async function subscriberStatusCounts(): Promise<SubscriberStatusCounts> {
    const [all, pending, unsubscribed, bounced] = await Promise.all(
      [KEYS.subscribersByCreated, KEYS.subscribersPending, KEYS.subscribersUnsubscribed, KEYS.subscribersBounced].map(
        (key) => backend.size(key),
      ),
    );
    return statusCounts(all, { pending, unsubscribed, bounced });
  }

  return {
    countSubscribers: () => backend.size(KEYS.subscribersByCreated),
    /** Leads, those held as spam apart; with a filter, those it keeps. */
    countLeads,
    /** Leads, those held as spam apart, in each status: the whole list, whatever a filter shows. */
    leadStatusCounts: () => leadStatusCounts(backend),
    /** Subscribers by status. */
    subscriberStatusCounts,
    /** Newest first. */
    listSubscribers,
    /** Newest first; with a filter, those it keeps. */
    listLeads,

    /**
     * Leads (not held) and subscribers created from `from` to `to` (ms, both included), at most
     * `limit` of each, oldest first: the overview counts them by day and form, the visits figures
     * by their first touch.
     */
    async createdBetween(
      from: number,
      to: number,
      limit: number,
    ): Promise<{ leads: Lead[]; subscribers: Subscriber[] }> {
      const [leadIds, emails] = await Promise.all([
        backend.membersByScore(KEYS.leadsByCreated, { min: from, max: to, limit }),
        backend.membersByScore(KEYS.subscribersByCreated, { min: from, max: to, limit }),
      ]);
      const [leads, subscribers] = await Promise.all([
        backend.get(leadIds.map(KEYS.lead)),
        backend.get(emails.map(KEYS.subscriber)),
      ]);
      return {
        leads: leads.flatMap((value) => parse<Lead>(value) ?? []),
        subscribers: subscribers.flatMap((value) => subscriberOf(value) ?? []),
      };
    },

    /** What the admin dashboard's first view needs: its reads go out together. */
    async dashboard(page: Page): Promise<DashboardData> {
      const { pending, pendingBulk, dead, ...figures } = await allOf({
        subscriberTotal: backend.size(KEYS.subscribersByCreated),
        subscriberStatus: subscriberStatusCounts(),
        leadTotal: backend.size(KEYS.leadsByCreated),
        pending: backend.size(KEYS.outboxDue),
        // The newsletter's line waits too: a send held up by an SMTP outage shows here.
        pendingBulk: backend.size(KEYS.outboxDueBulk),
        dead: backend.size(KEYS.outboxDead),
        subscribers: listSubscribers(page),
        // The desk opens on what still needs an answer.
        leads: listLeads(page, { status: 'new' }),
        leadStatuses: leadStatusCounts(backend),
        spamHeld: backend.size(KEYS.leadsHeld),
      });
      return { ...figures, outbox: { pending: pending + pendingBulk, dead } };
    },
  };
}
