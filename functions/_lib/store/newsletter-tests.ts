// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/**
 * The owner's tests of a mailing ("Send a test"). A test to the team (LEADS_NOTIFY_TO) always
 * goes. One to an address typed in is the admin page's only way to mail a stranger, so a stolen
 * session must not make it a spam cannon: such tests are counted per session and per UTC day,
 * checked and counted in the same atomic step that queues the test (however many requests arrive
 * at once, no more get through), and an address that unsubscribed or bounced gets none. Every
 * test then waits in the newsletter's line, behind the lead notifications, at its pace.
 */
import type { Delivery } from '../../../src/shared/records';
import { transact, type Backend, type Write } from './backend-contract';
import { dayOf } from './counting';
import { KEYS } from './keys';
import { queue } from './outbox';
import { subscriberOf } from './subscribers';
import type { NewOutboxEntry } from './types';

/** Tests to addresses typed in, at most, in one admin session (it lasts 8 hours at most, and may span midnight). */
export const TESTS_PER_SESSION = 20;
/** Tests to addresses typed in, at most, per UTC day, whatever the sessions: a new login does not start afresh. */
export const TESTS_PER_DAY = 20;
/** How long the counts are kept: past a session's longest life, and past the end of their day. */
const SESSION_COUNT_KEEP_MS = 24 * 3600_000;
const DAY_COUNT_KEEP_MS = 48 * 3600_000;

/** Why a test was not queued. */
export type TestRefusal =
  /** The address typed in unsubscribed, or its server refused it for good: the newsletter sends it nothing. */
  | { reason: 'unsubscribed' }
  | { reason: 'bounced' }
  /** This session, or this UTC day, has had its tests to typed addresses. */
  | { reason: 'session-limit'; limit: number }
  | { reason: 'day-limit'; limit: number };

export function newsletterTestVerbs(backend: Backend) {
  return {
    /**
     * Queues a test of a mailing (`entry`, in the newsletter's line). With `typed`, the address
     * the owner typed in: refused when it unsubscribed or bounced, and counted against this
     * session's and this day's limits, or refused past them. Without it (the team's own
     * address), it is neither checked nor counted.
     */
    queueNewsletterTest(
      entry: NewOutboxEntry,
      { session, typed }: { session: string; typed?: string },
      now: Date,
    ): Promise<{ queued: Delivery[] } | { refused: TestRefusal }> {
      const ofSession = KEYS.newsletterTestsOfSession(session);
      const ofDay = KEYS.newsletterTestsOfDay(dayOf(now));
      return transact<{ queued: Delivery[] } | { refused: TestRefusal }>(backend, {
        keys: typed ? [KEYS.subscriber(typed), ofSession, ofDay] : [],
        plan(values) {
          const queuing = queue([entry], values, now);
          if ('needs' in queuing) return queuing;
          if (!typed) return { writes: queuing.writes, result: { queued: queuing.queued } };
          const status = subscriberOf(values.get(KEYS.subscriber(typed)))?.status;
          if (status === 'unsubscribed') return { result: { refused: { reason: 'unsubscribed' } } };
          if (status === 'bounced') return { result: { refused: { reason: 'bounced' } } };
          // Plain values rather than counters: the rule reads them, and the commit checks they are unchanged.
          const sessionCount = Number(values.get(ofSession) ?? 0);
          const dayCount = Number(values.get(ofDay) ?? 0);
          if (sessionCount >= TESTS_PER_SESSION)
            return { result: { refused: { reason: 'session-limit', limit: TESTS_PER_SESSION } } };
          if (dayCount >= TESTS_PER_DAY) return { result: { refused: { reason: 'day-limit', limit: TESTS_PER_DAY } } };
          const counted: Write[] = [
            { op: 'put', key: ofSession, value: String(sessionCount + 1), ttlMs: SESSION_COUNT_KEEP_MS },
            { op: 'put', key: ofDay, value: String(dayCount + 1), ttlMs: DAY_COUNT_KEEP_MS },
          ];
          return { writes: [...queuing.writes, ...counted], result: { queued: queuing.queued } };
        },
      });
    },
  };
}
