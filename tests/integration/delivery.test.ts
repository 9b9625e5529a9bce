/**
 * Every lead reaches a person, on both stores: the handlers store a record and its outbox entries
 * in one step and deliver them after the answer, to a real SMTP server and a real webhook
 * receiver on 127.0.0.1; the sweep retries what failed, on a clock the tests move.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { ParsedMail } from 'mailparser';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { resetEnv } from '../../functions/_lib/platform/env';
import { leadEntries } from '../../functions/_lib/delivery/entries';
import { SWEEP_EARLY_MS, sweep } from '../../functions/_lib/delivery/outbox';
import { useStores } from '../support/store-setup';
import type { Store } from '../support/stores';
import { OUTBOX_LEASE_MS } from '../../functions/_lib/store/outbox-state';
import leadsCreate from '../../functions/leads-create';
import newsletterConfirm from '../../functions/newsletter-confirm';
import newsletterSubscribe from '../../functions/newsletter-subscribe';
import newsletterUnsubscribe from '../../functions/newsletter-unsubscribe';
import { createContext } from '../../scripts/harness/functions';
import { startSmtpSink, type SmtpSink } from '../../scripts/harness/smtp-sink';
import { startWebhookReceiver, type WebhookReceiver } from '../../scripts/harness/webhook-receiver';
import { GUIDE_PATHS } from '../../src/shared/pages';
import adminLogin from '../../functions/admin-login';
import adminSpam from '../../functions/admin-spam';
import { startFakeAkismet, type FakeAkismet } from '../support/fake-akismet';
import { legacyLinkToken } from '../support/legacy-links';
import { proofFromHandler } from '../support/solved-proofs';

type Handler = typeof leadsCreate;

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const ORIGIN = 'http://localhost:4321';

let smtp: SmtpSink;
let receiver: WebhookReceiver;
let akismet: FakeAkismet;
const stores = useStores();

beforeAll(async () => {
  [smtp, receiver, akismet] = await Promise.all([startSmtpSink(), startWebhookReceiver(), startFakeAkismet()]);
});
afterAll(async () => {
  await Promise.all([smtp?.stop(), receiver?.stop(), akismet?.stop()]);
});

/** Runs a handler as Netlify would and waits for what it handed to context.waitUntil. */
async function call(
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

const postJson = async (handler: Handler, pathname: string, body: object, ip?: string) =>
  call(handler, pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(FORM_PATHS.has(pathname) ? { ...body, altcha: await proofFromHandler() } : body),
    ...(ip ? { ip } : {}),
  });

const ATTRIBUTION = {
  landingPage: '/zoho?utm_source=linkedin&utm_campaign=spring-audit',
  referrer: 'www.linkedin.com',
  utm_source: 'linkedin',
  utm_medium: 'social',
  utm_campaign: 'spring-audit',
};
const CONTACT = {
  name: 'Nia Okafor',
  email: 'nia@example.com',
  company: 'Okafor Bakeries',
  notes: 'We take orders by phone and e-mail.\nCan you help?',
  source: 'contact_form',
  page: '/contact',
  attribution: ATTRIBUTION,
};

/** The link of a text part's line `label: URL`. */
function linkAfter(mail: ParsedMail, label: string): URL {
  const line = mail.text?.split('\n').find((candidate) => candidate.startsWith(`${label}: `));
  if (!line) throw new Error(`no "${label}" link in:\n${mail.text}`);
  return new URL(line.slice(label.length + 2));
}

/** A header as it was written (mailparser reads List-* headers into objects). */
const rawHeader = (mail: ParsedMail, name: string) =>
  mail.headerLines
    .find((header) => header.key === name)
    ?.line.slice(name.length + 1)
    .trim();

/** The RFC 8058 one-click URL of a message. */
const oneClickUrl = (mail: ParsedMail) =>
  new URL(/^<(.+)>$/.exec(rawHeader(mail, 'list-unsubscribe') ?? '')?.[1] ?? '');

const addresses = (mail: ParsedMail, field: 'to' | 'replyTo') =>
  [mail[field]].flat().flatMap((group) => group?.value.map((address) => address.address) ?? []);

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

describe.each(stores.backends)('delivery on %s', (_name, backend) => {
  let store: Store;

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

  test('a contact-form lead gives the team a notification to reply to, and a signed lead.created webhook', async () => {
    expect((await postJson(leadsCreate, '/api/leads/create', CONTACT)).status).toBe(201);
    const [mail] = await smtp.waitFor(1);
    expect(smtp.messages).toHaveLength(1);
    expect(addresses(mail!, 'to')).toEqual(['team@loopwork.example', 'owner@loopwork.example']);
    expect(addresses(mail!, 'replyTo')).toEqual(['nia@example.com']);
    expect(mail!.from?.text).toContain('hello@loopwork.example');
    expect(mail!.subject).toBe('New lead: Nia Okafor (Okafor Bakeries) – Contact form');
    for (const expected of [
      'E-mail: nia@example.com',
      'Company: Okafor Bakeries',
      '> We take orders by phone and e-mail.',
      `Sent from: ${ORIGIN}/contact`,
      'Campaign: spring-audit',
      'Source (utm): linkedin',
      'Medium (utm): social',
      'Referred by: www.linkedin.com',
      'Landing page: /zoho?utm_source=linkedin&utm_campaign=spring-audit',
    ])
      expect(mail!.text).toContain(expected);
    expect(mail!.html).toContain('<h1');
    expect(mail!.html).toContain('Okafor Bakeries');

    const [hook] = await receiver.waitFor(1);
    const payload = new Webhook(SECRET).verify(hook!.body, {
      'webhook-id': String(hook!.headers['webhook-id']),
      'webhook-timestamp': String(hook!.headers['webhook-timestamp']),
      'webhook-signature': String(hook!.headers['webhook-signature']),
    }) as { type: string; timestamp: string; data: Record<string, unknown> };
    expect(payload.type).toBe('lead.created');
    expect(payload.data).toMatchObject({
      name: 'Nia Okafor',
      email: 'nia@example.com',
      page: '/contact',
      attribution: ATTRIBUTION,
    });
    expect(() =>
      new Webhook(SECRET).verify(hook!.body.replace('Nia', 'Eve'), {
        'webhook-id': String(hook!.headers['webhook-id']),
        'webhook-timestamp': String(hook!.headers['webhook-timestamp']),
        'webhook-signature': String(hook!.headers['webhook-signature']),
      }),
    ).toThrow();

    const [lead] = await store.listLeads({ offset: 0, limit: 1 });
    expect(lead?.delivery?.map(({ kind, status, via }) => ({ kind, status, via }))).toEqual([
      { kind: 'lead-notification', status: 'delivered', via: 'smtp' },
      { kind: 'webhook', status: 'delivered', via: 'webhook' },
    ]);
    expect(hook!.headers['webhook-id']).toBe(lead?.delivery?.[1]?.id);
  });

  test('a name is shown as a name: an encoded-word in it cannot make Reply-To show another address', async () => {
    const name = '=?utf-8?B?Q0VPIDxjZW9AbG9vcHdvcmsudGVzdD4=?=';
    expect(Buffer.from('Q0VPIDxjZW9AbG9vcHdvcmsudGVzdD4=', 'base64').toString()).toBe('CEO <ceo@loopwork.test>');
    expect((await postJson(leadsCreate, '/api/leads/create', { ...CONTACT, name })).status).toBe(201);
    const [mail] = await smtp.waitFor(1);
    expect(mail!.replyTo?.value).toEqual([
      { address: 'nia@example.com', name: '= ?utf-8?B?Q0VPIDxjZW9AbG9vcHdvcmsudGVzdD4= ?=' },
    ]);
    expect(mail!.from?.value).toEqual([{ address: 'hello@loopwork.example', name: 'Loopwork' }]);
  });

  test('a name that spells an address cannot put a look-alike in Reply-To: no <, > or @ in a display name', async () => {
    expect(
      (await postJson(leadsCreate, '/api/leads/create', { ...CONTACT, name: 'CEO <ceo@loopwork.example>' })).status,
    ).toBe(201);
    const [mail] = await smtp.waitFor(1);
    const replyTo = mail!.headerLines.find((header) => header.key === 'reply-to')?.line ?? '';
    expect(replyTo, 'the Reply-To header as sent').toBe('Reply-To: "CEO ceo loopwork.example" <nia@example.com>');
    expect(mail!.replyTo?.value).toEqual([{ address: 'nia@example.com', name: 'CEO ceo loopwork.example' }]);
  });

  test('a name with quotes, commas and angle brackets stays one name beside the one address', async () => {
    const name = 'Zoë "Z" O\'Neil, <ceo@loopwork.test>';
    expect((await postJson(leadsCreate, '/api/leads/create', { ...CONTACT, name })).status).toBe(201);
    const [mail] = await smtp.waitFor(1);
    expect(mail!.replyTo?.value).toEqual([{ address: 'nia@example.com', name: expect.stringMatching(/^Zoë /) }]);
  });

  test('a guide request gives the prospect the guide e-mail, linking to the guide page', async () => {
    const request = {
      ...CONTACT,
      source: 'zoho_guide',
      notes: undefined,
      page: '/zoho',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
    };
    expect((await postJson(leadsCreate, '/api/leads/create', request)).status).toBe(201);
    const messages = await smtp.waitFor(2);
    const guide = messages.find((mail) => addresses(mail, 'to').includes('ada@example.com'));
    expect(guide?.subject).toBe('Your guide from Loopwork: connecting Zoho and Google Workspace');
    expect(guide?.text).toContain('Hi Ada,');
    expect(linkAfter(guide!, 'Read the guide').href).toBe(`${ORIGIN}${GUIDE_PATHS.zoho_guide}`);
    expect(guide?.html).toContain(`href="${ORIGIN}${GUIDE_PATHS.zoho_guide}"`);
    const team = messages.find((mail) => addresses(mail, 'to').includes('team@loopwork.example'));
    expect(addresses(team!, 'replyTo')).toEqual(['ada@example.com']);
  });

  test('a subscription is confirmed by the e-mailed link, POSTed from the page, and left by the one-click POST', async () => {
    const person = { email: 'grace@example.com', firstName: 'Grace Hopper', source: 'website_footer', page: '/blog' };
    expect((await postJson(newsletterSubscribe, '/api/newsletter/subscribe', person)).status).toBe(201);
    expect(await store.getSubscriber('grace@example.com')).toMatchObject({ status: 'pending' });
    expect(receiver.requests).toHaveLength(0);

    const [mail] = await smtp.waitFor(1);
    expect(addresses(mail!, 'to')).toEqual(['grace@example.com']);
    const confirm = linkAfter(mail!, 'Confirm my subscription');
    expect(confirm.pathname).toBe('/newsletter/confirm');
    const url = oneClickUrl(mail!);
    expect(rawHeader(mail!, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(url.pathname).toBe('/api/newsletter/unsubscribe');

    const token = confirm.searchParams.get('token');
    const confirmed = await postJson(newsletterConfirm, '/api/newsletter/confirm', { token });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toEqual({ ok: true, status: 'confirmed' });
    expect(await store.getSubscriber('grace@example.com')).toMatchObject({
      status: 'confirmed',
      consent: { form: 'website_footer', page: '/blog', confirmedAt: expect.any(String) },
    });
    const [hook] = await receiver.waitFor(1);
    const payload = new Webhook(SECRET).verify(hook!.body, {
      'webhook-id': String(hook!.headers['webhook-id']),
      'webhook-timestamp': String(hook!.headers['webhook-timestamp']),
      'webhook-signature': String(hook!.headers['webhook-signature']),
    }) as { type: string; data: { email: string; status: string } };
    expect(payload).toMatchObject({
      type: 'subscriber.confirmed',
      data: { email: 'grace@example.com', status: 'confirmed' },
    });
    // A second click confirms nothing more and sends no second webhook.
    expect((await postJson(newsletterConfirm, '/api/newsletter/confirm', { token })).status).toBe(200);
    expect(receiver.requests).toHaveLength(1);

    // A scanner's GET of the one-click URL changes nothing: it leads to the page with the button.
    const looked = await call(newsletterUnsubscribe, `${url.pathname}${url.search}`);
    expect(looked.status).toBe(303);
    expect(looked.headers.get('location')).toMatch(/^\/newsletter\/unsubscribe\?token=/);
    expect(await store.getSubscriber('grace@example.com')).toMatchObject({ status: 'confirmed' });

    const left = await call(newsletterUnsubscribe, `${url.pathname}${url.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(left.status).toBe(200);
    expect(await store.getSubscriber('grace@example.com')).toMatchObject({
      status: 'unsubscribed',
      consent: { unsubscribedAt: expect.any(String) },
    });

    // The confirmation link, opened again after the unsubscription (by a scanner, say), confirms nothing.
    const stale = await postJson(newsletterConfirm, '/api/newsletter/confirm', { token });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { error: string }).error).toMatch(/^You unsubscribed after this link was sent/);
    expect(await store.getSubscriber('grace@example.com')).toMatchObject({ status: 'unsubscribed' });
    expect(receiver.requests).toHaveLength(1);

    // Signing up again within the hour, after leaving: that page asks for the link in a new e-mail,
    // and it comes at once. A further sign-up within the hour sends no more.
    expect((await postJson(newsletterSubscribe, '/api/newsletter/subscribe', person)).status).toBe(201);
    const [, again] = await smtp.waitFor(2);
    expect(addresses(again!, 'to')).toEqual(['grace@example.com']);
    const renewed = await postJson(newsletterConfirm, '/api/newsletter/confirm', {
      token: linkAfter(again!, 'Confirm my subscription').searchParams.get('token'),
    });
    expect(renewed.status).toBe(200);
    expect(await store.getSubscriber('grace@example.com')).toMatchObject({ status: 'confirmed' });
    expect((await postJson(newsletterSubscribe, '/api/newsletter/subscribe', person)).status).toBe(201);
    const confirmations = (await store.listOutbox({ offset: 0, limit: 100 })).filter(
      (entry) => entry.kind === 'confirmation' && entry.to === 'grace@example.com',
    );
    expect(confirmations).toHaveLength(2);
  });

  test('a confirmation link opened after the address bounced confirms nothing, and says why', async () => {
    const person = { email: 'bo@example.com', firstName: 'Bo', source: 'website_footer', page: '/blog' };
    expect((await postJson(newsletterSubscribe, '/api/newsletter/subscribe', person)).status).toBe(201);
    const [mail] = await smtp.waitFor(1);
    const token = linkAfter(mail!, 'Confirm my subscription').searchParams.get('token');
    expect((await postJson(newsletterConfirm, '/api/newsletter/confirm', { token })).status).toBe(200);
    await store.markBounced('bo@example.com', new Date(Date.now() + 1000), 'SMTP 550 5.1.1 Mailbox unavailable');

    const stale = await postJson(newsletterConfirm, '/api/newsletter/confirm', { token });
    expect(stale.status, 'an old link after a bounce').toBe(409);
    expect(await stale.json()).toEqual({
      error: expect.stringMatching(/^Mail to this address was refused after this link was sent/),
      status: 'bounced',
    });
    expect(await store.getSubscriber('bo@example.com')).toMatchObject({ status: 'bounced' });
  });

  test('the Host a request names decides where e-mail links point only when it is a loopback name', async () => {
    const confirmLinkVia = async (origin: string, email: string) => {
      const body = { email, firstName: 'Ada', source: 'website_footer', altcha: await proofFromHandler() };
      const headers = { 'content-type': 'application/json' };
      const answer = await call(newsletterSubscribe, '/api/newsletter/subscribe', {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        origin,
      });
      expect(answer.status).toBe(201);
      const mail = smtp.messages.find((message) => addresses(message, 'to').includes(email));
      return { confirm: linkAfter(mail!, 'Confirm my subscription').origin, oneClick: oneClickUrl(mail!).origin };
    };
    expect(await confirmLinkVia('http://evil.example', 'host1@example.com')).toEqual({
      confirm: ORIGIN,
      oneClick: ORIGIN,
    });
    expect(await confirmLinkVia('http://localhost.evil.example:4321', 'host2@example.com')).toEqual({
      confirm: ORIGIN,
      oneClick: ORIGIN,
    });
    for (const [index, origin] of ['http://127.0.0.1:4399', 'http://[::1]:8080', 'http://localhost:5000'].entries())
      expect(await confirmLinkVia(origin, `loopback${index}@example.com`)).toEqual({
        confirm: origin,
        oneClick: origin,
      });
  });

  test('once a confirmation is sent, the outbox keeps it readable without its live links', async () => {
    const person = { email: 'ada@example.com', firstName: 'Ada Lovelace', source: 'website_footer' };
    expect((await postJson(newsletterSubscribe, '/api/newsletter/subscribe', person)).status).toBe(201);
    const [mail] = await smtp.waitFor(1);
    const confirmToken = linkAfter(mail!, 'Confirm my subscription').searchParams.get('token') ?? '';
    const leaveToken = oneClickUrl(mail!).searchParams.get('token') ?? '';
    await expect
      .poll(async () => (await store.listOutbox({ offset: 0, limit: 5 }))[0]?.status, { timeout: 10_000 })
      .toBe('delivered');
    const [entry] = await store.listOutbox({ offset: 0, limit: 5 });
    const kept = JSON.stringify(entry?.message);
    expect(confirmToken.length).toBeGreaterThan(20);
    expect(kept).not.toContain(confirmToken);
    expect(kept).not.toContain(leaveToken);
    expect(kept).toContain('Confirm my subscription');
    expect(kept).toContain('removed once sent');
  });

  test('the one-click POST is read as multipart/form-data too, as RFC 8058 recommends; without its field it unsubscribes nobody', async () => {
    const person = { email: 'edsger@example.com', firstName: 'Edsger', source: 'website_footer' };
    await postJson(newsletterSubscribe, '/api/newsletter/subscribe', person);
    const [mail] = await smtp.waitFor(1);
    const token = linkAfter(mail!, 'Confirm my subscription').searchParams.get('token');
    await postJson(newsletterConfirm, '/api/newsletter/confirm', { token });
    const url = oneClickUrl(mail!);

    const wrong = new FormData();
    wrong.set('List-Unsubscribe', 'Maybe');
    const refused = await call(newsletterUnsubscribe, `${url.pathname}${url.search}`, { method: 'POST', body: wrong });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toMatch(/List-Unsubscribe=One-Click/);
    const broken = await call(newsletterUnsubscribe, `${url.pathname}${url.search}`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=nothing-here' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(broken.status).toBe(400);
    expect(await store.getSubscriber('edsger@example.com')).toMatchObject({ status: 'confirmed' });

    const oneClick = new FormData();
    oneClick.set('List-Unsubscribe', 'One-Click');
    const request = new Request(`${ORIGIN}${url.pathname}${url.search}`, { method: 'POST', body: oneClick });
    expect(request.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    const left = await call(newsletterUnsubscribe, `${url.pathname}${url.search}`, { method: 'POST', body: oneClick });
    expect(left.status).toBe(200);
    expect(await store.getSubscriber('edsger@example.com')).toMatchObject({ status: 'unsubscribed' });
  });

  test('links that are forged, expired or for the wrong purpose are refused with what to do', async () => {
    await postJson(newsletterSubscribe, '/api/newsletter/subscribe', {
      email: 'late@example.com',
      firstName: 'Late',
      source: 'website_footer',
    });
    const [mail] = await smtp.waitFor(1);
    const token = linkAfter(mail!, 'Confirm my subscription').searchParams.get('token') ?? '';
    const forged = `${token.slice(0, -3)}${token.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    const refused = await postJson(newsletterConfirm, '/api/newsletter/confirm', { token: forged });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toMatch(/not valid/);
    const unsubscribeToken = oneClickUrl(mail!).searchParams.get('token');
    expect((await postJson(newsletterConfirm, '/api/newsletter/confirm', { token: unsubscribeToken })).status).toBe(
      400,
    );

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 8 * 24 * 3600_000 });
    const expired = await postJson(newsletterConfirm, '/api/newsletter/confirm', { token });
    expect(expired.status).toBe(410);
    expect(((await expired.json()) as { error: string }).error).toMatch(/expired/);
    expect(await store.getSubscriber('late@example.com')).toMatchObject({ status: 'pending' });
  });

  test('each confirmation e-mail carries its own opaque links; an unsubscribe link works for a year, then says how else to leave', async () => {
    const person = { email: 'ann@example.com', firstName: 'Ann', source: 'website_footer' };
    await postJson(newsletterSubscribe, '/api/newsletter/subscribe', person);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61 * 60_000 });
    await postJson(newsletterSubscribe, '/api/newsletter/subscribe', person);
    const [first, second] = await smtp.waitFor(2);
    const tokens = [first!, second!].map((mail) => ({
      confirm: linkAfter(mail, 'Confirm my subscription').searchParams.get('token') ?? '',
      unsubscribe: oneClickUrl(mail).searchParams.get('token') ?? '',
    }));
    expect(tokens[1]!.unsubscribe).not.toBe(tokens[0]!.unsubscribe);
    for (const token of tokens.flatMap(Object.values))
      expect(Buffer.from(token.replace(/^v\d\./, '').split('.')[0]!, 'base64url').toString('latin1')).not.toMatch(
        /ann|example/i,
      );
    expect((await postJson(newsletterConfirm, '/api/newsletter/confirm', { token: tokens[1]!.confirm })).status).toBe(
      200,
    );

    vi.setSystemTime(Date.now() + 366 * 24 * 3600_000);
    const late = await postJson(newsletterUnsubscribe, '/api/newsletter/unsubscribe', {
      token: tokens[0]!.unsubscribe,
    });
    expect(late.status).toBe(410);
    expect(((await late.json()) as { error: string }).error).toBe(
      'This unsubscribe link has expired: unsubscribe links work for a year after their e-mail was sent. Use the link in a more recent e-mail from us, or write to hello@loopwork.example and we will remove you.',
    );
    expect(await store.getSubscriber('ann@example.com')).toMatchObject({ status: 'confirmed' });
    vi.setSystemTime(Date.now() - 2 * 24 * 3600_000);
    const left = await postJson(newsletterUnsubscribe, '/api/newsletter/unsubscribe', {
      token: tokens[1]!.unsubscribe,
    });
    expect(left.status).toBe(200);
    expect(await store.getSubscriber('ann@example.com')).toMatchObject({ status: 'unsubscribed' });
  });

  test('an unsubscribe link sent before links were encrypted still unsubscribes, by one click or from the page', async () => {
    for (const email of ['old1@example.com', 'old2@example.com']) {
      await store.subscribe({ email, firstName: 'Old', source: 'website_footer' }, new Date());
      await store.confirmSubscriber({ email, firstName: 'Old', source: 'website_footer' }, new Date());
    }
    const oneClick = await call(
      newsletterUnsubscribe,
      `/api/newsletter/unsubscribe?token=${legacyLinkToken({ a: 'unsubscribe', e: 'old1@example.com' })}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      },
    );
    expect(oneClick.status).toBe(200);
    const page = await postJson(newsletterUnsubscribe, '/api/newsletter/unsubscribe', {
      token: legacyLinkToken({ a: 'unsubscribe', e: 'old2@example.com' }),
    });
    expect(page.status).toBe(200);
    for (const email of ['old1@example.com', 'old2@example.com'])
      expect(await store.getSubscriber(email)).toMatchObject({ status: 'unsubscribed' });
  });

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
    receiver.answer('hang');
    smtp.behave('stall');
    const now = new Date();
    const settings = { origin: ORIGIN, notifyTo: ['team@loopwork.example'], webhookHost: new URL(receiver.url).host };
    await store.createLead({ name: 'Slow', email: 'slow@example.com', source: 'contact_form' }, now, {
      outbox: (lead) => leadEntries(lead, settings),
    });
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
    receiver.answer('hang');
    smtp.behave('stall');
    const now = new Date();
    const settings = { origin: ORIGIN, notifyTo: ['team@loopwork.example'], webhookHost: new URL(receiver.url).host };
    await store.createLead({ name: 'Late', email: 'late@example.com', source: 'contact_form' }, now, {
      outbox: (lead) => leadEntries(lead, settings),
    });
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

  test('5 guide requests of one address within an hour: 5 leads and team notifications, 1 guide; a link in the name is not echoed', async () => {
    const request = {
      name: 'Visit https://prize.example now',
      email: 'victim@example.com',
      source: 'zoho_guide',
      page: '/zoho',
    };
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        postJson(leadsCreate, '/api/leads/create', request, `198.51.100.${index + 1}`),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201]);
    await smtp.waitFor(6);
    await receiver.waitFor(5);
    const guides = smtp.messages.filter((mail) => addresses(mail, 'to').includes('victim@example.com'));
    expect(guides).toHaveLength(1);
    // The first word is a plain word, so it stays; the rest of what the stranger typed does not.
    expect(guides[0]?.text).toContain('Hi Visit,');
    expect(guides[0]?.text).not.toContain('prize.example');
    expect(guides[0]?.html).not.toContain('prize.example');
    expect(smtp.messages.filter((mail) => addresses(mail, 'to').includes('team@loopwork.example'))).toHaveLength(5);
    expect(await store.countLeads()).toBe(5);

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61 * 60_000 });
    await postJson(leadsCreate, '/api/leads/create', { ...request, name: 'Victor Ward' });
    await smtp.waitFor(8);
    const later = smtp.messages.filter((mail) => addresses(mail, 'to').includes('victim@example.com'));
    expect(later).toHaveLength(2);
    expect(later[1]?.text).toContain('Hi Victor,');
  });

  test('20 subscriptions of one address at once send one confirmation, which echoes no stranger-chosen link', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        postJson(
          newsletterSubscribe,
          '/api/newsletter/subscribe',
          {
            email: 'flooded@example.com',
            firstName: `Buy cheap pills at pills.example ${index}`,
            source: 'website_footer',
          },
          `198.51.100.${index + 1}`,
        ),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    const [mail] = await smtp.waitFor(1);
    expect(smtp.messages).toHaveLength(1);
    expect(mail?.text).toContain('Hi Buy,');
    expect(mail?.text).not.toContain('pills.example');
    expect(
      (await store.listOutbox({ offset: 0, limit: 50 })).filter((entry) => entry.kind === 'confirmation'),
    ).toHaveLength(1);
    expect(await store.countSubscribers()).toBe(1);
  });

  test('variants of one mailbox (+tags, case, Gmail dots) within an hour get one confirmation and one guide between them', async () => {
    const variants = ['victim@gmail.com', 'victim+1@gmail.com', 'Vic.Tim+2@gmail.com', 'v.ictim@googlemail.com'];
    for (const [index, email] of variants.entries()) {
      const ip = `198.51.100.${index + 1}`;
      expect(
        (
          await postJson(
            newsletterSubscribe,
            '/api/newsletter/subscribe',
            { email, firstName: 'Victim', source: 'website_footer' },
            ip,
          )
        ).status,
      ).toBe(201);
      expect(
        (await postJson(leadsCreate, '/api/leads/create', { name: 'Victim', email, source: 'zoho_guide' }, ip)).status,
      ).toBe(201);
    }
    await smtp.waitFor(2 + variants.length);
    const subjects = smtp.messages
      .filter((mail) => !addresses(mail, 'to').includes('team@loopwork.example'))
      .map((mail) => mail.subject);
    expect(subjects.sort()).toEqual([
      'Please confirm your subscription to Loopwork',
      'Your guide from Loopwork: connecting Zoho and Google Workspace',
    ]);
    // Each address is its own record; only the e-mails to the one mailbox are limited.
    expect(await store.countSubscribers()).toBe(variants.length);
    expect(await store.countLeads()).toBe(variants.length);
  });

  test('addresses at subdomains of one Fastmail inbox get one confirmation between them within an hour', async () => {
    const spellings = ['victim@fastmail.com', 'a@victim.fastmail.com', 'shop+x@victim.fastmail.com'];
    for (const [index, email] of spellings.entries()) {
      const signUp = { email, firstName: 'Victim', source: 'website_footer' };
      const ip = `198.51.100.${index + 1}`;
      expect((await postJson(newsletterSubscribe, '/api/newsletter/subscribe', signUp, ip)).status).toBe(201);
    }
    expect(smtp.messages.map((mail) => addresses(mail, 'to'))).toEqual([['victim@fastmail.com']]);
    expect(await store.countSubscribers()).toBe(spellings.length);
  });

  test('20 subscriptions of one address within an hour send one confirmation; a confirmed address keeps its name', async () => {
    for (let index = 0; index < 20; index += 1) {
      const response = await postJson(
        newsletterSubscribe,
        '/api/newsletter/subscribe',
        { email: 'target@example.com', firstName: `Flood ${index}`, source: 'website_footer' },
        `198.51.100.${index + 1}`,
      );
      expect(response.status).toBe(201);
    }
    expect(smtp.messages).toHaveLength(1);
    expect(
      (await store.listOutbox({ offset: 0, limit: 50 })).filter((entry) => entry.kind === 'confirmation'),
    ).toHaveLength(1);
    expect(await store.getSubscriber('target@example.com')).toMatchObject({ firstName: 'Flood 0', status: 'pending' });

    const token = linkAfter(smtp.messages[0]!, 'Confirm my subscription').searchParams.get('token');
    expect((await postJson(newsletterConfirm, '/api/newsletter/confirm', { token })).status).toBe(200);
    const confirmed = await store.getSubscriber('target@example.com');
    expect(confirmed).toMatchObject({ firstName: 'Flood 0', status: 'confirmed', sources: ['website_footer'] });

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61 * 60_000 });
    const again = await postJson(newsletterSubscribe, '/api/subscribers', {
      email: 'target@example.com',
      firstName: 'Mallory',
      lastName: 'Other',
      source: 'newsletter_footer',
    });
    expect(again.status).toBe(201);
    expect(await store.getSubscriber('target@example.com')).toEqual(confirmed);
    // An hour later a new confirmation may go out; only opening it would apply the new name.
    expect(smtp.messages).toHaveLength(2);
  });
  describe('spam', () => {
    const ADMIN = 'delivery test admin password';
    beforeEach(() => {
      Object.assign(process.env, {
        AKISMET_API_KEY: 'testkey123456',
        AKISMET_ENDPOINT: akismet.endpoint,
        ADMIN_PASSWORD: ADMIN,
        SESSION_SECRET: 'delivery-test-session-secret-0123456789',
      });
      resetEnv();
      akismet.checks.length = 0;
      akismet.behave('ham');
    });

    /** "Not spam" from the admin page: a login, then the release, its deliveries awaited. */
    async function notSpam(id: string) {
      const login = await call(adminLogin, '/api/admin/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ password: ADMIN }),
      });
      // The cookie's name and value, whichever name this run gives it.
      const cookie = /^[^=;]+=[^;]*/.exec(login.headers.get('set-cookie') ?? '')?.[0];
      return call(adminSpam, `/api/admin/spam/${id}/release`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: cookie ?? '', origin: ORIGIN },
        body: '{}',
        params: { id },
      });
    }

    test('a lead Akismet calls spam is held: no e-mail, no webhook; "Not spam" sends both', async () => {
      akismet.behave('spam');
      expect((await postJson(leadsCreate, '/api/leads/create', CONTACT)).status).toBe(201);
      // Akismet was asked with what it needs to judge, and the key as a parameter.
      const [check] = akismet.checks;
      expect(Object.fromEntries(check ?? [])).toMatchObject({
        api_key: 'testkey123456',
        blog: ORIGIN,
        comment_type: 'contact-form',
        comment_author: CONTACT.name,
        comment_author_email: CONTACT.email,
        comment_content: CONTACT.notes,
        user_ip: '203.0.113.10',
        permalink: `${ORIGIN}/contact`,
      });
      const held = await store.spamOverview({ offset: 0, limit: 10 });
      expect(held.held).toBe(1);
      expect(held.leads[0]).toMatchObject({
        email: CONTACT.email,
        spam: { reasons: ['Akismet: spam'] },
        contentCheck: { service: 'akismet', verdict: 'spam' },
      });
      expect(await store.countLeads()).toBe(0);
      expect((await store.listOutbox({ offset: 0, limit: 10 })).length).toBe(0);
      expect(smtp.messages).toHaveLength(0);
      expect(receiver.requests).toHaveLength(0);

      const released = await notSpam(held.leads[0]?.id ?? '');
      expect(released.status).toBe(200);
      const [mail] = await smtp.waitFor(1);
      expect(addresses(mail!, 'replyTo')).toEqual([CONTACT.email]);
      await receiver.waitFor(1);
      expect(JSON.parse(receiver.requests[0]?.body ?? '{}')).toMatchObject({
        type: 'lead.created',
        data: { email: CONTACT.email },
      });
      expect(await store.countLeads()).toBe(1);
      expect((await store.spamOverview({ offset: 0, limit: 10 })).held).toBe(0);
      // A second click finds nothing held and sends nothing more.
      expect((await notSpam(held.leads[0]?.id ?? '')).status).toBe(404);
      expect(smtp.messages).toHaveLength(1);
    });

    test.each([
      ['answers "not spam"', 'ham', { verdict: 'ham' }],
      ['fails with HTTP 500', 'error', { verdict: 'unchecked', error: 'HTTP 500' }],
      ['does not answer within 1.5 s', 'stall', { verdict: 'unchecked', error: 'timed out after 1.5 s' }],
    ] as const)('when Akismet %s, the lead is kept and delivered as any other', async (_label, behaviour, check) => {
      akismet.behave(behaviour);
      expect((await postJson(leadsCreate, '/api/leads/create', CONTACT)).status).toBe(201);
      await smtp.waitFor(1);
      await receiver.waitFor(1);
      const [lead] = await store.listLeads({ offset: 0, limit: 1 });
      expect(lead?.contentCheck).toEqual({ service: 'akismet', ...check });
      expect(lead?.spam).toBeUndefined();
    });

    test('a message with more links than SPAM_MAX_LINKS is held, whatever Akismet says', async () => {
      const notes = 'Cheap https://a.example https://b.example www.c.example <a href="x">d</a> [url=e]';
      expect((await postJson(leadsCreate, '/api/leads/create', { ...CONTACT, notes })).status).toBe(201);
      const { leads } = await store.spamOverview({ offset: 0, limit: 10 });
      expect(leads[0]?.spam?.reasons).toEqual(['5 links in the message (at most 3 allowed)']);
      expect(smtp.messages).toHaveLength(0);
      expect(receiver.requests).toHaveLength(0);
    });

    test('links count in every field the owner is shown, not only the message', async () => {
      const lead = {
        ...CONTACT,
        notes: 'We would like a quote, please.',
        name: 'Win https://prize.example now at www.prize.example',
        company: 'https://cheap.example',
        page: '/contact?next=https://page.example',
        attribution: {
          referrer: 'https://referrer.example',
          utm_source: 'www.source.example',
          utm_campaign: 'https://campaign.example',
          utm_content: 'https://content.example',
        },
      };
      expect((await postJson(leadsCreate, '/api/leads/create', lead)).status).toBe(201);
      const { leads } = await store.spamOverview({ offset: 0, limit: 10 });
      expect(leads[0]?.spam?.reasons).toEqual([
        '8 links in the name, company, page, referrer, utm_source, utm_campaign and utm_content (at most 3 allowed)',
      ]);
      expect(await store.countLeads()).toBe(0);
      expect(smtp.messages).toHaveLength(0);
      expect(receiver.requests).toHaveLength(0);
    });
  });
});
