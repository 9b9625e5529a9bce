/**
 * One contract, two adapters: the Upstash adapter with the real @upstash/redis client against a
 * real redis-server (through the REST bridge), and the embedded SQLite store in a temp folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ChallengeSpentError, IdempotencyKeyReusedError } from '../../functions/_lib/store/errors';
import { OUTBOX_LEASE_MS } from '../../functions/_lib/store/outbox-state';
import { LEGACY_CAMPAIGN_COUNTERS } from '../../functions/_lib/store/keys';
import { DATABASE_FILE } from '../../functions/_lib/store/sqlite/database';
import type { NewOutboxEntry, SpentChallenge } from '../../functions/_lib/store/types';
import { createRedisStore, createSqliteStore, type SqliteStore, type Store } from '../support/stores';
import type { Lead } from '../../src/shared/records';
import { leadEntries } from '../support/outbox-entries';
import { useUpstash } from '../support/store-setup';

interface Adapter {
  /** A store over fresh, empty data. */
  fresh: () => Promise<Store>;
  /** A new store instance over the same data, after the backing service restarted. */
  restart: () => Promise<Store>;
  /** Every key, member and value the data holds now, a line each, read past the store's verbs. */
  dump: () => Promise<string[]>;
  /** Sets a counter past the store's verbs, as an earlier version wrote it. */
  putCounter: (name: string, field: string, value: number) => Promise<void>;
}

// Persistent: the restart case reads back what was written before it.
const redis = useUpstash({ persistent: true });

const upstash: Adapter = {
  async fresh() {
    const client = redis.client();
    await client.flushdb();
    return createRedisStore(client);
  },
  async restart() {
    await redis.redis().restart();
    return createRedisStore(redis.client());
  },
  async dump() {
    const client = redis.client();
    const lines: string[] = [];
    for (const key of await client.keys('*')) {
      const type = await client.type(key);
      const value =
        type === 'string'
          ? await client.get(key)
          : type === 'hash'
            ? await client.hgetall(key)
            : type === 'zset'
              ? await client.zrange(key, 0, -1, { withScores: true })
              : type === 'list'
                ? await client.lrange(key, 0, -1)
                : await client.smembers(key);
      lines.push(`${key} ${JSON.stringify(value)}`);
    }
    return lines;
  },
  async putCounter(name, field, value) {
    await redis.client().hset(name, { [field]: value });
  },
};

const folders: string[] = [];
const opened: SqliteStore[] = [];
let currentFolder = '';
const open = (folder: string) => {
  const store = createSqliteStore(folder);
  opened.push(store);
  return store;
};
const embedded: Adapter = {
  async fresh() {
    currentFolder = mkdtempSync(path.join(tmpdir(), 'store-contract-'));
    folders.push(currentFolder);
    return open(currentFolder);
  },
  async restart() {
    return open(currentFolder);
  },
  async dump() {
    const { DatabaseSync } = await import('node:sqlite');
    const database = new DatabaseSync(path.join(currentFolder, DATABASE_FILE), { readOnly: true });
    try {
      const tables = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all();
      return tables.flatMap(({ name }) =>
        database
          .prepare(`SELECT * FROM "${String(name)}"`)
          .all()
          .map((row) => `${String(name)} ${JSON.stringify(row)}`),
      );
    } finally {
      database.close();
    }
  },
  async putCounter(name, field, value) {
    const { DatabaseSync } = await import('node:sqlite');
    const database = new DatabaseSync(path.join(currentFolder, DATABASE_FILE));
    try {
      database.prepare('INSERT INTO counters (name, field, value) VALUES (?, ?, ?)').run(name, field, value);
    } finally {
      database.close();
    }
  },
};

afterAll(() => {
  for (const store of opened) store.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const NOW = new Date('2026-11-20T10:00:00.000Z');
const LATER = new Date('2026-11-21T09:30:00.000Z');

/** A solved challenge that expires five minutes after NOW. */
const challenge = (id = crypto.randomUUID()): SpentChallenge => ({
  id,
  expiresAt: new Date(NOW.getTime() + 5 * 60_000),
});
const minutesAfterNow = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

/** A confirmation e-mail for an address, at most one an hour, as the newsletter forms compose it (its content does not matter here). */
const confirmationEntry = (email: string): NewOutboxEntry => ({
  id: crypto.randomUUID(),
  kind: 'confirmation',
  ref: email,
  to: email,
  message: { channel: 'mail', to: [email], subject: 'Please confirm', text: 'Confirm', html: '<p>Confirm</p>' },
  throttle: { key: `confirmation:${email}`, seconds: 3600 },
});

/** A lead's entries with a guide for the prospect, at most one an hour per address, as leads-create composes them. */
const withGuide = (lead: Lead): NewOutboxEntry[] => [
  ...leadEntries(lead),
  {
    id: crypto.randomUUID(),
    kind: 'guide',
    ref: lead.id,
    to: lead.email,
    message: { channel: 'mail', to: [lead.email], subject: 'Your guide', text: 'Guide', html: '<p>Guide</p>' },
    throttle: { key: `guide:${lead.email}`, seconds: 3600 },
  },
];

/** What a lead judged spam carries. */
const SPAM = { reasons: ['Akismet: spam', '7 links in the message (at most 3 allowed)'] };

/** The entry of the mailing `issue-1` for one subscriber, as the fan-out writes it. */
const issueOneEntry = (subscriber: { email: string }) => ({
  id: `issue-1:${subscriber.email}`,
  kind: 'newsletter' as const,
  ref: subscriber.email,
  to: subscriber.email,
  mailing: 'issue-1',
  message: {
    channel: 'mail' as const,
    to: [subscriber.email],
    subject: 'Issue 1',
    text: 'Hi',
    html: '<p>Hi</p>',
  },
});

describe.each([
  ['Upstash Redis', upstash],
  ['embedded SQLite store', embedded],
])('store contract: %s', (_name, adapter) => {
  test('keeps an internationalised address as given with its ASCII form, and a plain address without one', async () => {
    const store = await adapter.fresh();
    await store.subscribe(
      { email: 'jo@bücher.de', emailAscii: 'jo@xn--bcher-kva.de', firstName: 'Jo', source: 'website_footer' },
      NOW,
    );
    expect(await store.getSubscriber('jo@bücher.de')).toMatchObject({
      email: 'jo@bücher.de',
      emailAscii: 'jo@xn--bcher-kva.de',
      sources: ['website_footer'],
    });
    const { record: lead } = await store.createLead(
      { name: 'Jo', email: 'jo@bücher.de', emailAscii: 'jo@xn--bcher-kva.de', source: 'zoho_guide' },
      NOW,
    );
    expect(await store.listLeads({ offset: 0, limit: 5 })).toEqual([{ ...lead, delivery: [] }]);
    expect(lead.emailAscii).toBe('jo@xn--bcher-kva.de');
    await store.subscribe({ email: 'ada@example.com', firstName: 'Ada', source: 'website_footer' }, NOW);
    expect((await store.getSubscriber('ada@example.com'))?.emailAscii).toBeUndefined();
  });

  test('keeps one record per e-mail, pending until confirmed: a second subscription changes nothing', async () => {
    const store = await adapter.fresh();
    const first = await store.subscribe(
      { email: 'ada@example.com', firstName: 'Ada', source: 'website_footer', page: '/blog', policyDate: '2026-11-20' },
      NOW,
    );
    expect(first.created).toBe(true);
    expect(first.record).toEqual({
      email: 'ada@example.com',
      firstName: 'Ada',
      sources: ['website_footer'],
      createdAt: NOW.toISOString(),
      updatedAt: NOW.toISOString(),
      status: 'pending',
      consent: { subscribedAt: NOW.toISOString(), form: 'website_footer', page: '/blog', policyDate: '2026-11-20' },
    });
    const second = await store.subscribe(
      { email: 'ada@example.com', firstName: 'Mallory', lastName: 'Lovelace', source: 'newsletter_footer' },
      LATER,
    );
    expect(second.created).toBe(false);
    expect(second.record).toEqual(first.record);
    expect(await store.getSubscriber('ada@example.com')).toEqual(first.record);
    expect(await store.countSubscribers()).toBe(1);
  });

  test('a confirmation applies what the link carries, once; an unsubscription keeps the consent record', async () => {
    const store = await adapter.fresh();
    await store.subscribe({ email: 'ada@example.com', firstName: 'Ada', source: 'website_footer' }, NOW);
    const confirmed = await store.confirmSubscriber(
      {
        email: 'ada@example.com',
        firstName: 'Ada',
        lastName: 'Lovelace',
        source: 'newsletter_footer',
        policyDate: '2026-11-23',
      },
      LATER,
    );
    expect(confirmed?.changed).toBe(true);
    expect(confirmed?.record).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      sources: ['website_footer', 'newsletter_footer'],
      status: 'confirmed',
      createdAt: NOW.toISOString(),
      consent: { subscribedAt: NOW.toISOString(), confirmedAt: LATER.toISOString(), confirmedPolicyDate: '2026-11-23' },
    });
    const again = await store.confirmSubscriber(
      { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', source: 'newsletter_footer' },
      LATER,
    );
    expect(again?.changed).toBe(false);
    // One confirmation in the record, the figures' only source: the second link counts nothing.
    expect(await store.getSubscriber('ada@example.com')).toEqual(confirmed?.record);
    const left = await store.unsubscribe('ada@example.com', LATER);
    expect(left?.record).toMatchObject({
      status: 'unsubscribed',
      consent: { confirmedAt: LATER.toISOString(), unsubscribedAt: LATER.toISOString() },
    });
    expect(await store.subscriberStatusCounts()).toEqual({ pending: 0, confirmed: 0, unsubscribed: 1, bounced: 0 });
    expect(
      await store.confirmSubscriber({ email: 'nobody@example.com', firstName: 'N', source: 'website_footer' }, LATER),
    ).toBeUndefined();
    expect(await store.unsubscribe('nobody@example.com', LATER)).toBeUndefined();
  });

  test.each(['1234', 'true', 'null', '0', '[]', '{"a":1}', 'Zoë 🚀 Łukasz', '<img src=x onerror=alert(1)>'])(
    'gives names back as the same strings: %s',
    async (name) => {
      const store = await adapter.fresh();
      await store.subscribe(
        { email: 'n@example.com', firstName: name, lastName: name, source: 'newsletter_footer' },
        NOW,
      );
      const subscriber = await store.getSubscriber('n@example.com');
      expect(subscriber?.firstName).toBe(name);
      expect(subscriber?.lastName).toBe(name);
      const { record: lead } = await store.createLead(
        { name, email: 'n@example.com', source: 'contact_form', notes: name, company: name },
        NOW,
      );
      const [listed] = await store.listLeads({ offset: 0, limit: 1 });
      expect(listed).toEqual({ ...lead, delivery: [] });
      expect(listed?.name).toBe(name);
    },
  );

  test('200 concurrent subscriptions of distinct addresses leave exactly 200 records', async () => {
    const store = await adapter.fresh();
    await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        store.subscribe({ email: `person${index}@example.com`, firstName: `P${index}`, source: 'website_footer' }, NOW),
      ),
    );
    expect(await store.countSubscribers()).toBe(200);
    const all = await store.listSubscribers({ offset: 0, limit: 500 });
    expect(new Set(all.map((subscriber) => subscriber.email)).size).toBe(200);
  });

  test('50 concurrent subscriptions of one address leave exactly 1 record and queue exactly 1 confirmation', async () => {
    const store = await adapter.fresh();
    // The endpoints normalise e-mails with the shared schema (lower case) before the store sees them.
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        store.subscribe(
          {
            email: 'same@example.com',
            firstName: `Same ${index}`,
            source: index % 3 ? 'website_footer' : 'newsletter_footer',
          },
          NOW,
          { outbox: () => [confirmationEntry('same@example.com')] },
        ),
      ),
    );
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(results.filter((result) => result.queued.length > 0)).toHaveLength(1);
    expect(await store.countSubscribers()).toBe(1);
    expect(await store.listOutbox({ offset: 0, limit: 100 })).toHaveLength(1);
    // The first subscription made the record; the others changed nothing.
    const record = await store.getSubscriber('same@example.com');
    expect(record?.sources).toHaveLength(1);
    expect(results.find((result) => result.created)?.record).toEqual(record);
    // An hour on, one more may go out.
    const later = await store.subscribe(
      { email: 'same@example.com', firstName: 'Same', source: 'website_footer' },
      minutesAfterNow(60),
      { outbox: () => [confirmationEntry('same@example.com')] },
    );
    expect(later.queued).toHaveLength(1);
  });

  test('200 concurrent leads leave 200 leads, each with its own id', async () => {
    const store = await adapter.fresh();
    const leads = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        store.createLead({ name: `Lead ${index}`, email: `lead${index}@example.com`, source: 'zoho_guide' }, NOW),
      ),
    );
    expect(new Set(leads.map(({ record }) => record.id)).size).toBe(200);
    expect(await store.countLeads()).toBe(200);
    expect(await store.listLeads({ offset: 0, limit: 500 })).toHaveLength(200);
  });

  test('100 leads at once with the same first touch: every one stored, counted and queued', async () => {
    const store = await adapter.fresh();
    const attribution = { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'launch' };
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, index) =>
        store.createLead(
          { name: `Rush ${index}`, email: `rush${index}@example.com`, source: 'contact_form', attribution },
          NOW,
          { outbox: leadEntries },
        ),
      ),
    );
    // None fails for a conflict: a new lead's step checks only keys of its own.
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(await store.countLeads()).toBe(100);
    expect((await store.createdBetween(NOW.getTime(), NOW.getTime(), 200)).leads).toHaveLength(100);
    expect(await store.countOutbox()).toEqual({ total: 200, pending: 200, dead: 0 });
    const listed = await store.listLeads({ offset: 0, limit: 200 });
    expect(listed.map((lead) => lead.delivery?.length)).toEqual(Array.from({ length: 100 }, () => 2));
  });

  test('lists newest first, page by page', async () => {
    const store = await adapter.fresh();
    for (let index = 0; index < 5; index += 1) {
      await store.createLead(
        { name: `L${index}`, email: `l${index}@example.com`, source: 'contact_form' },
        new Date(NOW.getTime() + index * 1000),
      );
      await store.subscribe(
        { email: `s${index}@example.com`, firstName: `S${index}`, source: 'website_footer' },
        new Date(NOW.getTime() + index * 1000),
      );
    }
    expect((await store.listLeads({ offset: 0, limit: 2 })).map((lead) => lead.name)).toEqual(['L4', 'L3']);
    expect((await store.listLeads({ offset: 2, limit: 2 })).map((lead) => lead.name)).toEqual(['L2', 'L1']);
    expect((await store.listSubscribers({ offset: 4, limit: 2 })).map((subscriber) => subscriber.firstName)).toEqual([
      'S0',
    ]);
  });

  test('gives the records created in a span of time, oldest first, for the figures; counts honeypot hits per endpoint', async () => {
    const store = await adapter.fresh();
    await store.subscribe({ email: 'a@example.com', firstName: 'A', source: 'website_footer' }, NOW);
    await store.subscribe({ email: 'b@example.com', firstName: 'B', source: 'newsletter_footer' }, minutesAfterNow(1));
    // A known address signing up again is no new sign-up.
    await store.subscribe({ email: 'a@example.com', firstName: 'A', source: 'newsletter_footer' }, LATER);
    await store.createLead({ name: 'L', email: 'l@example.com', source: 'zoho_guide' }, LATER);
    await store.createLead({ name: 'Held', email: 'h@example.com', source: 'contact_form', spam: SPAM }, LATER);
    await store.recordHoneypot('subscribers', NOW);
    await store.recordHoneypot('subscribers', NOW);
    const created = async (from: Date, to: Date, limit = 10) => {
      const { leads, subscribers } = await store.createdBetween(from.getTime(), to.getTime(), limit);
      return {
        leads: leads.map((lead) => [lead.source, lead.createdAt]),
        subscribers: subscribers.map((subscriber) => [subscriber.email, subscriber.sources, subscriber.createdAt]),
      };
    };
    // Both ends included; a held lead is in no figure.
    expect(await created(NOW, LATER)).toEqual({
      leads: [['zoho_guide', LATER.toISOString()]],
      subscribers: [
        ['a@example.com', ['website_footer'], NOW.toISOString()],
        ['b@example.com', ['newsletter_footer'], minutesAfterNow(1).toISOString()],
      ],
    });
    expect(await created(minutesAfterNow(1), new Date(LATER.getTime() - 1))).toEqual({
      leads: [],
      subscribers: [['b@example.com', ['newsletter_footer'], minutesAfterNow(1).toISOString()]],
    });
    expect((await created(NOW, LATER, 1)).subscribers).toEqual([
      ['a@example.com', ['website_footer'], NOW.toISOString()],
    ]);
    expect(await store.honeypotCounts()).toEqual({ subscribers: 2 });
  });

  test("gives the dashboard's first view in one call, matching the separate queries", async () => {
    const store = await adapter.fresh();
    const leads: Lead[] = [];
    for (let index = 0; index < 3; index += 1) {
      await store.subscribe(
        { email: `d${index}@example.com`, firstName: '1234', source: 'website_footer' },
        new Date(NOW.getTime() + index),
      );
      leads.push(
        (await store.createLead({ name: 'null', email: `l${index}@example.com`, source: 'zoho_guide' }, LATER)).record,
      );
    }
    await store.confirmSubscriber({ email: 'd1@example.com', firstName: '1234', source: 'website_footer' }, LATER);
    // A lead answered leaves the dashboard's leads, which are the New ones.
    const won = leads[1]?.id ?? '';
    await store.updateLead(won, { status: 'won' }, LATER);
    const view = await store.dashboard({ offset: 0, limit: 2 });
    expect(view).toEqual({
      subscriberTotal: 3,
      subscriberStatus: { pending: 2, confirmed: 1, unsubscribed: 0, bounced: 0 },
      leadTotal: 3,
      outbox: { pending: 0, dead: 0 },
      subscribers: await store.listSubscribers({ offset: 0, limit: 2 }),
      leads: await store.listLeads({ offset: 0, limit: 2 }, { status: 'new' }),
      leadStatuses: { new: 2, replied: 0, booked: 0, won: 1, lost: 0 },
      spamHeld: 0,
    });
    expect(view.leads.map((lead) => lead.id).sort()).toEqual([leads[0]?.id, leads[2]?.id].sort());
    expect(view.subscribers.map((subscriber) => subscriber.email)).toEqual(['d2@example.com', 'd1@example.com']);
    expect(view.subscribers[0]?.firstName).toBe('1234');
  });

  test('keeps admin sessions until they expire or are deleted, and counts login attempts per window', async () => {
    const store = await adapter.fresh();
    await store.createSession('session-a', new Date(Date.now() + 60_000), 'tag-a');
    expect(await store.hasSession('session-a', new Date(), 'tag-a')).toBe(true);
    expect(await store.hasSession('session-a', new Date(Date.now() + 120_000), 'tag-a')).toBe(false);
    await store.deleteSession('session-a');
    expect(await store.hasSession('session-a', new Date(), 'tag-a')).toBe(false);
    expect(await store.hasSession('never-created', new Date(), 'tag-a')).toBe(false);
    const now = new Date();
    expect((await store.countLoginAttempt('ip-1', 900, now)).count).toBe(1);
    const second = await store.countLoginAttempt('ip-1', 900, now);
    expect(second.count).toBe(2);
    expect(second.resetAt).toBeGreaterThan(now.getTime() + 890_000);
    expect((await store.countLoginAttempt('ip-2', 900, now)).count).toBe(1);
    await store.clearLoginAttempts('ip-1');
    expect((await store.countLoginAttempt('ip-1', 900, now)).count).toBe(1);
    expect((await store.countLoginAttempt('ip-2', 900, now)).count).toBe(2);
  });

  test('a session belongs to the password it was opened with, and "Log out everywhere" ends every one opened before', async () => {
    const store = await adapter.fresh();
    const in5 = new Date(Date.now() + 5 * 60_000);
    await store.createSession('here', in5, 'tag-a');
    await store.createSession('there', in5, 'tag-a');
    expect(await store.hasSession('here', NOW, 'tag-b')).toBe(false);
    expect(await store.hasSession('here', NOW, 'tag-a')).toBe(true);
    await store.endAllSessions();
    expect([await store.hasSession('here', NOW, 'tag-a'), await store.hasSession('there', NOW, 'tag-a')]).toEqual([
      false,
      false,
    ]);
    // Opened right after, however close in time (the same millisecond included): live.
    await store.createSession('later', in5, 'tag-a');
    expect(await store.hasSession('later', NOW, 'tag-a')).toBe(true);
    await store.endAllSessions();
    await store.createSession('latest', in5, 'tag-a');
    expect([await store.hasSession('later', NOW, 'tag-a'), await store.hasSession('latest', NOW, 'tag-a')]).toEqual([
      false,
      true,
    ]);
  });

  test('100 simultaneous login attempts of one client each get their own number', async () => {
    const store = await adapter.fresh();
    const now = new Date();
    const attempts = await Promise.all(
      Array.from({ length: 100 }, () => store.countLoginAttempt('ip-burst', 900, now)),
    );
    expect(attempts.map((attempt) => attempt.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 100 }, (_, index) => index + 1),
    );
  });

  test('a write repeated with the same idempotency key is stored once and gives back the first answer', async () => {
    const store = await adapter.fresh();
    const { record: first } = await store.createLead(
      { name: 'Once', email: 'once@example.com', source: 'contact_form', notes: 'First try' },
      NOW,
      { idempotencyKey: 'leads-create:key-1' },
    );
    const again = await Promise.all(
      Array.from({ length: 5 }, () =>
        store.createLead(
          { name: 'Once', email: 'once@example.com', source: 'contact_form', notes: 'First try' },
          LATER,
          { idempotencyKey: 'leads-create:key-1' },
        ),
      ),
    );
    for (const { record } of again) expect(record).toEqual(first);
    expect(await store.countLeads()).toBe(1);

    const subscribed = await store.subscribe(
      { email: 'once@example.com', firstName: 'Once', source: 'website_footer' },
      NOW,
      { idempotencyKey: 'subscribers:key-1' },
    );
    expect(subscribed).toMatchObject({ created: true, repeated: false });
    const repeated = await store.subscribe(
      { email: 'once@example.com', firstName: 'Twice', source: 'newsletter_footer' },
      LATER,
      { idempotencyKey: 'subscribers:key-1' },
    );
    expect(repeated).toEqual({
      record: subscribed.record,
      created: false,
      repeated: true,
      queued: [],
    });
    expect(await store.getSubscriber('once@example.com')).toEqual(subscribed.record);
  });

  test('a key is bound to its body: the same key with another digest stores nothing and throws', async () => {
    const store = await adapter.fresh();
    const key = { idempotencyKey: 'leads-create:bound' };
    const input = { name: 'First', email: 'first@example.com', source: 'contact_form' };
    const { record: first } = await store.createLead(input, NOW, { ...key, bodyDigest: 'digest-a' });
    await expect(
      store.createLead({ ...input, name: 'Second' }, NOW, { ...key, bodyDigest: 'digest-b' }),
    ).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    expect((await store.createLead(input, LATER, { ...key, bodyDigest: 'digest-a' })).record).toEqual(first);
    await store.subscribe({ email: 'a@example.com', firstName: 'A', source: 'website_footer' }, NOW, {
      idempotencyKey: 'subscribers:bound',
      bodyDigest: 'digest-a',
    });
    await expect(
      store.subscribe({ email: 'b@example.com', firstName: 'B', source: 'website_footer' }, NOW, {
        idempotencyKey: 'subscribers:bound',
        bodyDigest: 'digest-b',
      }),
    ).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    expect(await store.countLeads()).toBe(1);
    expect(await store.countSubscribers()).toBe(1);
  });

  test('writes with different idempotency keys, or none, are each stored', async () => {
    const store = await adapter.fresh();
    const input = { name: 'Twice', email: 'twice@example.com', source: 'zoho_guide' };
    await store.createLead(input, NOW, { idempotencyKey: 'leads-create:key-a' });
    await store.createLead(input, NOW, { idempotencyKey: 'leads-create:key-b' });
    await store.createLead(input, NOW);
    await store.createLead(input, NOW);
    expect(await store.countLeads()).toBe(4);
    await store.subscribe({ email: 'twice@example.com', firstName: 'A', source: 'website_footer' }, NOW, {
      idempotencyKey: 'subscribers:key-a',
    });
    const second = await store.subscribe(
      { email: 'twice@example.com', firstName: 'B', source: 'newsletter_footer' },
      LATER,
      { idempotencyKey: 'subscribers:key-b' },
    );
    // Not a repeat: the second subscription is considered (and, as any re-subscription, changes nothing).
    expect(second).toMatchObject({
      created: false,
      repeated: false,
      record: { firstName: 'A', sources: ['website_footer'] },
    });
  });

  test('counts keyed by names such as constructor, __proto__ and toString stay numbers; records keep such sources', async () => {
    const store = await adapter.fresh();
    const sources = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'];
    for (const [index, source] of sources.entries()) {
      await store.subscribe({ email: `proto${index}@example.com`, firstName: 'P', source }, NOW);
      await store.createLead({ name: 'P', email: `proto${index}@example.com`, source }, NOW);
      await store.createLead({ name: 'P', email: `proto${index}@example.com`, source }, NOW);
      await store.recordHoneypot(source, NOW);
    }
    const expected = (count: number) => Object.fromEntries(sources.map((source) => [source, count]));
    const check = (counts: Record<string, number> | undefined, count: number) => {
      expect(counts).toBeDefined();
      expect(Object.keys(counts ?? {}).sort()).toEqual([...sources].sort());
      for (const source of sources) expect(Object.getOwnPropertyDescriptor(counts, source)?.value).toBe(count);
      expect(JSON.parse(JSON.stringify(counts))).toEqual(JSON.parse(JSON.stringify(expected(count))));
    };
    check(await store.honeypotCounts(), 1);
    const { leads, subscribers } = await store.createdBetween(NOW.getTime(), NOW.getTime(), 100);
    expect(leads.map((lead) => lead.source).sort()).toEqual([...sources, ...sources].sort());
    expect(subscribers.map((subscriber) => subscriber.sources)).toEqual(sources.map((source) => [source]));
  });

  test('a proof-of-work challenge is spent once: a second write with it stores nothing and throws', async () => {
    const store = await adapter.fresh();
    const solved = challenge();
    await store.createLead({ name: 'First', email: 'first@example.com', source: 'contact_form' }, NOW, {
      challenge: solved,
    });
    await expect(
      store.createLead({ name: 'Replay', email: 'replay@example.com', source: 'contact_form' }, NOW, {
        idempotencyKey: 'leads-create:replay',
        challenge: solved,
        outbox: leadEntries,
      }),
    ).rejects.toBeInstanceOf(ChallengeSpentError);
    // Any write spends it: a subscription cannot reuse a lead's challenge.
    await expect(
      store.subscribe({ email: 'replay@example.com', firstName: 'Replay', source: 'website_footer' }, NOW, {
        idempotencyKey: 'subscribers:replay',
        challenge: solved,
      }),
    ).rejects.toBeInstanceOf(ChallengeSpentError);
    expect((await store.listLeads({ offset: 0, limit: 10 })).map((lead) => lead.name)).toEqual(['First']);
    expect(await store.countSubscribers()).toBe(0);
    expect(await store.listOutbox({ offset: 0, limit: 10 })).toEqual([]);
    // The refused writes did not keep their idempotency keys either: sent again with a fresh challenge, they are stored.
    await store.createLead({ name: 'Replay', email: 'replay@example.com', source: 'contact_form' }, NOW, {
      idempotencyKey: 'leads-create:replay',
      challenge: challenge(),
    });
    const subscribed = await store.subscribe(
      { email: 'replay@example.com', firstName: 'Replay', source: 'website_footer' },
      NOW,
      { idempotencyKey: 'subscribers:replay', challenge: challenge() },
    );
    expect(subscribed).toMatchObject({ created: true, repeated: false });
    expect(await store.countLeads()).toBe(2);
  });

  test('the retry of a stored submission, with its spent challenge, gets the first answer', async () => {
    const store = await adapter.fresh();
    const solved = challenge();
    const input = { name: 'Retry', email: 'retry@example.com', source: 'contact_form' };
    const { record: first } = await store.createLead(input, NOW, {
      idempotencyKey: 'leads-create:retry',
      challenge: solved,
    });
    expect(
      (await store.createLead(input, minutesAfterNow(1), { idempotencyKey: 'leads-create:retry', challenge: solved }))
        .record,
    ).toEqual(first);
    const other = challenge();
    const subscribed = await store.subscribe(
      { email: 'retry@example.com', firstName: 'Retry', source: 'website_footer' },
      NOW,
      { idempotencyKey: 'subscribers:retry', challenge: other },
    );
    expect(
      await store.subscribe(
        { email: 'retry@example.com', firstName: 'Retry', source: 'website_footer' },
        minutesAfterNow(1),
        { idempotencyKey: 'subscribers:retry', challenge: other },
      ),
    ).toEqual({ record: subscribed.record, queued: [], created: false, repeated: true });
    expect(await store.countLeads()).toBe(1);
  });

  test('a challenge is spent until it expires, and no longer', async () => {
    const store = await adapter.fresh();
    const solved = challenge();
    const input = { name: 'Late', email: 'late@example.com', source: 'zoho_guide' };
    await store.createLead(input, NOW, { challenge: solved });
    await expect(store.createLead(input, minutesAfterNow(4), { challenge: solved })).rejects.toBeInstanceOf(
      ChallengeSpentError,
    );
    // At its expiry the mark is gone (the form endpoint refuses an expired challenge before the store sees it).
    await store.createLead(input, minutesAfterNow(5), { challenge: solved });
    await store.createLead(input, minutesAfterNow(6), { challenge: solved });
    expect(await store.countLeads()).toBe(3);
  });

  test('20 writes at once with the same challenge leave exactly one record', async () => {
    const store = await adapter.fresh();
    const solved = challenge();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, index) =>
        index % 2
          ? store.createLead({ name: `L${index}`, email: `l${index}@example.com`, source: 'contact_form' }, NOW, {
              challenge: solved,
              outbox: leadEntries,
            })
          : store.subscribe({ email: `s${index}@example.com`, firstName: `S${index}`, source: 'website_footer' }, NOW, {
              challenge: solved,
            }),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results)
      if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(ChallengeSpentError);
    expect((await store.countLeads()) + (await store.countSubscribers())).toBe(1);
  });

  test('a lead judged spam is held: kept for the Spam section, but not listed, counted or queued', async () => {
    const store = await adapter.fresh();
    const queued: Lead[] = [];
    const { record: held } = await store.createLead(
      {
        name: 'Spammy',
        email: 'spam@example.com',
        source: 'contact_form',
        notes: 'Buy now',
        attribution: { utm_source: 'spam', utm_campaign: 'spam' },
        spam: SPAM,
        contentCheck: { service: 'akismet', verdict: 'spam' },
      },
      NOW,
      {
        outbox: (lead) => {
          queued.push(lead);
          return leadEntries(lead);
        },
      },
    );
    expect(held).toMatchObject({ spam: SPAM, contentCheck: { service: 'akismet', verdict: 'spam' } });
    expect(queued).toEqual([]);
    expect(await store.listLeads({ offset: 0, limit: 10 })).toEqual([]);
    expect(await store.countLeads()).toBe(0);
    expect((await store.createdBetween(NOW.getTime(), NOW.getTime(), 10)).leads).toEqual([]);
    expect(await store.listOutbox({ offset: 0, limit: 10 })).toEqual([]);
    const view = await store.dashboard({ offset: 0, limit: 10 });
    expect(view).toMatchObject({ leadTotal: 0, leads: [], spamHeld: 1 });
    expect(await store.spamOverview({ offset: 0, limit: 10 })).toEqual({
      held: 1,
      leads: [held],
      honeypot: {},
      challengeFailures: {},
    });
  });

  test('the Spam section lists held leads newest first, page by page, beside the ordinary ones', async () => {
    const store = await adapter.fresh();
    for (let index = 0; index < 5; index += 1) {
      await store.createLead(
        { name: `Held ${index}`, email: `h${index}@example.com`, source: 'zoho_guide', spam: SPAM },
        minutesAfterNow(index),
      );
      await store.createLead(
        {
          name: `Lead ${index}`,
          email: `l${index}@example.com`,
          source: 'zoho_guide',
          contentCheck: { service: 'akismet', verdict: 'unchecked', error: 'HTTP 500' },
        },
        minutesAfterNow(index),
      );
    }
    const first = await store.spamOverview({ offset: 0, limit: 2 });
    expect(first.held).toBe(5);
    expect(first.leads.map((lead) => lead.name)).toEqual(['Held 4', 'Held 3']);
    expect((await store.spamOverview({ offset: 4, limit: 2 })).leads.map((lead) => lead.name)).toEqual(['Held 0']);
    const leads = await store.listLeads({ offset: 0, limit: 10 });
    expect(leads.map((lead) => lead.name)).toEqual(['Lead 4', 'Lead 3', 'Lead 2', 'Lead 1', 'Lead 0']);
    expect(leads[0]?.contentCheck).toEqual({ service: 'akismet', verdict: 'unchecked', error: 'HTTP 500' });
    expect(await store.countLeads()).toBe(5);
  });

  test('"Not spam" makes a held lead an ordinary one, counted under its arrival, with its entries queued', async () => {
    const store = await adapter.fresh();
    const attribution = { utm_source: 'linkedin', utm_medium: 'social', utm_campaign: 'autumn' };
    const { record: held } = await store.createLead(
      { name: 'Real', email: 'real@example.com', source: 'contact_form', attribution, spam: SPAM },
      NOW,
    );
    const { record: newer } = await store.createLead(
      { name: 'Newer', email: 'newer@example.com', source: 'zoho_guide' },
      LATER,
    );
    const releasedAt = new Date(LATER.getTime() + 3_600_000);
    const released = await store.releaseSpam(held.id, releasedAt, { outbox: leadEntries });
    expect(released?.record).toMatchObject({
      ...held,
      spam: { reasons: SPAM.reasons, releasedAt: releasedAt.toISOString() },
    });
    expect(released?.record.delivery?.map((delivery) => [delivery.kind, delivery.status])).toEqual([
      ['lead-notification', 'pending'],
      ['webhook', 'pending'],
    ]);
    // Listed where its arrival puts it, with the deliveries it now has.
    const leads = await store.listLeads({ offset: 0, limit: 10 });
    expect(leads.map((lead) => lead.id)).toEqual([newer.id, held.id]);
    expect(leads[1]).toEqual(released?.record);
    expect(await store.countLeads()).toBe(2);
    // Counted when it arrived, not when it was released.
    const { leads: counted } = await store.createdBetween(NOW.getTime(), releasedAt.getTime(), 10);
    expect(counted.map((lead) => [lead.id, lead.createdAt])).toEqual([
      [held.id, NOW.toISOString()],
      [newer.id, LATER.toISOString()],
    ]);
    const view = await store.dashboard({ offset: 0, limit: 10 });
    expect(view.spamHeld).toBe(0);
    // Queued in one step, at one moment: in no particular order.
    const queued = (await store.listOutbox({ offset: 0, limit: 10 })).map((entry) => `${entry.ref} ${entry.kind}`);
    expect(queued.sort()).toEqual([`${held.id} lead-notification`, `${held.id} webhook`]);
    expect(await store.spamOverview({ offset: 0, limit: 10 })).toMatchObject({ held: 0, leads: [] });
    // Released already, never held, or unknown: nothing to release.
    expect(await store.releaseSpam(held.id, releasedAt, { outbox: leadEntries })).toBeUndefined();
    expect(await store.releaseSpam(newer.id, releasedAt, { outbox: leadEntries })).toBeUndefined();
    expect(await store.releaseSpam(crypto.randomUUID(), releasedAt, { outbox: leadEntries })).toBeUndefined();
    expect(await store.listOutbox({ offset: 0, limit: 10 })).toHaveLength(2);
  });

  test('of 10 releases of one lead at once, exactly one queues its entries', async () => {
    const store = await adapter.fresh();
    const { record: held } = await store.createLead(
      { name: 'Once', email: 'once@example.com', source: 'contact_form', spam: SPAM },
      NOW,
    );
    const results = await Promise.all(
      Array.from({ length: 10 }, () => store.releaseSpam(held.id, LATER, { outbox: leadEntries })),
    );
    expect(results.filter((result) => result !== undefined)).toHaveLength(1);
    expect(await store.listOutbox({ offset: 0, limit: 50 })).toHaveLength(2);
    expect(await store.countLeads()).toBe(1);
    const { leads } = await store.createdBetween(NOW.getTime(), LATER.getTime(), 10);
    expect(leads.map((lead) => lead.id)).toEqual([held.id]);
  });

  test('counts submissions refused for their proof of work per endpoint, beside the honeypot', async () => {
    const store = await adapter.fresh();
    for (const endpoint of ['leads-create', 'leads-create', 'newsletter-subscribe', '__proto__', 'constructor'])
      await store.recordChallengeFailure(endpoint, NOW);
    await store.recordHoneypot('leads-create', NOW);
    const { honeypot, challengeFailures } = await store.spamOverview({ offset: 0, limit: 10 });
    expect(honeypot).toEqual({ 'leads-create': 1 });
    expect(Object.getPrototypeOf(challengeFailures)).toBeNull();
    expect(Object.entries(challengeFailures).sort()).toEqual([
      ['__proto__', 1],
      ['constructor', 1],
      ['leads-create', 2],
      ['newsletter-subscribe', 1],
    ]);
  });

  test('a throttled entry is queued once per its interval, however many writes carry it at once', async () => {
    const store = await adapter.fresh();
    const leads = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        store.createLead({ name: `Ask ${index}`, email: 'asker@example.com', source: 'zoho_guide' }, NOW, {
          outbox: withGuide,
        }),
      ),
    );
    expect(await store.countLeads()).toBe(10);
    const kinds = (await store.listOutbox({ offset: 0, limit: 100 })).map((entry) => entry.kind);
    expect(kinds.filter((kind) => kind === 'lead-notification')).toHaveLength(10);
    expect(kinds.filter((kind) => kind === 'webhook')).toHaveLength(10);
    expect(kinds.filter((kind) => kind === 'guide')).toHaveLength(1);
    const listed = await store.listLeads({ offset: 0, limit: 20 });
    expect(listed.filter((lead) => lead.delivery?.some((delivery) => delivery.kind === 'guide'))).toHaveLength(1);
    expect(new Set(leads.map(({ record }) => record.id)).size).toBe(10);

    // Another address is not held back; the same one is, until its hour has passed.
    await store.createLead({ name: 'Other', email: 'other@example.com', source: 'zoho_guide' }, minutesAfterNow(1), {
      outbox: withGuide,
    });
    await store.createLead({ name: 'Again', email: 'asker@example.com', source: 'zoho_guide' }, minutesAfterNow(59), {
      outbox: withGuide,
    });
    const { record: held } = await store.createLead(
      { name: 'Held', email: 'asker@example.com', source: 'zoho_guide', spam: SPAM },
      minutesAfterNow(59),
    );
    // A release within the hour queues the lead's other entries, and says so.
    const released = await store.releaseSpam(held.id, minutesAfterNow(59), { outbox: withGuide });
    expect(released?.record.delivery?.map((delivery) => delivery.kind)).toEqual(['lead-notification', 'webhook']);
    await store.createLead({ name: 'Later', email: 'asker@example.com', source: 'zoho_guide' }, minutesAfterNow(61), {
      outbox: withGuide,
    });
    const guides = (await store.listOutbox({ offset: 0, limit: 100 })).filter((entry) => entry.kind === 'guide');
    expect(guides.map((entry) => entry.to).sort()).toEqual([
      'asker@example.com',
      'asker@example.com',
      'other@example.com',
    ]);
  });

  test('a confirmation records the sign-up its link was sent for; a link sent before an unsubscription is refused', async () => {
    const store = await adapter.fresh();
    await store.subscribe(
      {
        email: 'back@example.com',
        firstName: 'Back',
        source: 'website_footer',
        page: '/blog',
        policyDate: '2026-01-01',
      },
      NOW,
    );
    const link = {
      email: 'back@example.com',
      firstName: 'Back',
      source: 'website_footer',
      signUp: { at: NOW.toISOString(), page: '/blog', policyDate: '2026-01-01' },
      sentAt: NOW.toISOString(),
    };
    expect((await store.confirmSubscriber(link, minutesAfterNow(5)))?.changed).toBe(true);
    await store.unsubscribe('back@example.com', minutesAfterNow(10));
    const refused = await store.confirmSubscriber(link, minutesAfterNow(20), {
      outbox: () => [confirmationEntry('x@example.com')],
    });
    expect(refused).toMatchObject({
      changed: false,
      refused: 'unsubscribed-since',
      record: { status: 'unsubscribed' },
    });
    expect(await store.subscriberStatusCounts()).toEqual({ pending: 0, confirmed: 0, unsubscribed: 1, bounced: 0 });
    expect(await store.listOutbox({ offset: 0, limit: 10 })).toEqual([]);

    // A new sign-up's link confirms again, with that sign-up as the consent and the first one kept.
    const again = await store.confirmSubscriber(
      {
        ...link,
        source: 'newsletter_footer',
        signUp: { at: minutesAfterNow(30).toISOString(), page: '/blog/post' },
        sentAt: minutesAfterNow(30).toISOString(),
      },
      minutesAfterNow(31),
    );
    expect(again?.changed).toBe(true);
    const record = await store.getSubscriber('back@example.com');
    expect(record).toMatchObject({
      status: 'confirmed',
      sources: ['website_footer', 'newsletter_footer'],
      consent: {
        subscribedAt: minutesAfterNow(30).toISOString(),
        form: 'newsletter_footer',
        page: '/blog/post',
        confirmedAt: minutesAfterNow(31).toISOString(),
        earlier: [
          {
            subscribedAt: NOW.toISOString(),
            form: 'website_footer',
            page: '/blog',
            policyDate: '2026-01-01',
            confirmedAt: minutesAfterNow(5).toISOString(),
            unsubscribedAt: minutesAfterNow(10).toISOString(),
          },
        ],
      },
    });
    expect(await store.subscriberStatusCounts()).toEqual({ pending: 0, confirmed: 1, unsubscribed: 0, bounced: 0 });
  });

  test('a link sent before the address bounced is refused; a new sign-up after the bounce confirms again', async () => {
    const store = await adapter.fresh();
    await store.subscribe({ email: 'bounce@example.com', firstName: 'Bo', source: 'website_footer' }, NOW);
    const link = {
      email: 'bounce@example.com',
      firstName: 'Bo',
      source: 'website_footer',
      signUp: { at: NOW.toISOString() },
      sentAt: NOW.toISOString(),
    };
    expect((await store.confirmSubscriber(link, minutesAfterNow(5)))?.changed).toBe(true);
    await store.markBounced('bounce@example.com', minutesAfterNow(10), 'SMTP 550 5.1.1 Mailbox unavailable');

    // The old link, opened again (a scanner, a second look): the address stays bounced.
    const refused = await store.confirmSubscriber(link, minutesAfterNow(20), {
      outbox: () => [confirmationEntry('x@example.com')],
    });
    expect(refused, 'an old link after a bounce').toMatchObject({
      changed: false,
      refused: 'bounced-since',
      record: { status: 'bounced' },
    });
    expect(await store.subscriberStatusCounts()).toEqual({ pending: 0, confirmed: 0, unsubscribed: 0, bounced: 1 });
    expect(await store.listOutbox({ offset: 0, limit: 10 })).toEqual([]);

    // Signing up again after the bounce sends a new link, and that one confirms.
    const again = await store.confirmSubscriber(
      { ...link, signUp: { at: minutesAfterNow(30).toISOString() }, sentAt: minutesAfterNow(30).toISOString() },
      minutesAfterNow(31),
    );
    expect(again).toMatchObject({ changed: true, record: { status: 'confirmed' } });
    expect(await store.subscriberStatusCounts()).toEqual({ pending: 0, confirmed: 1, unsubscribed: 0, bounced: 0 });
  });

  test('an entry is claimed by one claimer at a time until its lease ends; an outcome under a lost lease is ignored', async () => {
    const store = await adapter.fresh();
    const { record: lead } = await store.createLead(
      { name: 'Lease', email: 'lease@example.com', source: 'contact_form' },
      NOW,
      {
        outbox: leadEntries,
      },
    );
    const first = await store.claimOutbox(NOW, 10);
    expect(first.map((claimed) => claimed.entry.ref)).toEqual([lead.id, lead.id]);
    expect(first.map((claimed) => claimed.entry.message.channel).sort()).toEqual(['mail', 'webhook']);
    const ids = first.map((claimed) => claimed.entry.id);
    // Held by the first claim: neither a sweep nor the function's own delivery gets it.
    expect(await store.claimOutbox(minutesAfterNow(1), 10)).toEqual([]);
    expect(await store.claimOutbox(minutesAfterNow(1), 10, { ids })).toEqual([]);
    // The lease ends: a second claimer gets them, and the first one's late outcome is ignored.
    const second = await store.claimOutbox(new Date(NOW.getTime() + OUTBOX_LEASE_MS + 1), 10);
    expect(second.map((claimed) => claimed.entry.id).sort()).toEqual([...ids].sort());
    const late = first.map((claimed) => ({ claimed, outcome: { kind: 'delivered', via: 'smtp' } as const }));
    expect(await store.completeOutbox(late, minutesAfterNow(3))).toBe(0);
    const failed = second.map((claimed) => ({
      claimed,
      outcome: { kind: 'failed', error: 'HTTP 410', permanent: true } as const,
    }));
    expect(await store.completeOutbox(failed, minutesAfterNow(3))).toBe(2);
    expect(await store.countOutbox()).toEqual({ total: 2, pending: 0, dead: 2 });
    expect(await store.claimOutbox(minutesAfterNow(600), 10)).toEqual([]);
    // Only a dead entry can be retried; it is due at once.
    expect(await store.retryOutbox(ids[0] ?? '', minutesAfterNow(4))).toBe(true);
    expect(await store.retryOutbox(ids[0] ?? '', minutesAfterNow(4))).toBe(false);
    expect((await store.claimOutbox(minutesAfterNow(4), 10)).map((claimed) => claimed.entry.id)).toEqual([ids[0]]);
  });

  test('forgets the text of delivered entries only, oldest first, keeping their subjects and states', async () => {
    const store = await adapter.fresh();
    const leads: Lead[] = [];
    for (const index of [0, 1, 2])
      leads.push(
        (
          await store.createLead(
            { name: `Old ${index}`, email: `old${index}@example.com`, source: 'contact_form' },
            minutesAfterNow(index),
            { outbox: leadEntries },
          )
        ).record,
      );
    const claimed = await store.claimOutbox(minutesAfterNow(3), 10);
    expect(claimed).toHaveLength(6);
    // Lead n's entries are delivered at minute 3 + n, but for the webhook of lead 2, which fails for good.
    for (const item of claimed) {
      const index = leads.findIndex((lead) => lead.id === item.entry.ref);
      const outcome =
        index === 2 && item.entry.kind === 'webhook'
          ? ({ kind: 'failed', error: 'HTTP 410', permanent: true } as const)
          : ({ kind: 'delivered', via: 'smtp' } as const);
      expect(await store.completeOutbox([{ claimed: item, outcome }], minutesAfterNow(3 + index))).toBe(1);
    }
    const titles = async () =>
      (await store.listOutbox({ offset: 0, limit: 10 }))
        .flatMap((entry) => ('pruned' in entry.message ? [entry.message.title] : []))
        .sort();
    expect(await store.pruneOutbox(minutesAfterNow(4), 100)).toBe(2);
    expect(await titles()).toEqual(['New lead: Old 0', 'lead.created']);
    expect(await store.pruneOutbox(minutesAfterNow(4), 100)).toBe(0);
    expect(await store.pruneOutbox(minutesAfterNow(60), 2)).toBe(2);
    expect(await titles()).toEqual(['New lead: Old 0', 'New lead: Old 1', 'lead.created', 'lead.created']);
    expect(await store.pruneOutbox(minutesAfterNow(60), 100)).toBe(1);
    const listed = await store.listOutbox({ offset: 0, limit: 10 });
    expect(listed).toHaveLength(6);
    const pruned = listed.filter((entry) => 'pruned' in entry.message);
    expect(pruned).toHaveLength(5);
    expect(pruned.every((entry) => entry.status === 'delivered' && entry.deliveredAt)).toBe(true);
    // The entry that failed for good keeps its message, for a retry.
    expect(listed.find((entry) => entry.status === 'dead')?.message).toMatchObject({ channel: 'webhook' });
  });

  test('erases a subscriber on request', async () => {
    const store = await adapter.fresh();
    await store.subscribe({ email: 'erase@example.com', firstName: 'E', source: 'website_footer' }, NOW);
    expect(await store.deleteSubscriber('erase@example.com')).toEqual({ entries: [] });
    expect(await store.deleteSubscriber('erase@example.com')).toBeUndefined();
    expect(await store.getSubscriber('erase@example.com')).toBeUndefined();
    expect(await store.countSubscribers()).toBe(0);
  });

  test('takes an erased subscriber out of every count, and keeps no campaign name they chose', async () => {
    const store = await adapter.fresh();
    const campaign = { utm_source: 'linkedin', utm_medium: 'email', utm_campaign: 'outreach-jane-doe' };
    const jane = { email: 'jane@example.com', firstName: 'Jane', source: 'website_footer', attribution: campaign };
    const kept = { email: 'kept@example.com', firstName: 'Kept', source: 'website_footer' };
    await store.subscribe(jane, NOW);
    await store.confirmSubscriber(jane, NOW);
    // Unsubscribed, then back: two confirmations in the consent record.
    await store.unsubscribe(jane.email, NOW);
    await store.confirmSubscriber(jane, LATER);
    await store.subscribe(kept, NOW);
    await store.confirmSubscriber(kept, NOW);
    expect((await adapter.dump()).some((line) => line.includes('outreach-jane-doe'))).toBe(true);

    await store.deleteSubscriber(jane.email);
    // The figures count sign-ups and confirmations from the records of these: Jane's is gone.
    const { subscribers } = await store.createdBetween(NOW.getTime(), LATER.getTime(), 10);
    expect(subscribers.map((subscriber) => subscriber.email)).toEqual([kept.email]);
    expect(await store.subscriberStatusCounts()).toEqual({ pending: 0, confirmed: 1, unsubscribed: 0, bounced: 0 });
    expect((await adapter.dump()).filter((line) => line.includes('outreach-jane-doe'))).toEqual([]);
  });

  test.each(['lead', 'subscriber'] as const)(
    'erasing a %s deletes the per-campaign counters of earlier versions, which may name a campaign they chose',
    async (kind) => {
      const store = await adapter.fresh();
      const lead = await store.createLead({ name: 'Jo', email: 'jo@example.com', source: 'contact_form' }, NOW);
      await store.subscribe({ email: 'jo@example.com', firstName: 'Jo', source: 'website_footer' }, NOW);
      for (const name of LEGACY_CAMPAIGN_COUNTERS) await adapter.putCounter(name, 'linkedin\temail\touting-jo', 1);
      expect((await adapter.dump()).some((line) => line.includes('outing-jo'))).toBe(true);

      if (kind === 'lead') await store.deleteLead(lead.record.id);
      else await store.deleteSubscriber('jo@example.com');
      expect((await adapter.dump()).filter((line) => line.includes('outing-jo'))).toEqual([]);
    },
  );

  test('"Don\'t send" is for good, and so is a send: neither undoes the other', async () => {
    const store = await adapter.fresh();
    const declined = { id: 'post-a', subject: 'Post A' };
    const sent = { id: 'issue-1', subject: 'Issue 1' };
    expect(await store.skipMailing(declined, NOW)).toMatchObject({ status: 'skipped' });
    expect(await store.requestMailing(declined, 'owner', 'https://example.com', LATER)).toMatchObject({
      record: { status: 'skipped' },
      started: false,
    });
    expect(await store.requestMailing(sent, 'owner', 'https://example.com', LATER)).toMatchObject({ started: true });
    expect(await store.skipMailing(sent, LATER)).toBeUndefined();
    expect(await store.mailingsFanningOut()).toEqual(['issue-1']);
  });

  test("the dashboard counts the newsletter's waiting e-mails with the rest of the outbox", async () => {
    const store = await adapter.fresh();
    const reader = { email: 'reader@example.com', firstName: 'Reader', source: 'website_footer' };
    await store.subscribe(reader, NOW);
    await store.confirmSubscriber(reader, NOW);
    await store.requestMailing({ id: 'issue-1', subject: 'Issue 1' }, 'owner', 'https://example.com', LATER);
    await store.fanOutMailing('issue-1', LATER, 10, issueOneEntry);
    expect(await store.countOutbox()).toEqual({ total: 1, pending: 1, dead: 0 });
    expect((await store.dashboard({ offset: 0, limit: 1 })).outbox).toEqual({ pending: 1, dead: 0 });
  });

  test('an erasure leaves nothing that names the address: not its sign-up key, not a mailing sent to it', async () => {
    const store = await adapter.fresh();
    const email = 'erase.me@example.com';
    const signUp = { email, firstName: 'Erase', source: 'website_footer' };
    await store.subscribe(signUp, NOW, { idempotencyKey: 'newsletter-subscribe:erase-1', bodyDigest: 'body-1' });
    await store.confirmSubscriber(signUp, NOW);
    await store.requestMailing({ id: 'issue-1', subject: 'Issue 1' }, 'owner', 'https://example.com', LATER);
    const step = await store.fanOutMailing('issue-1', LATER, 10, issueOneEntry);
    expect(step).toEqual({ written: 1, done: true });
    expect((await adapter.dump()).some((line) => line.includes(email))).toBe(true);

    expect(await store.deleteSubscriber(email)).toEqual({ entries: ['issue-1:erase.me@example.com'] });
    expect((await adapter.dump()).filter((line) => line.includes(email))).toEqual([]);
    // The sign-up's key, holding no address now, still answers a retry of the sign-up as a repeat.
    const retry = await store.subscribe(signUp, LATER, {
      idempotencyKey: 'newsletter-subscribe:erase-1',
      bodyDigest: 'body-1',
    });
    expect(retry).toMatchObject({ repeated: true });
  });

  test('erases a lead, held or not, with its outbox entries, from every list and count', async () => {
    const store = await adapter.fresh();
    const attribution = { utm_source: 'linkedin', utm_medium: 'social', utm_campaign: 'autumn' };
    const { record: erased } = await store.createLead(
      { name: 'Erase me', email: 'erase@example.com', source: 'contact_form', notes: 'Call me', attribution },
      NOW,
      { outbox: withGuide, idempotencyKey: 'leads-create:erased' },
    );
    const { record: kept } = await store.createLead(
      { name: 'Kept', email: 'kept@example.com', source: 'contact_form' },
      NOW,
      {
        outbox: leadEntries,
      },
    );
    const { record: held } = await store.createLead(
      { name: 'Held', email: 'held@example.com', source: 'zoho_guide', spam: SPAM },
      NOW,
    );
    // One of its entries is mid-delivery, under a lease: it goes too, and its completion changes nothing.
    const ofErased = (await store.listOutbox({ offset: 0, limit: 10 })).filter((entry) => entry.ref === erased.id);
    expect(ofErased.map((entry) => entry.kind).sort()).toEqual(['guide', 'lead-notification', 'webhook']);
    const claimed = await store.claimOutbox(NOW, 1, { ids: [ofErased[0]?.id ?? ''] });
    expect(claimed.map((item) => item.entry.ref)).toEqual([erased.id]);

    expect((await store.deleteLead(erased.id))?.entries.sort()).toEqual(ofErased.map((entry) => entry.id).sort());
    expect(await store.deleteLead(held.id)).toEqual({ entries: [] });
    expect(await store.deleteLead(erased.id)).toBeUndefined();
    expect(await store.deleteLead(crypto.randomUUID())).toBeUndefined();

    expect((await store.listLeads({ offset: 0, limit: 10 })).map((lead) => lead.id)).toEqual([kept.id]);
    expect(await store.countLeads()).toBe(1);
    const { leads: counted } = await store.createdBetween(NOW.getTime(), NOW.getTime(), 10);
    expect(counted.map((lead) => lead.id)).toEqual([kept.id]);
    const view = await store.dashboard({ offset: 0, limit: 10 });
    expect(view).toMatchObject({ leadTotal: 1, spamHeld: 0 });
    expect(await store.spamOverview({ offset: 0, limit: 10 })).toMatchObject({ held: 0, leads: [] });
    // Nothing of it is left to send, to list or to claim.
    const outbox = await store.listOutbox({ offset: 0, limit: 10 });
    expect(outbox.map((entry) => entry.ref)).toEqual([kept.id, kept.id]);
    expect(await store.countOutbox()).toEqual({ total: 2, pending: 2, dead: 0 });
    const late = claimed.map((item) => ({ claimed: item, outcome: { kind: 'delivered', via: 'smtp' } as const }));
    expect(await store.completeOutbox(late, minutesAfterNow(1))).toBe(0);
    expect(await store.countOutbox()).toEqual({ total: 2, pending: 2, dead: 0 });
    expect((await store.claimOutbox(minutesAfterNow(60), 10)).map((item) => item.entry.ref)).toEqual([
      kept.id,
      kept.id,
    ]);
    // The same submission sent again stores nothing: an erased lead stays erased.
    await store.createLead(
      { name: 'Erase me', email: 'erase@example.com', source: 'contact_form', notes: 'Call me', attribution },
      minutesAfterNow(1),
      { outbox: withGuide, idempotencyKey: 'leads-create:erased' },
    );
    expect(await store.countLeads()).toBe(1);
    expect(await store.countOutbox()).toMatchObject({ total: 2 });
  });

  test("keeps the owner's status and note on a lead, counted per status; a held or unknown lead is not changed", async () => {
    const store = await adapter.fresh();
    const { record: lead } = await store.createLead(
      { name: 'Ada', email: 'ada@example.com', source: 'contact_form' },
      NOW,
      { outbox: leadEntries },
    );
    const { record: held } = await store.createLead(
      { name: 'Held', email: 'held@example.com', source: 'zoho_guide', spam: SPAM },
      NOW,
    );
    const changed = await store.updateLead(lead.id, { status: 'booked', note: 'Friday' }, LATER);
    expect(changed).toMatchObject({ status: 'booked', note: 'Friday', updatedAt: LATER.toISOString() });
    expect(changed?.delivery?.map((delivery) => delivery.kind)).toEqual(['lead-notification', 'webhook']);
    expect(await store.listLeads({ offset: 0, limit: 10 })).toEqual([changed]);
    expect(await store.leadStatusCounts()).toEqual({ new: 0, replied: 0, booked: 1, won: 0, lost: 0 });

    expect(await store.updateLead(held.id, { status: 'won' }, LATER)).toBeUndefined();
    expect(await store.updateLead(crypto.randomUUID(), { status: 'won' }, LATER)).toBeUndefined();
    expect((await store.spamOverview({ offset: 0, limit: 10 })).leads[0]).not.toHaveProperty('status');
    expect(await store.leadStatusCounts()).toEqual({ new: 0, replied: 0, booked: 1, won: 0, lost: 0 });

    await store.deleteLead(lead.id);
    expect(await store.leadStatusCounts()).toEqual({ new: 0, replied: 0, booked: 0, won: 0, lost: 0 });
  });

  test('lists the confirmed subscribers in batches, in the order they subscribed, as they stand when each batch is read', async () => {
    const store = await adapter.fresh();
    const join = async (name: string, at: Date, confirm = true) => {
      const email = `${name}@example.com`;
      await store.subscribe({ email, firstName: name, source: 'website_footer' }, at);
      if (confirm) await store.confirmSubscriber({ email, firstName: name, source: 'website_footer' }, at);
    };
    // Two sign-ups in one millisecond: the walk orders them by address, and meets each once.
    for (const [index, name] of ['ada', 'bea', 'cy', 'dee', 'eve', 'fay'].entries())
      await join(name, new Date(NOW.getTime() + Math.min(index, 4)), name !== 'cy');
    await store.unsubscribe('eve@example.com', LATER);
    const walked: string[][] = [];
    let batch = await store.listConfirmedSubscribers(undefined, 2);
    walked.push(batch.subscribers.map((subscriber) => subscriber.firstName));
    // Meanwhile one more confirms, and one not met yet leaves.
    await join('gil', LATER);
    await store.unsubscribe('dee@example.com', LATER);
    while (batch.next) {
      batch = await store.listConfirmedSubscribers(batch.next, 2);
      walked.push(batch.subscribers.map((subscriber) => subscriber.firstName));
    }
    expect(walked.flat()).toEqual(['ada', 'bea', 'fay', 'gil']);
    expect(walked.every((names) => names.length <= 2)).toBe(true);
    expect(batch.subscribers.every((subscriber) => subscriber.status === 'confirmed')).toBe(true);
    expect(await store.listConfirmedSubscribers(undefined, 10)).toEqual({
      subscribers: [
        await store.getSubscriber('ada@example.com'),
        await store.getSubscriber('bea@example.com'),
        await store.getSubscriber('fay@example.com'),
        await store.getSubscriber('gil@example.com'),
      ],
    });
  });

  test('records survive a restart of the store', async () => {
    const store = await adapter.fresh();
    await store.subscribe({ email: 'kept@example.com', firstName: 'Kept', source: 'website_footer' }, NOW);
    const { record: lead } = await store.createLead(
      { name: 'Kept', email: 'kept@example.com', source: 'contact_form', notes: 'Still here' },
      NOW,
    );
    const restarted = await adapter.restart();
    expect((await restarted.getSubscriber('kept@example.com'))?.firstName).toBe('Kept');
    expect(await restarted.listLeads({ offset: 0, limit: 10 })).toEqual([{ ...lead, delivery: [] }]);
  });
});
