import { describe, expect, test } from 'vitest';
import { KEYS } from '../../functions/_lib/store/keys';
import { queue } from '../../functions/_lib/store/outbox';
import { afterAttempt, newState, OUTBOX_RETRY_WINDOW_MS } from '../../functions/_lib/store/outbox-state';
import type { NewOutboxEntry } from '../../functions/_lib/store/types';

/**
 * An entry written to wait (a booking's reminder, `dueAt`): its first attempt, its place in the
 * queue and its retries all start when it falls due, not when it was written.
 */

const NOW = new Date('2026-12-01T10:00:00.000Z');
const DUE = '2026-12-07T13:30:00.000Z';

const reminder = (dueAt?: string): NewOutboxEntry => ({
  id: 'r1',
  kind: 'reminder',
  ref: 'lead-1',
  to: 'ada@example.com',
  message: { channel: 'mail', to: ['ada@example.com'], subject: 'Reminder', text: 'Hi', html: '<p>Hi</p>' },
  ...(dueAt ? { dueAt } : {}),
});

describe('an entry with dueAt', () => {
  test('is first tried when it falls due, and retried for 24 hours from then', () => {
    const state = newState(reminder(DUE), NOW);
    expect(state.createdAt).toBe(NOW.toISOString());
    expect(state.nextAttemptAt).toBe(DUE);
    expect(Date.parse(state.expiresAt) - Date.parse(DUE)).toBe(OUTBOX_RETRY_WINDOW_MS);
  });

  test('waits in the due index under its due time, and is listed under when it was written', () => {
    const queuing = queue([reminder(DUE)], new Map(), NOW);
    if ('needs' in queuing) throw new Error('a reminder reads nothing');
    const scores = Object.fromEntries(
      queuing.writes.flatMap((write) => (write.op === 'index' ? [[write.key, write.score]] : [])),
    );
    expect(scores).toEqual({ [KEYS.outboxDue]: Date.parse(DUE), [KEYS.outboxAll]: NOW.getTime() });
    expect(queuing.queued[0]?.nextAttemptAt).toBe(DUE);
  });

  test('is due at once when dueAt has passed, as an entry without one is', () => {
    expect(newState(reminder('2026-11-30T10:00:00.000Z'), NOW).nextAttemptAt).toBe(NOW.toISOString());
    expect(newState(reminder(), NOW).nextAttemptAt).toBe(NOW.toISOString());
  });

  test('backs off from its first attempt like any entry', () => {
    const first = new Date(DUE);
    const next = afterAttempt(
      newState(reminder(DUE), NOW),
      { kind: 'failed', error: 'SMTP 421', permanent: false },
      first,
    );
    expect(next.status).toBe('pending');
    expect(Date.parse(next.nextAttemptAt ?? '') - first.getTime()).toBe(60_000);
  });
});
