/**
 * What the delivery tests share (tests/integration/delivery*.test.ts): a real SMTP server, webhook
 * receiver and Akismet stand-in on 127.0.0.1 for the whole file, each case run on both stores with
 * the functions pointed at all three, and the calls a visitor's browser makes. `store`, `smtp`,
 * `receiver` and `akismet` are set before each case: read them inside one.
 */
import { randomBytes } from 'node:crypto';
import type { ParsedMail } from 'mailparser';
import { afterAll, afterEach, beforeAll, beforeEach, describe, vi } from 'vitest';
import type leadsCreate from '../../functions/leads-create';
import { createContext } from '../../scripts/harness/functions';
import { startSmtpSink, type SmtpSink } from '../../scripts/harness/smtp-sink';
import { startWebhookReceiver, type WebhookReceiver } from '../../scripts/harness/webhook-receiver';
import { startFakeAkismet, type FakeAkismet } from './fake-akismet';
import { proofFromHandler } from './solved-proofs';
import { useStores } from './store-setup';
import type { Store, TestBackend } from './stores';

export type Handler = typeof leadsCreate;

export const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
export const ORIGIN = 'http://localhost:4321';

export let smtp: SmtpSink;
export let receiver: WebhookReceiver;
export let akismet: FakeAkismet;
/** The case's store, emptied before it. */
export let store: Store;

/**
 * The file's cases, `body`, run on each store: the peers started before them and stopped after,
 * each case given an empty store and the functions' settings for e-mail and the webhook.
 */
export function describeOnEachStore(title: string, body: (backend: TestBackend) => void): void {
  const stores = useStores();
  beforeAll(async () => {
    [smtp, receiver, akismet] = await Promise.all([startSmtpSink(), startWebhookReceiver(), startFakeAkismet()]);
  });
  afterAll(async () => {
    await Promise.all([smtp?.stop(), receiver?.stop(), akismet?.stop()]);
  });
  describe.each(stores.backends)(`${title} on %s`, (_name, backend) => {
    beforeEach(async () => {
      store = await stores.fresh(backend, {
        // These tests count the e-mails a sweep sends; the owner's weekly letter has tests of its own.
        WEEKLY_REPORT: 'off',
        RATE_LIMIT_PER_MINUTE: '1000',
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Loopwork <hello@loopwork.example>',
        LEADS_NOTIFY_TO: 'team@loopwork.example, owner@loopwork.example',
        LEAD_WEBHOOK_URL: receiver.url,
        LEAD_WEBHOOK_SECRET: SECRET,
      });
      await smtp.start().catch(() => undefined);
      smtp.behave('accept');
      smtp.messages.length = 0;
      receiver.requests.length = 0;
      receiver.answer(204);
    });
    afterEach(() => {
      vi.useRealTimers();
    });
    body(backend);
  });
}

/** Runs a handler as Netlify would and waits for what it handed to context.waitUntil. */
export async function call(
  handler: Handler,
  pathname: string,
  init: RequestInit & { ip?: string; params?: Record<string, string>; origin?: string } = {},
) {
  const pending: Promise<unknown>[] = [];
  const { ip = '203.0.113.10', params, origin = ORIGIN, ...rest } = init;
  const response = await handler(
    new Request(`${origin}${pathname}`, rest),
    createContext({ ip, params, waitUntil: (promise) => pending.push(promise) }),
  );
  await Promise.all(pending);
  return response;
}

/** The form endpoints: a post to one carries a freshly solved proof of work, as the site's forms send. */
const FORM_PATHS = new Set(['/api/leads/create', '/api/newsletter/subscribe', '/api/subscribers']);

export const postJson = async (handler: Handler, pathname: string, body: object, ip?: string) =>
  call(handler, pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(FORM_PATHS.has(pathname) ? { ...body, altcha: await proofFromHandler() } : body),
    ...(ip ? { ip } : {}),
  });

export const ATTRIBUTION = {
  landingPage: '/zoho?utm_source=linkedin&utm_campaign=spring-audit',
  referrer: 'www.linkedin.com',
  utm_source: 'linkedin',
  utm_medium: 'social',
  utm_campaign: 'spring-audit',
};
export const CONTACT = {
  name: 'Nia Okafor',
  email: 'nia@example.com',
  company: 'Okafor Bakeries',
  notes: 'We take orders by phone and e-mail.\nCan you help?',
  source: 'contact_form',
  page: '/contact',
  attribution: ATTRIBUTION,
};

/** The link of a text part's line `label: URL`. */
export function linkAfter(mail: ParsedMail, label: string): URL {
  const line = mail.text?.split('\n').find((candidate) => candidate.startsWith(`${label}: `));
  if (!line) throw new Error(`no "${label}" link in:\n${mail.text}`);
  return new URL(line.slice(label.length + 2));
}

export const addresses = (mail: ParsedMail, field: 'to' | 'replyTo') =>
  [mail[field]].flat().flatMap((group) => group?.value.map((address) => address.address) ?? []);
