/**
 * What failed is delivered later, on both stores: the sweep retries it on a clock the tests move,
 * against a real SMTP server and webhook receiver on 127.0.0.1 that fail on purpose, within its
 * deadlines, once and only once (tests/support/delivery-setup.ts).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test, vi } from 'vitest';
import { resetEnv } from '../../functions/_lib/platform/env';
import { leadEntries } from '../../functions/_lib/delivery/entries';
import { SWEEP_EARLY_MS, sweep } from '../../functions/_lib/delivery/outbox';
import { OUTBOX_LEASE_MS } from '../../functions/_lib/store/outbox-state';
import leadsCreate from '../../functions/leads-create';
import { ORIGIN, smtp, receiver, store, describeOnEachStore, postJson, CONTACT } from '../support/delivery-setup';

/**
 * Runs the scheduled sweep once in a process of its own (a restarted server, Netlify's next
 * invocation), its clock `offsetMs` ahead; answers what it printed when done.
 */
async function sweepInNewProcess(offsetMs: number): Promise<string> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('../support/sweep-once.ts', import.meta.url))], {
    env: { ...process.env, CLOCK_OFFSET_MS: String(offsetMs) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the sweep process exited with ${String(code)}: ${output}`);
  return output.trim().split('\n').at(-1) ?? '';
}

/** Webhooks the receiver accepted, by webhook-id. */
function accepted() {
  const ids = receiver.requests
    .filter((request) => request.status === 204)
    .map((request) => String(request.headers['webhook-id']));
  return { ids, unique: new Set(ids) };
}

describeOnEachStore('retries', (backend) => {
  /**
   * A lead stored now, with its team notification and webhook waiting, which meet an SMTP server
   * that stalls and a webhook receiver that never answers; answers the time it was stored.
   */
  async function leadMeetingSilence(name: string, email: string): Promise<Date> {
    receiver.answer('hang');
    smtp.behave('stall');
    const now = new Date();
    const settings = { origin: ORIGIN, notifyTo: ['team@loopwork.example'], webhookHost: new URL(receiver.url).host };
    await store.createLead({ name, email, source: 'contact_form' }, now, {
      outbox: (lead) => leadEntries(lead, settings),
    });
    return now;
  }

  test('SMTP down and the webhook failing for a while: everything is delivered once they are back, each webhook-id accepted once', async () => {
    await smtp.stop();
    receiver.answer(500);
    for (const index of [1, 2, 3])
      expect(
        (await postJson(leadsCreate, '/api/leads/create', { ...CONTACT, email: `down${index}@example.com` })).status,
      ).toBe(201);
    const start = Date.now();
    const at = (minutes: number) => () => new Date(start + minutes * 60_000);
    expect(smtp.messages).toHaveLength(0);
    expect(receiver.requests).toHaveLength(3);
    const waiting = (await store.listLeads({ offset: 0, limit: 10 })).flatMap((lead) => lead.delivery ?? []);
    expect(waiting.map((delivery) => [delivery.status, delivery.attempts])).toEqual(Array(6).fill(['pending', 1]));
    expect(waiting.find((delivery) => delivery.kind === 'webhook')?.lastError).toBe('HTTP 500');
    expect(waiting.find((delivery) => delivery.kind === 'lead-notification')?.lastError).toMatch(
      /^SMTP ESOCKET: connect ECONNREFUSED/,
    );

    // Due after the backoff, 1 minute after the first attempt, then 2: a run of the sweep more than
    // half a minute before that leaves them.
    expect(await sweep(store, { now: at(0.4) })).toEqual({ delivered: 0, failed: 0, dead: 0 });
    expect(await sweep(store, { now: at(1.1) })).toEqual({ delivered: 0, failed: 6, dead: 0 });
    expect(await sweep(store, { now: at(2) })).toEqual({ delivered: 0, failed: 0, dead: 0 });

    await smtp.start();
    receiver.answer(204);
    expect(await sweep(store, { now: at(3.2) })).toEqual({ delivered: 6, failed: 0, dead: 0 });
    expect(await sweep(store, { now: at(60) })).toEqual({ delivered: 0, failed: 0, dead: 0 });
    expect(new Set(smtp.messages.map((mail) => mail.messageId)).size).toBe(3);
    expect(smtp.messages).toHaveLength(3);
    const { ids, unique } = accepted();
    expect(ids).toHaveLength(3);
    expect(unique.size).toBe(3);
    const delivered = (await store.listLeads({ offset: 0, limit: 10 })).flatMap((lead) => lead.delivery ?? []);
    expect(delivered.every((delivery) => delivery.status === 'delivered' && delivery.attempts === 3)).toBe(true);
  });

  test('a failure is retried 1, 2, 4 … minutes later, at most an hour apart, and after 24 hours ends dead; the owner retries it and it goes out', async () => {
    receiver.answer(503);
    await postJson(leadsCreate, '/api/leads/create', CONTACT);
    const webhook = async () =>
      (await store.listOutbox({ offset: 0, limit: 10 })).find((entry) => entry.kind === 'webhook');
    const start = Date.parse((await webhook())?.createdAt ?? '');
    const gaps: number[] = [];
    let last = start;
    for (let round = 0; round < 60; round += 1) {
      const entry = await webhook();
      if (entry?.status !== 'pending' || !entry.nextAttemptAt) break;
      const due = Date.parse(entry.nextAttemptAt);
      // In minutes, to the second (the first attempt ran a few milliseconds after the lead was stored).
      gaps.push(Math.round((due - last) / 1000) / 60);
      last = due;
      // A run of the sweep more than half a minute before it is due leaves it; one at the moment it is takes it.
      expect((await sweep(store, { now: () => new Date(due - SWEEP_EARLY_MS - 1000) })).failed).toBe(0);
      const report = await sweep(store, { now: () => new Date(due) });
      expect(report.failed + report.dead).toBe(1);
    }
    expect(gaps.slice(0, 8)).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    expect(Math.max(...gaps)).toBe(60);
    expect(last - start).toBeLessThanOrEqual(24 * 3600_000);
    const dead = await webhook();
    expect(dead?.status).toBe('dead');
    expect(dead?.lastError).toBe('HTTP 503 (gave up after 24 hours)');
    expect(receiver.requests).toHaveLength(gaps.length + 1);
    expect(new Set(receiver.requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    expect(await store.countOutbox()).toMatchObject({ pending: 0, dead: 1 });
    receiver.answer(204);
    expect(await store.retryOutbox(dead!.id, new Date())).toBe(true);
    expect(await store.retryOutbox(dead!.id, new Date())).toBe(false);
    expect(await sweep(store)).toEqual({ delivered: 1, failed: 0, dead: 0 });
    expect(accepted().ids).toEqual([dead!.id]);
  });

  test.each([
    ['12:00:03', '12:01:00'],
    ['12:00:45', '12:02:00'],
  ])(
    'a failure at %s is retried by the every-minute sweep at %s: a minute, give or take half of one',
    async (failedAt, retriedAt) => {
      receiver.answer(503);
      vi.useFakeTimers({ toFake: ['Date'], now: new Date(`2026-11-27T${failedAt}Z`) });
      await postJson(leadsCreate, '/api/leads/create', CONTACT);
      vi.useRealTimers();
      const runs = ['12:00:00', '12:01:00', '12:02:00'];
      const failures = [];
      for (const run of runs) failures.push((await sweep(store, { now: () => new Date(`2026-11-27T${run}Z`) })).failed);
      expect(failures).toEqual(runs.map((run) => (run === retriedAt ? 1 : 0)));
    },
  );

  test.each([
    ...[408, 429, 500, 502, 503].map((status) => [status, 'retried', 'pending'] as const),
    ...[400, 401, 403, 404, 409, 410, 422].map((status) => [status, 'dead at once', 'dead'] as const),
  ])('a webhook answered %i is %s', async (status, _label, expected) => {
    receiver.answer(status);
    await postJson(leadsCreate, '/api/leads/create', CONTACT);
    const [lead] = await store.listLeads({ offset: 0, limit: 1 });
    expect(lead?.delivery?.find((delivery) => delivery.kind === 'webhook')).toMatchObject({
      status: expected,
      attempts: 1,
      lastError: `HTTP ${status}`,
    });
  });

  test.each([301, 302, 303, 307, 308])(
    'a webhook answered %i is retried, its error saying where the receiver redirected',
    async (status) => {
      receiver.answer(status, { location: 'https://hooks.example.net/catch/123?key=x' });
      await postJson(leadsCreate, '/api/leads/create', CONTACT);
      const [lead] = await store.listLeads({ offset: 0, limit: 1 });
      expect(lead?.delivery?.find((delivery) => delivery.kind === 'webhook')).toMatchObject({
        status: 'pending',
        attempts: 1,
        lastError: `HTTP ${status}: the receiver redirected to https://hooks.example.net/catch/123; redirects are not followed, so set LEAD_WEBHOOK_URL to where it points`,
      });
      expect(receiver.requests).toHaveLength(1);
    },
  );

  test('a webhook that does not answer within 10 s, and an SMTP server that stalls past the attempt deadline, are retried', async () => {
    const now = await leadMeetingSilence('Slow', 'slow@example.com');
    const started = Date.now();
    const report = await sweep(store, { now: () => now, attemptDeadlineMs: 2000 });
    expect(report).toEqual({ delivered: 0, failed: 2, dead: 0 });
    // The webhook's own 10 s timeout is longer than this sweep's deadline: the deadline ended both.
    expect(Date.now() - started).toBeLessThan(9000);
    const [lead] = await store.listLeads({ offset: 0, limit: 1 });
    expect(lead?.delivery?.map(({ kind, status, lastError }) => ({ kind, status, lastError }))).toEqual([
      { kind: 'lead-notification', status: 'pending', lastError: 'no answer within 2 s' },
      { kind: 'webhook', status: 'pending', lastError: 'no answer within 2 s' },
    ]);

    smtp.behave('accept');
    const timedOut = await sweep(store, { now: () => new Date(now.getTime() + 61_000) });
    expect(timedOut).toEqual({ delivered: 1, failed: 1, dead: 0 });
    const [after] = await store.listLeads({ offset: 0, limit: 1 });
    expect(after?.delivery?.find((delivery) => delivery.kind === 'webhook')?.lastError).toBe('timed out after 10 s');
    receiver.answer(204);
    expect(await sweep(store, { now: () => new Date(now.getTime() + 4 * 60_000) })).toEqual({
      delivered: 1,
      failed: 0,
      dead: 0,
    });
  }, 30_000);

  test('a sweep ends within its budget: attempts still going at its end are cut off there and retried', async () => {
    const now = await leadMeetingSilence('Late', 'late@example.com');
    const started = Date.now();
    // The attempts' own deadline is the default 60 s: the budget ends them.
    const report = await sweep(store, { now: () => now, budgetMs: 3000 });
    expect(Date.now() - started).toBeLessThan(6000);
    expect(report).toEqual({ delivered: 0, failed: 2, dead: 0 });
    const [lead] = await store.listLeads({ offset: 0, limit: 1 });
    expect(lead?.delivery?.map(({ kind, status, lastError }) => ({ kind, status, lastError }))).toEqual([
      { kind: 'lead-notification', status: 'pending', lastError: 'no answer within 3 s' },
      { kind: 'webhook', status: 'pending', lastError: 'no answer within 3 s' },
    ]);
    // With less than a batch's least time left, nothing is claimed: it waits for the next sweep.
    smtp.behave('accept');
    receiver.answer(204);
    expect(await sweep(store, { now: () => new Date(now.getTime() + 61_000), budgetMs: 1500 })).toEqual({
      delivered: 0,
      failed: 0,
      dead: 0,
    });
    expect(await sweep(store, { now: () => new Date(now.getTime() + 61_000) })).toEqual({
      delivered: 2,
      failed: 0,
      dead: 0,
    });
  }, 30_000);

  test('a deployed site without SMTP_URL keeps its e-mails waiting, untried, and sends them once SMTP_URL is set', async () => {
    delete process.env.SITE_LOCAL_RUN;
    delete process.env.SMTP_URL;
    resetEnv();
    const now = new Date();
    const settings = { origin: ORIGIN, notifyTo: ['team@loopwork.example'], webhookHost: undefined };
    await store.createLead({ name: 'Waiting', email: 'waiting@example.com', source: 'contact_form' }, now, {
      outbox: (lead) => leadEntries(lead, settings),
    });
    for (const minute of [0, 1, 2, 3]) {
      expect(await sweep(store, { now: () => new Date(now.getTime() + minute * 60_000 + 1000) })).toEqual({
        delivered: 0,
        failed: 1,
        dead: 0,
      });
    }
    const [waiting] = await store.listOutbox({ offset: 0, limit: 1 });
    expect(waiting).toMatchObject({ status: 'pending', attempts: 0, lastError: 'E-mail is not set up: set SMTP_URL' });
    expect(Date.parse(waiting?.nextAttemptAt ?? '')).toBe(now.getTime() + 4 * 60_000 + 1000);

    process.env.SMTP_URL = smtp.url;
    resetEnv();
    expect(await sweep(store, { now: () => new Date(now.getTime() + 4 * 60_000 + 1000) })).toEqual({
      delivered: 1,
      failed: 0,
      dead: 0,
    });
    expect(smtp.messages.map((mail) => mail.subject)).toEqual(['New lead: Waiting – Contact form']);
  });

  test('a permanent refusal is dead at once: a 4xx webhook answer, an SMTP 550 for the recipient', async () => {
    receiver.answer(410);
    smtp.behave('reject-recipients');
    await postJson(leadsCreate, '/api/leads/create', CONTACT);
    const [lead] = await store.listLeads({ offset: 0, limit: 1 });
    expect(
      lead?.delivery?.map(({ kind, status, attempts, lastError }) => ({ kind, status, attempts, lastError })),
    ).toEqual([
      { kind: 'lead-notification', status: 'dead', attempts: 1, lastError: expect.stringMatching(/^SMTP 550/) },
      { kind: 'webhook', status: 'dead', attempts: 1, lastError: 'HTTP 410' },
    ]);
    expect(await sweep(store, { now: () => new Date(Date.now() + 3600_000) })).toEqual({
      delivered: 0,
      failed: 0,
      dead: 0,
    });
  });

  test('two sweeps at once never send one entry twice', async () => {
    const now = new Date();
    const settings = { origin: ORIGIN, notifyTo: ['team@loopwork.example'], webhookHost: new URL(receiver.url).host };
    for (let index = 0; index < 20; index += 1)
      await store.createLead({ name: `Lead ${index}`, email: `l${index}@example.com`, source: 'contact_form' }, now, {
        outbox: (lead) => leadEntries(lead, settings),
      });
    const [first, second] = await Promise.all([
      sweep(backend.open(), { batch: 3 }),
      sweep(backend.open(), { batch: 3 }),
    ]);
    expect(first!.delivered + second!.delivered).toBe(40);
    expect(smtp.messages).toHaveLength(20);
    expect(new Set(smtp.messages.map((mail) => mail.messageId)).size).toBe(20);
    const { ids, unique } = accepted();
    expect(ids).toHaveLength(20);
    expect(unique.size).toBe(20);
  });

  test('a function killed (SIGKILL) between storing a lead and delivering it: the next process delivers it, once, after the lease', async () => {
    smtp.behave('stall');
    const connections = smtp.connections();
    const child = spawn(process.execPath, [fileURLToPath(new URL('../support/store-then-die.ts', import.meta.url))], {
      env: { ...process.env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) =>
        chunk.toString().includes('stored') ? resolve() : reject(new Error(chunk.toString())),
      );
      child.once('exit', (code) => reject(new Error(`the function process exited with ${code}`)));
    });
    // The lead is stored and its e-mail is on its way to a server that never answers.
    while (smtp.connections() === connections) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill('SIGKILL');
    await exited;
    smtp.behave('accept');
    expect(smtp.messages).toHaveLength(0);
    const [lead] = await store.listLeads({ offset: 0, limit: 1 });
    expect(lead?.name).toBe('Killed Midway');

    // The next process runs the scheduled sweep: the killed one's claim holds until its lease
    // ends, so a sweep started at once sends nothing, and one started after the lease delivers.
    expect(await sweepInNewProcess(0)).toBe('swept');
    expect(smtp.messages).toHaveLength(0);
    expect(await sweepInNewProcess(OUTBOX_LEASE_MS + 1000)).toBe('swept');
    await smtp.waitFor(1);
    expect(smtp.messages.map((mail) => mail.subject)).toEqual(['New lead: Killed Midway – Contact form']);
    expect(accepted().ids).toHaveLength(1);
    const [done] = await store.listLeads({ offset: 0, limit: 1 });
    expect(done?.delivery?.every((delivery) => delivery.status === 'delivered')).toBe(true);
  });
});
