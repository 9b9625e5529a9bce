/**
 * The embedded store for local use: one JSON file in a git-ignored folder. Writes take a lock
 * file (so several processes, or several bundles of the functions in one process, never
 * interleave), re-read the file, apply the change and replace the file atomically by rename.
 */
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DailyCounts, Lead, LeadInput, LoginFailures, Page, Store, SubscribeInput, Subscriber } from './store-types';

interface Data {
  subscribers: Record<string, Subscriber>;
  leads: Lead[];
  honeypot: Record<string, number>;
  /** Admin session id → expiry (ISO). */
  sessions: Record<string, string>;
  /** Client → failed logins in the current window. */
  loginFailures: Record<string, LoginFailures>;
}

const emptyData = (): Data => ({ subscribers: {}, leads: [], honeypot: {}, sessions: {}, loginFailures: {} });

/** A lock older than this was left by a process that died while holding it. */
const STALE_LOCK_MS = 10_000;
const LOCK_WAIT_MS = 10_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createFileStore(directory: string): Store {
  const file = path.join(directory, 'store.json');
  const lockFile = path.join(directory, 'store.lock');
  // Commits of this module instance run one after another, so they do not poll the lock against each other.
  let queue: Promise<void> = Promise.resolve();

  /** The file as it is now, parsed afresh: what a write starts from. */
  async function readFresh(): Promise<Data> {
    try {
      return { ...emptyData(), ...(JSON.parse(await readFile(file, 'utf8')) as Partial<Data>) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyData();
      throw error;
    }
  }

  // Reads share one parse of the file until it changes (another write, here or in another
  // process): the dashboard asks for several figures at once from a file of megabytes.
  let cache: { version: string; data: Promise<Data> } | undefined;

  async function read(): Promise<Data> {
    const info = await stat(file).catch(() => undefined);
    const version = info ? `${info.mtimeMs}:${info.size}:${info.ino}` : 'none';
    if (cache?.version !== version) cache = { version, data: readFresh() };
    return cache.data;
  }

  async function acquireLock(): Promise<void> {
    await mkdir(directory, { recursive: true });
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (let attempt = 0; ; attempt += 1) {
      try {
        const handle = await open(lockFile, 'wx');
        await handle.close();
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const age = await stat(lockFile).then((info) => Date.now() - info.mtimeMs, () => 0);
        if (age > STALE_LOCK_MS) await rm(lockFile, { force: true });
        if (Date.now() > deadline) throw new Error(`Timed out waiting for ${lockFile}`);
        await sleep(Math.min(2 + attempt, 25));
      }
    }
  }

  /** Changes waiting for the lock; they are applied together, in order, with one write (a group commit). */
  let pending: { change: (data: Data) => unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void }[] = [];

  async function commit(): Promise<void> {
    const batch = pending;
    pending = [];
    try {
      await acquireLock();
    } catch (error) {
      for (const { reject } of batch) reject(error);
      return;
    }
    try {
      const data = await readFresh();
      const results = batch.map(({ change }) => change(data));
      const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(temporary, JSON.stringify(data));
      await rename(temporary, file);
      batch.forEach(({ resolve }, index) => resolve(results[index]));
    } catch (error) {
      for (const { reject } of batch) reject(error);
    } finally {
      await rm(lockFile, { force: true });
    }
  }

  function update<T>(change: (data: Data) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const first = pending.length === 0;
      pending.push({ change, resolve: (value) => resolve(value as T), reject });
      // One commit per batch: the first change of a batch schedules it behind the previous commit.
      if (first) queue = queue.then(commit, commit);
    });
  }

  const newestFirst = <T extends { createdAt: string }>(records: T[]) => [...records].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const pageOf = <T>(records: T[], { offset, limit }: Page) => records.slice(offset, offset + limit);

  function countByDay(records: { createdAt: string; source: string }[], days: string[]): DailyCounts {
    const wanted = new Set(days);
    const counts: DailyCounts = {};
    for (const record of records) {
      const day = record.createdAt.slice(0, 10);
      if (!wanted.has(day)) continue;
      const row = (counts[day] ??= {});
      row[record.source] = (row[record.source] ?? 0) + 1;
    }
    return counts;
  }

  const store: Store = {
    subscribe: (input: SubscribeInput, now: Date) =>
      update((data) => {
        const at = now.toISOString();
        const existing = data.subscribers[input.email];
        if (existing) {
          existing.firstName = input.firstName;
          if (input.lastName) existing.lastName = input.lastName;
          existing.updatedAt = at;
          if (!existing.sources.includes(input.source)) existing.sources.push(input.source);
          return { subscriber: structuredClone(existing), created: false };
        }
        const { source, ...person } = input;
        const subscriber: Subscriber = { ...person, sources: [source], createdAt: at, updatedAt: at };
        if (subscriber.lastName === undefined) delete subscriber.lastName;
        data.subscribers[input.email] = subscriber;
        return { subscriber: structuredClone(subscriber), created: true };
      }),

    createLead: (input: LeadInput, now: Date) =>
      update((data) => {
        const lead: Lead = JSON.parse(JSON.stringify({ id: crypto.randomUUID(), ...input, createdAt: now.toISOString() })) as Lead;
        data.leads.push(lead);
        return lead;
      }),

    recordHoneypot: (endpoint: string) =>
      update((data) => {
        data.honeypot[endpoint] = (data.honeypot[endpoint] ?? 0) + 1;
      }),

    countSubscribers: async () => Object.keys((await read()).subscribers).length,
    countLeads: async () => (await read()).leads.length,
    listSubscribers: async (page) => pageOf(newestFirst(Object.values((await read()).subscribers)), page),
    listLeads: async (page) => pageOf(newestFirst((await read()).leads), page),
    getSubscriber: async (email) => (await read()).subscribers[email],

    async dailyCounts(kind, days) {
      const data = await read();
      const records = kind === 'leads' ? data.leads : Object.values(data.subscribers).map((s) => ({ createdAt: s.createdAt, source: s.sources[0] ?? 'unknown' }));
      return countByDay(records, days);
    },

    honeypotCounts: async () => (await read()).honeypot,

    async dashboard(days, page) {
      const [subscriberTotal, leadTotal, subscriberDaily, leadDaily, subscribers, leads] = await Promise.all([
        store.countSubscribers(),
        store.countLeads(),
        store.dailyCounts('subscribers', days),
        store.dailyCounts('leads', days),
        store.listSubscribers(page),
        store.listLeads(page),
      ]);
      return { subscriberTotal, leadTotal, subscriberDaily, leadDaily, subscribers, leads };
    },

    deleteSubscriber: (email: string) =>
      update((data) => {
        const existed = email in data.subscribers;
        delete data.subscribers[email];
        return existed;
      }),

    createSession: (sessionId: string, expiresAt: Date) =>
      update((data) => {
        const now = Date.now();
        for (const [id, expiry] of Object.entries(data.sessions)) if (Date.parse(expiry) <= now) delete data.sessions[id];
        data.sessions[sessionId] = expiresAt.toISOString();
      }),

    hasSession: async (sessionId: string, now: Date) => {
      const expiry = (await read()).sessions[sessionId];
      return expiry !== undefined && Date.parse(expiry) > now.getTime();
    },

    deleteSession: (sessionId: string) =>
      update((data) => {
        delete data.sessions[sessionId];
      }),

    recordLoginFailure: (client: string, windowSeconds: number, now: Date) =>
      update((data) => {
        const current = data.loginFailures[client];
        const next = current && current.resetAt > now.getTime() ? { count: current.count + 1, resetAt: current.resetAt } : { count: 1, resetAt: now.getTime() + windowSeconds * 1000 };
        data.loginFailures[client] = next;
        return next;
      }),

    loginFailures: async (client: string, now: Date) => {
      const current = (await read()).loginFailures[client];
      return current && current.resetAt > now.getTime() ? current : { count: 0, resetAt: 0 };
    },
  };
  return store;
}
