/**
 * Every lead reaches a person, on both stores: the handlers store a record and its outbox entries
 * in one step and deliver them after the answer, to a real SMTP server and a real webhook
 * receiver on 127.0.0.1 (tests/support/delivery-setup.ts). Here, what each message says and the
 * links it carries; delivery-retries.test.ts retries what failed, delivery-abuse.test.ts holds
 * floods and spam.
 */
import type { ParsedMail } from 'mailparser';
import { Webhook } from 'standardwebhooks';
import { expect, test, vi } from 'vitest';
import leadsCreate from '../../functions/leads-create';
import newsletterConfirm from '../../functions/newsletter-confirm';
import newsletterSubscribe from '../../functions/newsletter-subscribe';
import newsletterUnsubscribe from '../../functions/newsletter-unsubscribe';
import { GUIDE_PATHS } from '../../src/shared/pages';
import { legacyLinkToken } from '../support/legacy-links';
import { proofFromHandler } from '../support/solved-proofs';
import {
  SECRET,
  ORIGIN,
  smtp,
  receiver,
  store,
  describeOnEachStore,
  call,
  postJson,
  ATTRIBUTION,
  CONTACT,
  linkAfter,
  addresses,
} from '../support/delivery-setup';

/** A header as it was written (mailparser reads List-* headers into objects). */
const rawHeader = (mail: ParsedMail, name: string) =>
  mail.headerLines
    .find((header) => header.key === name)
    ?.line.slice(name.length + 1)
    .trim();

/** The RFC 8058 one-click URL of a message. */
const oneClickUrl = (mail: ParsedMail) =>
  new URL(/^<(.+)>$/.exec(rawHeader(mail, 'list-unsubscribe') ?? '')?.[1] ?? '');

describeOnEachStore('delivery', () => {
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
});
