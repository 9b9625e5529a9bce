/**
 * The local server delivers after the answer on a thread of its own, as Netlify does on an
 * instance of its own: its functions hand a form's entries to that thread, and they reach a real SMTP server and a real webhook receiver from
 * the delivery thread, not from the thread that answered; a thread that dies is replaced and what
 * was handed to it is still delivered; stopping lets a started delivery finish.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { threadId as answeringThread } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { resetEnv } from '../../functions/_lib/platform/env';
import leadsCreate from '../../functions/leads-create';
import { createContext } from '../../scripts/harness/functions';
import { PROJECT_ROOT } from '../../scripts/harness/project';
import { startSmtpSink, type SmtpSink } from '../../scripts/harness/smtp-sink';
import { startWebhookReceiver, type WebhookReceiver } from '../../scripts/harness/webhook-receiver';
import {
  bundleDeliveryWorker,
  startDeliveryThread,
  type DeliveryThread,
  type ThreadReport,
} from '../../scripts/serve/delivery-thread';
import { loadFunctions } from '../../scripts/serve/functions-runner';
import type { Challenge } from 'altcha-lib';
import { proofFromHandler, solve } from '../support/solved-proofs';

const ENV = {
  SITE_LOCAL_RUN: 'true',
  RATE_LIMIT_PER_MINUTE: '1000',
  MAIL_FROM: 'Loopwork <hello@loopwork.example>',
  LEADS_NOTIFY_TO: 'team@loopwork.example',
  LEAD_WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
};

let smtp: SmtpSink;
let receiver: WebhookReceiver;
let folder: string;
let worker: string;
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  [smtp, receiver] = await Promise.all([startSmtpSink(), startWebhookReceiver()]);
  // Inside the project, so the bundle's package imports resolve from its node_modules.
  const bundles = path.join(PROJECT_ROOT, '.netlify');
  mkdirSync(bundles, { recursive: true });
  worker = await bundleDeliveryWorker(
    path.join(mkdtempSync(path.join(bundles, 'delivery-thread-test-')), 'worker.mjs'),
  );
});
afterAll(async () => {
  await Promise.all([smtp?.stop(), receiver?.stop()]);
  rmSync(path.dirname(worker), { recursive: true, force: true });
});

let thread: DeliveryThread;

beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'delivery-thread-'));
  const env = { ...ENV, LOCAL_STORE_DIR: folder, SMTP_URL: smtp.url, LEAD_WEBHOOK_URL: receiver.url };
  for (const key of Object.keys(env)) saved[key] = process.env[key];
  // The thread takes a copy of the environment when it starts, as it does in the server.
  Object.assign(process.env, env);
  resetEnv();
  smtp.messages.length = 0;
  receiver.requests.length = 0;
  // The thread runs at the lowest priority; on a machine busy with other tests, what it started may
  // take longer than the server's 5 s of grace to finish, and would rightly be left to the sweep.
  thread = startDeliveryThread(worker, { stopGraceMs: 60_000 });
});
afterEach(async () => {
  await thread.stop();
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetEnv();
  rmSync(folder, { recursive: true, force: true });
});

/** The contact form's submission, with its solved proof of work. */
const leadRequest = (email: string, altcha: string) =>
  new Request('http://localhost:4321/api/leads/create', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Nia Okafor',
      email,
      source: 'contact_form',
      notes: 'Hello',
      page: '/contact',
      altcha,
    }),
  });

/** Submits the contact form as the local server runs it; resolves with the answer and the delivery thread's report. */
async function submitLead(email: string) {
  let delivery: Promise<ThreadReport> | undefined;
  const response = await leadsCreate(
    leadRequest(email, await proofFromHandler()),
    createContext({
      ip: '203.0.113.10',
      afterAnswerDelivery: (ids) => (delivery = thread.deliver(ids)),
    }),
  );
  if (!delivery) throw new Error('the function handed nothing to the delivery thread');
  return { response, delivery };
}

describe('the delivery thread', () => {
  test("delivers a lead's notification and webhook off the thread that answered", async () => {
    const { response, delivery } = await submitLead('nia@example.com');
    expect(response.status).toBe(201);
    const report = await delivery;
    expect(report).toMatchObject({ delivered: 2, failed: 0, dead: 0 });
    expect(report.threadId).toBe(thread.threadId);
    expect(report.threadId).not.toBe(answeringThread);
    const [mail] = await smtp.waitFor(1);
    expect(mail?.replyTo?.text).toContain('nia@example.com');
    await receiver.waitFor(1);
  });

  test('a thread that dies is replaced, and a form sent meanwhile is delivered by the next one', async () => {
    const first = thread.threadId;
    await thread.crash();
    const { response, delivery } = await submitLead('after-crash@example.com');
    expect(response.status).toBe(201);
    const report = await delivery;
    expect(report).toMatchObject({ delivered: 2 });
    expect(report.threadId).not.toBe(first);
    expect(report.threadId).toBe(thread.threadId);
    const [mail] = await smtp.waitFor(1);
    expect(mail?.replyTo?.text).toContain('after-crash@example.com');
  });

  test('stopping lets a delivery that has started finish', async () => {
    const { delivery } = await submitLead('before-stop@example.com');
    await thread.stop();
    await expect(delivery).resolves.toMatchObject({ delivered: 2 });
    await smtp.waitFor(1);
  });
});

describe('the local server', () => {
  let root: string;

  beforeEach(() => {
    // A project root of its own (as scripts/serve/isolated.ts makes), so its bundles stay apart.
    root = mkdtempSync(path.join(tmpdir(), 'delivery-thread-server-'));
    for (const entry of ['functions', path.join('src', 'shared'), path.join('src', 'site.config.ts'), 'package.json'])
      cpSync(path.join(PROJECT_ROOT, entry), path.join(root, entry), { recursive: true });
    symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(root, 'node_modules'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test("hands a form's entries to its delivery thread, which delivers them", async () => {
    const functions = await loadFunctions(root);
    try {
      const challenge = await functions.handle(new Request('http://localhost:4321/api/challenge'), '203.0.113.11');
      const altcha = await solve((await challenge?.json()) as Challenge);
      const response = await functions.handle(leadRequest('served@example.com', altcha), '203.0.113.10');
      expect(response?.status).toBe(201);
      const [mail] = await smtp.waitFor(1);
      expect(mail?.replyTo?.text).toContain('served@example.com');
      await receiver.waitFor(1);
      await vi.waitFor(() => expect(functions.deliveryThread.attempted).toBe(2));
      expect(functions.deliveryThread.threadId).not.toBe(answeringThread);
    } finally {
      await functions.stop();
    }
  });
});
