/**
 * The embedded store as the newsletter benchmark fills and reads it, beside the server that uses
 * the same folder (SQLite in WAL mode takes readers and writers from several processes). Bundled
 * by importBundled(), since the store's imports have no file extensions.
 */
import { KEYS } from '../../functions/_lib/store/keys';
import type { Lease } from '../../functions/_lib/store/outbox';
import { sqliteBackend } from '../../functions/_lib/store/sqlite/sqlite-backend';
import { createStore } from '../../functions/_lib/store/store';
import type { OutboxState } from '../../functions/_lib/store/types';

/** Sign-ups written at once while seeding: each is its own commit, the rest wait their turn. */
const SEED_CHUNK = 500;

export function openBenchStore(folder: string) {
  const backend = sqliteBackend(folder);
  const store = createStore(backend);
  return {
    /**
     * `count` confirmed subscribers, through the verbs the form and the confirmation link use
     * (subscribe, then confirmSubscriber), each signed up a millisecond after the last; nothing
     * is queued for them.
     */
    async seed(count: number, start = Date.now() - 86_400_000): Promise<void> {
      for (let first = 0; first < count; first += SEED_CHUNK) {
        const chunk = Array.from({ length: Math.min(SEED_CHUNK, count - first) }, (_, offset) => first + offset);
        await Promise.all(
          chunk.map(async (index) => {
            const at = new Date(start + index);
            const input = {
              email: `reader-${index}@example.com`,
              firstName: 'Reader',
              source: 'newsletter_footer',
              page: '/blog',
            };
            await store.subscribe(input, at);
            await store.confirmSubscriber({ ...input, signUp: { at: at.toISOString(), page: '/blog' } }, at);
          }),
        );
      }
    },

    /** A mailing's progress as the admin page shows it: entries queued, sent, failed… */
    progress: (mailing: string) => backend.counters(KEYS.mailingCounts(mailing)),

    /**
     * Every entry of a mailing: its id, its status, and whether a claim that has not ended at
     * `now` holds it (claimed, its outcome not recorded).
     */
    async entries(mailing: string, now: number): Promise<{ id: string; status: string; leased: boolean }[]> {
      const ids = await backend.members(KEYS.outboxAll, { offset: 0, limit: Number.MAX_SAFE_INTEGER });
      const values = await backend.get(ids.flatMap((id) => [KEYS.outboxState(id), KEYS.outboxLease(id)]));
      return ids.flatMap((id, index) => {
        const state = JSON.parse(values[2 * index] ?? 'null') as OutboxState | null;
        const lease = JSON.parse(values[2 * index + 1] ?? 'null') as Lease | null;
        if (state?.mailing !== mailing) return [];
        return [{ id, status: state.status, leased: lease !== null && lease.until > now }];
      });
    },

    close: () => backend.close(),
  };
}

export type BenchStore = ReturnType<typeof openBenchStore>;
