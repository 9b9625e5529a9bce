/**
 * The form endpoints, called with real Requests: every kind of bad input, abuse and store
 * failure, and what reaches the store (read back through the store itself).
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, onTestFinished, test, vi } from 'vitest';
import { KEYS } from '../../functions/_lib/store/keys';
import { DATABASE_FILE } from '../../functions/_lib/store/sqlite/database';
import { addEnv, setEnv, useStores } from '../support/store-setup';
import { createRedisStore, createSqliteStore } from '../support/stores';
import leadsCreate from '../../functions/leads-create';
import newsletterSubscribe from '../../functions/newsletter-subscribe';
import { createContext } from '../../scripts/harness/functions';
import { PROOF_OF_WORK_FIELD } from '../../src/shared/proof-of-work-names';
import { proofFromHandler } from '../support/solved-proofs';
import { startRedisServer } from '../../scripts/harness/redis-server';
import { startUpstashBridge } from '../../scripts/harness/upstash-bridge';

const stores = useStores();

function configure(values: Record<string, string>) {
  // The handlers run as in the local server, which says it is a local run; the secret signs the
  // proof-of-work challenges (a local run would otherwise keep one in the store's folder).
  setEnv({ SITE_LOCAL_RUN: 'true', SESSION_SECRET: 'form-handlers-secret-0123456789abcdef', ...values });
}

function post(
  url: string,
  body: unknown,
  { ip = '203.0.113.7', headers = {} }: { ip?: string; headers?: Record<string, string> } = {},
) {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    request: new Request(`http://localhost${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: payload,
    }),
    context: createContext({ ip }),
  };
}

/**
 * Calls a form endpoint as the site's forms do: a body given as an object gets a freshly solved
 * proof of work unless it brings its own `altcha` (a string body is sent as it is).
 */
async function call(
  handler: typeof newsletterSubscribe,
  url: string,
  body: unknown,
  options?: Parameters<typeof post>[2],
) {
  const withProof =
    typeof body === 'object' && body !== null && !Array.isArray(body) && !(PROOF_OF_WORK_FIELD in body)
      ? { ...body, [PROOF_OF_WORK_FIELD]: await proofFromHandler() }
      : body;
  const { request, context } = post(url, withProof, options);
  const response = await handler(request, context);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: JSON.parse(text) as Record<string, unknown>,
  };
}

/** The embedded store the handlers write to, opened beside them to read what they stored. */
const fileStore = () => {
  const store = createSqliteStore(stores.folder());
  stores.opened.push(store);
  return store;
};
const VALID = { email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper', source: 'newsletter_footer' };
const LEAD = { name: 'Nia', email: 'nia@example.com', source: 'contact_form', notes: 'Call me' };

beforeEach(() => configure({ LOCAL_STORE_DIR: stores.folder(), RATE_LIMIT_PER_MINUTE: '1000' }));

describe('request checks', () => {
  test('a wrong method answers 405 with Allow', async () => {
    const response = await newsletterSubscribe(
      new Request('http://localhost/api/subscribers'),
      createContext({ ip: '1.1.1.1' }),
    );
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.json()).toEqual({ error: expect.stringContaining('GET') });
  });

  test('a body that is not JSON by content type answers 415', async () => {
    const { status, json } = await call(newsletterSubscribe, '/api/subscribers', 'email=a@b.c', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(status).toBe(415);
    expect(json.error).toMatch(/application\/json/);
  });

  test.each([
    ['malformed JSON', '{"email": "a@b.c",', 400, /not valid JSON/],
    ['an empty body', '', 400, /empty/],
    ['a JSON array', '[1,2,3]', 400, /JSON object/],
    ['a JSON string', '"hello"', 400, /JSON object/],
  ])('%s answers %i', async (_label, body, status, message) => {
    const result = await call(newsletterSubscribe, '/api/subscribers', body);
    expect(result.status).toBe(status);
    expect(result.json.error).toMatch(message);
  });

  test('a 2 MB body answers 413, whether or not it declares its length', async () => {
    const huge = JSON.stringify({ ...VALID, notes: 'x'.repeat(2 * 1024 * 1024) });
    expect((await call(leadsCreate, '/api/leads/create', huge)).status).toBe(413);
    const streamed = new Request('http://localhost/api/leads/create', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Blob([huge]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect((await leadsCreate(streamed, createContext({ ip: '1.1.1.1' }))).status).toBe(413);
    expect(await fileStore().countLeads()).toBe(0);
  });

  describe('the body limit of 16 KB', () => {
    // Written out, not read from the code: raising the limit must fail here.
    const LIMIT = 16_384;
    /** A valid lead, with its proof of work, whose JSON is padded with spaces to exactly `bytes` bytes. */
    const leadOfSize = async (bytes: number) => {
      const body = JSON.stringify({ ...LEAD, [PROOF_OF_WORK_FIELD]: await proofFromHandler() });
      return body + ' '.repeat(bytes - Buffer.byteLength(body));
    };
    /** The body with its length declared in Content-Length (a Request built from a string declares none by itself). */
    const declared = (body: string) =>
      new Request('http://localhost/api/leads/create', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        body,
      });
    /** The body as a stream, as a chunked upload arrives: no Content-Length at all. */
    const undeclared = (body: string) =>
      new Request('http://localhost/api/leads/create', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new Blob([body]).stream(),
        duplex: 'half',
      } as RequestInit);
    const senders = [
      ['with its length declared', declared],
      ['without a declared length', undeclared],
    ] as const;

    test.each(senders)('16 KB exactly is accepted, %s', async (_label, send) => {
      const request = send(await leadOfSize(LIMIT));
      expect(request.headers.get('content-length')).toBe(send === declared ? String(LIMIT) : null);
      const response = await leadsCreate(request, createContext({ ip: '203.0.113.80' }));
      expect(response.status).toBe(201);
      expect(await fileStore().countLeads()).toBe(1);
    });

    test.each(senders)('16 KB and one byte answers 413, %s, and stores nothing', async (_label, send) => {
      const response = await leadsCreate(send(await leadOfSize(LIMIT + 1)), createContext({ ip: '203.0.113.81' }));
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({ error: 'The body is larger than 16384 bytes' });
      expect(await fileStore().countLeads()).toBe(0);
    });

    test('a declared length over the limit is refused before a byte of the body is read', async () => {
      const request = declared(await leadOfSize(LIMIT + 1));
      const response = await leadsCreate(request, createContext({ ip: '203.0.113.82' }));
      expect(response.status).toBe(413);
      expect(request.bodyUsed).toBe(false);
    });
  });

  test('invalid fields answer 422 with the message of each field and store nothing', async () => {
    const { status, json } = await call(newsletterSubscribe, '/api/subscribers', {
      email: 'not-an-email',
      firstName: '  ',
      source: 'newsletter_footer',
    });
    expect(status).toBe(422);
    expect(json).toEqual({
      error: 'Some fields are missing or invalid',
      fields: {
        email: 'Please enter a valid email address',
        firstName: 'First name is required',
        lastName: 'Last name is required',
      },
    });
    expect(await fileStore().countSubscribers()).toBe(0);
  });

  test('an address longer than 254 characters is refused', async () => {
    const { status, json } = await call(newsletterSubscribe, '/api/subscribers', {
      ...VALID,
      email: `${'a'.repeat(250)}@example.com`,
    });
    expect(status).toBe(422);
    expect(json.fields).toEqual({ email: 'Please enter a valid email address' });
  });

  test('fields of the wrong type are refused, not coerced', async () => {
    const { status, json } = await call(leadsCreate, '/api/leads/create', {
      name: 1234,
      email: ['a@b.c'],
      source: true,
    });
    expect(status).toBe(422);
    expect(Object.keys(json.fields as object).sort()).toEqual(['email', 'name', 'source']);
  });
});

describe('the newsletter sign-up at its two paths', () => {
  const FOOTER = { email: 'ada@example.com', firstName: 'Ada Lovelace', source: 'website_footer' };

  test('each path checks the body against its own form: the footer one may leave lastName out, the blog one may not', async () => {
    expect((await call(newsletterSubscribe, '/api/newsletter/subscribe', FOOTER)).status).toBe(201);
    const blog = await call(newsletterSubscribe, '/api/subscribers', { ...FOOTER, source: 'newsletter_footer' });
    expect(blog.status).toBe(422);
    expect(blog.json.fields).toEqual({ lastName: 'Last name is required' });
    expect(await fileStore().countSubscribers()).toBe(1);
  });

  test('each path has its own rate limit', async () => {
    configure({ LOCAL_STORE_DIR: stores.folder(), RATE_LIMIT_PER_MINUTE: '1' });
    const ip = { ip: '198.51.100.9' };
    expect((await call(newsletterSubscribe, '/api/newsletter/subscribe', FOOTER, ip)).status).toBe(201);
    expect((await call(newsletterSubscribe, '/api/subscribers', VALID, ip)).status).toBe(201);
    expect((await call(newsletterSubscribe, '/api/subscribers', VALID, ip)).status).toBe(429);
  });

  test('a trailing slash names the same form', async () => {
    expect((await call(newsletterSubscribe, '/api/subscribers/', VALID)).status).toBe(201);
    expect((await call(newsletterSubscribe, '/api/subscribers/', FOOTER)).status).toBe(422);
  });

  test('any other path answers 404 with a JSON error and stores nothing', async () => {
    const { status, json } = await call(newsletterSubscribe, '/api/newsletter', VALID);
    expect(status).toBe(404);
    expect(json).toEqual({ error: 'No newsletter form at this path' });
    expect(await fileStore().countSubscribers()).toBe(0);
  });
});

describe('what is stored', () => {
  test('e-mails are trimmed and lower-cased before they are checked and stored', async () => {
    const { status, json } = await call(newsletterSubscribe, '/api/subscribers', {
      ...VALID,
      email: '  Grace.Hopper@EXAMPLE.com ',
    });
    expect(status).toBe(201);
    expect(json).toEqual({ ok: true });
    expect((await fileStore().getSubscriber('grace.hopper@example.com'))?.email).toBe('grace.hopper@example.com');
  });

  test.each(['1234', 'true', 'null', 'Zoë Ōtsuka-Ñúñez 🚀', '<script>alert(1)</script>', '"); DROP TABLE leads; --'])(
    'the name %s comes back as the same string',
    async (name) => {
      await call(newsletterSubscribe, '/api/subscribers', { ...VALID, firstName: name, lastName: name });
      await call(leadsCreate, '/api/leads/create', {
        name,
        email: 'lead@example.com',
        source: 'contact_form',
        notes: name,
      });
      const store = fileStore();
      expect((await store.getSubscriber(VALID.email))?.firstName).toBe(name);
      expect((await store.listLeads({ offset: 0, limit: 1 }))[0]).toMatchObject({ name, notes: name });
    },
  );

  test('an internationalised domain is stored as typed and in punycode for sending', async () => {
    expect((await call(newsletterSubscribe, '/api/subscribers', { ...VALID, email: 'Jo@Bücher.de' })).status).toBe(201);
    expect(
      (await call(leadsCreate, '/api/leads/create', { name: 'Jo', email: 'jo@bücher.de', source: 'zoho_guide' }))
        .status,
    ).toBe(201);
    const store = fileStore();
    expect(await store.getSubscriber('jo@bücher.de')).toMatchObject({
      email: 'jo@bücher.de',
      emailAscii: 'jo@xn--bcher-kva.de',
    });
    expect((await store.listLeads({ offset: 0, limit: 1 }))[0]).toMatchObject({
      email: 'jo@bücher.de',
      emailAscii: 'jo@xn--bcher-kva.de',
    });
    expect(
      (await call(newsletterSubscribe, '/api/subscribers', { ...VALID, email: `${'a'.repeat(65)}@example.com` })).json
        .fields,
    ).toEqual({ email: 'Please enter a valid email address' });
  });

  test('look-alike spellings of one address make one subscriber and one lead address, which one erasure removes', async () => {
    const spellings = ['victim@gmail.com', 'victim@gmail.com\u200b', 'victim@gm\u00adail.com', 'victim@ｇｍａｉｌ.com'];
    for (const email of spellings) {
      const signUp = { email, firstName: 'Victim', source: 'website_footer' };
      expect((await call(newsletterSubscribe, '/api/newsletter/subscribe', signUp)).status).toBe(201);
      const lead = { name: 'Victim', email, source: 'contact_form' };
      expect((await call(leadsCreate, '/api/leads/create', lead)).status).toBe(201);
    }
    const store = fileStore();
    expect((await store.listSubscribers({ offset: 0, limit: 10 })).map((subscriber) => subscriber.email)).toEqual([
      'victim@gmail.com',
    ]);
    expect(new Set((await store.listLeads({ offset: 0, limit: 10 })).map((lead) => lead.email))).toEqual(
      new Set(['victim@gmail.com']),
    );
    expect(await store.deleteSubscriber('victim@gmail.com')).toBeDefined();
    expect(await store.countSubscribers()).toBe(0);
  });

  test('the footer form sends the full name as firstName and no lastName', async () => {
    const { status } = await call(newsletterSubscribe, '/api/newsletter/subscribe', {
      email: 'ada@example.com',
      firstName: 'Ada Lovelace',
      source: 'website_footer',
    });
    expect(status).toBe(201);
    const subscriber = await fileStore().getSubscriber('ada@example.com');
    expect(subscriber).toMatchObject({ firstName: 'Ada Lovelace', sources: ['website_footer'] });
    expect(subscriber?.lastName).toBeUndefined();
  });

  test('fields are trimmed and capped', async () => {
    const tooLong = await call(leadsCreate, '/api/leads/create', {
      name: 'N',
      email: 'n@example.com',
      source: 'contact_form',
      notes: 'x'.repeat(5001),
    });
    expect(tooLong.status).toBe(422);
    expect(tooLong.json.fields).toEqual({ notes: 'At most 5000 characters' });
    await call(leadsCreate, '/api/leads/create', {
      name: '  Nia  ',
      email: 'n@example.com',
      source: 'contact_form',
      company: '   ',
    });
    const [lead] = await fileStore().listLeads({ offset: 0, limit: 1 });
    expect(lead?.name).toBe('Nia');
    expect(lead?.company).toBeUndefined();
  });
});

describe('attribution', () => {
  const UTM = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
  const every = (value: (name: string) => string) => Object.fromEntries(UTM.map((name) => [name, value(name)]));

  test('utm_* values are stored cut to their first 100 characters, and the sign-up and the lead are taken', async () => {
    const long = every((name) => `${name}-`.padEnd(200, '→'));
    const signUp = await call(newsletterSubscribe, '/api/subscribers', { ...VALID, attribution: long });
    const lead = await call(leadsCreate, '/api/leads/create', { ...LEAD, attribution: long });
    expect([signUp.status, lead.status]).toEqual([201, 201]);
    const kept = every((name) => `${name}-`.padEnd(100, '→'));
    expect((await fileStore().getSubscriber(VALID.email))?.attribution).toEqual(kept);
    const [stored] = await fileStore().listLeads({ offset: 0, limit: 1 });
    expect(stored?.attribution).toEqual(kept);
  });
});

describe('abuse', () => {
  test('a filled honeypot answers like a success, stores nothing and is counted', async () => {
    const { status, json } = await call(newsletterSubscribe, '/api/subscribers', {
      ...VALID,
      website: 'http://spam.example',
    });
    expect(status).toBe(201);
    expect(json).toEqual({ ok: true });
    const store = fileStore();
    expect(await store.countSubscribers()).toBe(0);
    expect(await store.honeypotCounts()).toEqual({ subscribers: 1 });
  });

  /** Each form endpoint with a valid body and the name its honeypot catches are counted under. */
  const FORM_ENDPOINTS = [
    ['POST /api/subscribers', newsletterSubscribe, '/api/subscribers', VALID, 'subscribers'],
    [
      'POST /api/newsletter/subscribe',
      newsletterSubscribe,
      '/api/newsletter/subscribe',
      { email: 'ada@example.com', firstName: 'Ada Lovelace', source: 'website_footer' },
      'newsletter-subscribe',
    ],
    ['POST /api/leads/create', leadsCreate, '/api/leads/create', LEAD, 'leads-create'],
  ] as const;

  test.each(FORM_ENDPOINTS)(
    '%s: a filled honeypot answers 201 like a success, stores nothing and is counted for that endpoint',
    async (_label, handler, url, body, name) => {
      const { status, json } = await call(
        handler,
        url,
        { ...body, website: 'http://spam.example' },
        { ip: '203.0.113.90' },
      );
      expect(status).toBe(201);
      expect(json).toEqual({ ok: true });
      const store = fileStore();
      expect([await store.countSubscribers(), await store.countLeads()]).toEqual([0, 0]);
      expect(await store.honeypotCounts()).toEqual({ [name]: 1 });
    },
  );

  test.each(FORM_ENDPOINTS)(
    '%s: an empty honeypot is a person, whose submission is stored',
    async (_label, handler, url, body) => {
      expect((await call(handler, url, { ...body, website: '' }, { ip: '203.0.113.91' })).status).toBe(201);
      const store = fileStore();
      expect((await store.countSubscribers()) + (await store.countLeads())).toBe(1);
      expect(await store.honeypotCounts()).toEqual({});
    },
  );

  test('a burst from one IP gets 429 with Retry-After while another IP still passes', async () => {
    configure({ LOCAL_STORE_DIR: stores.folder(), RATE_LIMIT_PER_MINUTE: '3' });
    const statuses = [];
    for (let index = 0; index < 4; index += 1)
      statuses.push(
        (
          await call(
            newsletterSubscribe,
            '/api/subscribers',
            { ...VALID, email: `b${index}@example.com` },
            { ip: '198.51.100.1' },
          )
        ).status,
      );
    expect(statuses).toEqual([201, 201, 201, 429]);
    const limited = await call(newsletterSubscribe, '/api/subscribers', VALID, { ip: '198.51.100.1' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.json.error).toMatch(/Too many submissions/);
    expect((await call(newsletterSubscribe, '/api/subscribers', VALID, { ip: '198.51.100.2' })).status).toBe(201);
    expect(await fileStore().countSubscribers()).toBe(4);
  });

  test('IPv6 clients are limited per /64: a new address in the same /64 is still limited, the next /64 is not', async () => {
    configure({ LOCAL_STORE_DIR: stores.folder(), RATE_LIMIT_PER_MINUTE: '3' });
    const statuses = [];
    for (let index = 1; index <= 4; index += 1)
      statuses.push(
        (
          await call(
            newsletterSubscribe,
            '/api/subscribers',
            { ...VALID, email: `v6-${index}@example.com` },
            { ip: `2001:db8:5:6::${index}` },
          )
        ).status,
      );
    expect(statuses).toEqual([201, 201, 201, 429]);
    expect((await call(newsletterSubscribe, '/api/subscribers', VALID, { ip: '2001:db8:5:6:ffff:1:2:3' })).status).toBe(
      429,
    );
    expect((await call(newsletterSubscribe, '/api/subscribers', VALID, { ip: '2001:db8:5:7::1' })).status).toBe(201);
  });

  test.each([[''], ['unknown']])(
    'a request whose client IP is %j is refused with 400 and stores nothing',
    async (ip) => {
      const { status, json } = await call(newsletterSubscribe, '/api/subscribers', VALID, { ip });
      expect(status).toBe(400);
      expect(json).toEqual({ error: 'The client address of this request is unknown' });
      expect(await fileStore().countSubscribers()).toBe(0);
    },
  );

  test.each([['constructor'], ['toString'], ['valueOf'], ['__proto__']])(
    'a source of %j answers 422 and stores nothing',
    async (source) => {
      const { status, json } = await call(leadsCreate, '/api/leads/create', {
        name: 'Ada',
        email: 'ada@example.com',
        source,
      });
      expect(status).toBe(422);
      expect(json.fields).toEqual({
        source: 'Source must be zoho_guide or contact_form',
      });
      expect(await fileStore().countLeads()).toBe(0);
    },
  );

  test.each([
    ['/api/newsletter/subscribe', 'zoho_guide', 'Source must be website_footer'],
    ['/api/newsletter/subscribe', 'newsletter_footer', 'Source must be website_footer'],
    ['/api/subscribers', 'contact_form', 'Source must be newsletter_footer'],
    ['/api/subscribers', 'website_footer', 'Source must be newsletter_footer'],
    ['/api/leads/create', 'website_footer', 'Source must be zoho_guide or contact_form'],
  ])('%s refuses the source %s of another form with 422, storing nothing', async (path, source, message) => {
    const handler = path === '/api/leads/create' ? leadsCreate : newsletterSubscribe;
    const body = path === '/api/leads/create' ? { ...LEAD, source } : { ...VALID, source };
    const { status, json } = await call(handler, path, body);
    expect(status).toBe(422);
    expect(json.fields).toEqual({ source: message });
    expect(await fileStore().countLeads()).toBe(0);
    expect(await fileStore().countSubscribers()).toBe(0);
  });
});

describe('idempotency keys', () => {
  const withKey = (key: string, ip = '203.0.113.70') => ({ ip, headers: { 'idempotency-key': key } });

  test.each([
    ['empty', ''],
    ['101 characters long', 'k'.repeat(101)],
    ['with a space', 'two words'],
    ['with a colon', 'subscribers:abc'],
    ['with a slash', '../etc'],
  ])('a key %s answers 400 naming the header and stores nothing', async (_label, key) => {
    const { status, json } = await call(leadsCreate, '/api/leads/create', LEAD, withKey(key));
    expect(status).toBe(400);
    expect(json.error).toMatch(/Idempotency-Key/);
    expect(await fileStore().countLeads()).toBe(0);
  });

  test.each([
    ['a UUID', crypto.randomUUID()],
    ['100 characters', `${'a'.repeat(50)}-${'B'.repeat(48)}_`],
    ['one character', 'x'],
  ])('%s is a valid key', async (_label, key) => {
    expect((await call(leadsCreate, '/api/leads/create', LEAD, withKey(key))).status).toBe(201);
  });

  test('the same key twice stores one record and answers 201 both times', async () => {
    const key = crypto.randomUUID();
    const first = await call(leadsCreate, '/api/leads/create', LEAD, withKey(key));
    const second = await call(leadsCreate, '/api/leads/create', LEAD, withKey(key));
    expect([first.status, first.json, second.status, second.json]).toEqual([201, { ok: true }, 201, { ok: true }]);
    expect(await fileStore().countLeads()).toBe(1);
    const subscriberKey = crypto.randomUUID();
    await call(newsletterSubscribe, '/api/subscribers', VALID, withKey(subscriberKey));
    await call(newsletterSubscribe, '/api/subscribers', { ...VALID, firstName: 'Changed' }, withKey(subscriberKey));
    expect((await fileStore().getSubscriber(VALID.email))?.firstName).toBe('Grace');
  });

  test('the same key with another body answers 422, and the person it carries is not lost in silence', async () => {
    const key = crypto.randomUUID();
    expect((await call(leadsCreate, '/api/leads/create', LEAD, withKey(key))).status).toBe(201);
    const other = { ...LEAD, name: 'Ola', email: 'ola@example.com' };
    const { status, json } = await call(leadsCreate, '/api/leads/create', other, withKey(key));
    expect(status).toBe(422);
    expect(json.error).toMatch(/Idempotency-Key .*different submission/);
    // The same body again is still the first submission's repeat.
    expect((await call(leadsCreate, '/api/leads/create', LEAD, withKey(key))).status).toBe(201);
    expect((await fileStore().listLeads({ offset: 0, limit: 5 })).map((lead) => lead.name)).toEqual(['Nia']);
  });

  test('different keys store two records, and no key keeps storing every time', async () => {
    await call(leadsCreate, '/api/leads/create', LEAD, withKey(crypto.randomUUID()));
    await call(leadsCreate, '/api/leads/create', LEAD, withKey(crypto.randomUUID()));
    await call(leadsCreate, '/api/leads/create', LEAD);
    await call(leadsCreate, '/api/leads/create', LEAD);
    expect(await fileStore().countLeads()).toBe(4);
  });

  test('keys are scoped per endpoint: one key sent to two endpoints is two submissions', async () => {
    const key = crypto.randomUUID();
    expect((await call(newsletterSubscribe, '/api/subscribers', VALID, withKey(key))).status).toBe(201);
    expect(
      (
        await call(
          leadsCreate,
          '/api/leads/create',
          { name: 'Grace Hopper', email: VALID.email, source: 'contact_form' },
          withKey(key),
        )
      ).status,
    ).toBe(201);
    expect(await fileStore().getSubscriber(VALID.email)).toBeDefined();
    expect(await fileStore().countLeads()).toBe(1);
  });

  test('a write that timed out behind another connection lands later, and its retry with the same key stores nothing more', async () => {
    configure({ LOCAL_STORE_DIR: stores.folder(), RATE_LIMIT_PER_MINUTE: '1000', STORE_TIMEOUT_MS: '200' });
    const store = fileStore();
    expect(await store.countLeads()).toBe(0);
    // Another connection holds the write lock, as another process writing would.
    const holder = new DatabaseSync(path.join(stores.folder(), DATABASE_FILE));
    const key = crypto.randomUUID();
    try {
      holder.exec('BEGIN IMMEDIATE');
      const timedOut = await call(leadsCreate, '/api/leads/create', LEAD, withKey(key));
      expect(timedOut.status).toBe(503);
      expect(await store.countLeads()).toBe(0);
      holder.exec('COMMIT');
      // The write was not abandoned: it commits once the lock is free, after its request answered 503.
      await expect.poll(() => store.countLeads(), { timeout: 15_000 }).toBe(1);
      const retry = await call(leadsCreate, '/api/leads/create', LEAD, withKey(key));
      expect(retry.status).toBe(201);
      expect(await store.countLeads()).toBe(1);
    } finally {
      if (holder.isTransaction) holder.exec('ROLLBACK');
      holder.close();
    }
  });
});

describe('store failures', () => {
  test('a store that fails answers 503 with a plain message', async () => {
    // A file where the store expects its folder: every write fails for real.
    const blocked = path.join(stores.folder(), 'not-a-folder');
    writeFileSync(blocked, 'x');
    configure({ LOCAL_STORE_DIR: blocked });
    const { status, json, headers } = await call(newsletterSubscribe, '/api/subscribers', VALID);
    expect(status).toBe(503);
    expect(json).toEqual({ error: 'The service is temporarily unavailable. Please try again in a moment.' });
    expect(headers.get('retry-after')).toBeTruthy();
  });

  test.each(['production', '', 'dev'])(
    'outside a local run without Upstash (deploy context %j), the form endpoints answer 503 "Storage is not configured"',
    async (deployContext) => {
      configure({ LOCAL_STORE_DIR: stores.folder() });
      delete process.env.SITE_LOCAL_RUN;
      const { request } = post('/api/subscribers', VALID);
      const context = createContext({ ip: '1.2.3.4' });
      context.deploy.context = deployContext;
      const response = await newsletterSubscribe(request, context);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ error: 'Storage is not configured' });
      expect(existsSync(path.join(stores.folder(), DATABASE_FILE))).toBe(false);
    },
  );
});

describe('on Upstash Redis', () => {
  const redis = () => stores.redis();
  const bridge = () => stores.bridge();

  beforeEach(async () => {
    configure({ ...stores.env(), STORE_TIMEOUT_MS: '1000', RATE_LIMIT_PER_MINUTE: '3' });
    await stores.client(2000).flushdb();
  });
  afterEach(() => bridge().setBroken(false));

  test('stores through the Upstash adapter', async () => {
    expect((await call(newsletterSubscribe, '/api/subscribers', { ...VALID, firstName: '1234' })).status).toBe(201);
    const store = createRedisStore(stores.client(2000));
    expect((await store.getSubscriber(VALID.email))?.firstName).toBe('1234');
  });

  test('rate limits per IP with the Upstash limiter', async () => {
    // Upstash's sliding window counts the previous minute's requests weighted by what is left of
    // it, rounded down: four requests either side of a minute's turn would be counted as three. The
    // clock stands still a second into a minute, and a slow store call never lets one through
    // unchecked, as the limiter does once its timeout passes.
    vi.useFakeTimers({ toFake: ['Date'], now: Math.floor(Date.now() / 60_000) * 60_000 + 1_000 });
    onTestFinished(() => void vi.useRealTimers());
    addEnv({ STORE_TIMEOUT_MS: '10000' });
    const statuses = [];
    for (let index = 0; index < 4; index += 1)
      statuses.push(
        (
          await call(
            leadsCreate,
            '/api/leads/create',
            { name: 'N', email: 'n@example.com', source: 'zoho_guide' },
            { ip: '192.0.2.1' },
          )
        ).status,
      );
    expect(statuses).toEqual([201, 201, 201, 429]);
    expect(
      (
        await call(
          leadsCreate,
          '/api/leads/create',
          { name: 'N', email: 'n@example.com', source: 'zoho_guide' },
          { ip: '192.0.2.2' },
        )
      ).status,
    ).toBe(201);
  });

  test('a store that hangs answers 503 within seconds, with no URL or token in the body', async () => {
    const altcha = await proofFromHandler();
    bridge().setBroken(true);
    const started = Date.now();
    const { status, text } = await call(newsletterSubscribe, '/api/subscribers', { ...VALID, altcha });
    const elapsed = Date.now() - started;
    expect(status).toBe(503);
    expect(elapsed).toBeLessThan(8000);
    expect(text).not.toContain(bridge().url);
    expect(text).not.toContain(stores.upstash().token);
    expect(text).not.toMatch(/127\.0\.0\.1|stack|at /);
  });

  test('a write that timed out while Redis stalled lands later, and its retry with the same key stores nothing more', async () => {
    configure({
      ...stores.env(),
      STORE_TIMEOUT_MS: '300',
      RATE_LIMIT_PER_MINUTE: '100',
    });
    const store = createRedisStore(stores.client());
    const key = crypto.randomUUID();
    // Redis freezes the moment the lead's write reaches it (after the rate limit has answered).
    bridge().onCommand((command) => {
      if (command.some((part) => String(part).includes(KEYS.leadsByCreated))) redis().pause();
    });
    try {
      const timedOut = await call(leadsCreate, '/api/leads/create', LEAD, {
        ip: '192.0.2.30',
        headers: { 'idempotency-key': key },
      });
      expect(timedOut.status).toBe(503);
    } finally {
      bridge().onCommand(undefined);
      redis().resume();
    }
    // The write waited in Redis's socket and commits now, after its request answered 503.
    await expect.poll(() => store.countLeads(), { timeout: 15_000 }).toBe(1);
    const retry = await call(leadsCreate, '/api/leads/create', LEAD, {
      ip: '192.0.2.30',
      headers: { 'idempotency-key': key },
    });
    expect(retry.status).toBe(201);
    expect(await store.countLeads()).toBe(1);
    expect((await store.listLeads({ offset: 0, limit: 5 })).map((lead) => lead.notes)).toEqual(['Call me']);
  });

  test('the same key twice stores one record, different keys two', async () => {
    const store = createRedisStore(stores.client(2000));
    const key = crypto.randomUUID();
    for (const header of [key, key, crypto.randomUUID()]) {
      expect(
        (
          await call(leadsCreate, '/api/leads/create', LEAD, {
            ip: '192.0.2.31',
            headers: { 'idempotency-key': header },
          })
        ).status,
      ).toBe(201);
    }
    expect(await store.countLeads()).toBe(2);
  });

  test('a stopped Redis answers 503 and nothing pretends to succeed', async () => {
    const altcha = await proofFromHandler();
    // A redis-server of its own to stop: the file's one serves the other tests.
    const stopped = await startRedisServer();
    const front = await startUpstashBridge({ redisUrl: stopped.url, token: stores.upstash().token });
    try {
      addEnv({ UPSTASH_REDIS_REST_URL: front.url });
      await stopped.stop();
      const { status, text } = await call(newsletterSubscribe, '/api/subscribers', { ...VALID, altcha });
      expect(status).toBe(503);
      expect(text).not.toContain(stores.upstash().token);
    } finally {
      await front.stop();
    }
  });
});
