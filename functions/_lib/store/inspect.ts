// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/**
 * Reads no endpoint makes: tests and the e2e fixtures read records and counts back through them to
 * check what a write left, in the store's own terms rather than its keys or tables. getStore()
 * does not offer them, so no endpoint comes to depend on them.
 */
import type { Backend } from './backend-contract';
import { KEYS, type VisitTable } from './keys';
import { createStore } from './store';
import { subscriberOf } from './subscribers';

export function inspectionVerbs(backend: Backend) {
  return {
    async getSubscriber(email: string) {
      const [value] = await backend.get([KEYS.subscriber(email)]);
      return subscriberOf(value);
    },
    /** Submissions caught by the honeypot, per endpoint. */
    honeypotCounts: () => backend.counters(KEYS.honeypot),
    /** What a day's live visits tables and visitor set hold (empty once its figures are stored whole). */
    async liveVisitTables(day: string) {
      const tables: VisitTable[] = ['pages', 'entries', 'sources', 'campaigns', 'devices'];
      const counts = await Promise.all(tables.map((table) => backend.counters(KEYS.visitTable(day, table))));
      const [visitors] = await backend.distinctCounts([KEYS.visitors(day)]);
      return { visitors, tables: Object.fromEntries(tables.map((table, index) => [table, { ...counts[index] }])) };
    },
  };
}

/** The store's verbs and the reads above, for tests and fixtures. */
export function inspectableStore(backend: Backend) {
  return { ...createStore(backend), ...inspectionVerbs(backend) };
}

export type InspectableStore = ReturnType<typeof inspectableStore>;
