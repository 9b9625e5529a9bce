/**
 * What a flood of requests or spam makes the site send, on both stores: one confirmation or
 * guide per mailbox an hour, whatever the spelling of the address, and nothing for a lead held as
 * spam until the owner releases it (tests/support/delivery-setup.ts).
 */
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { resetEnv } from '../../functions/_lib/platform/env';
import leadsCreate from '../../functions/leads-create';
import newsletterConfirm from '../../functions/newsletter-confirm';
import newsletterSubscribe from '../../functions/newsletter-subscribe';
import adminLogin from '../../functions/admin-login';
import adminSpam from '../../functions/admin-spam';
import {
  ORIGIN,
  smtp,
  receiver,
  akismet,
  store,
  describeOnEachStore,
  call,
  postJson,
  CONTACT,
  linkAfter,
  addresses,
} from '../support/delivery-setup';

describeOnEachStore('floods and spam', () => {
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
