/**
 * Proof of work on the form endpoints, on both stores: a submission is stored only with a solved,
 * genuine, unexpired challenge of this site's, once; every refusal is a 422 that says what is
 * wrong, stores nothing, and is counted for the admin's Spam section.
 */
import { createChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { beforeEach, describe, expect, onTestFinished, test } from 'vitest';
import {
  CHALLENGE_TTL_MS,
  challengeCost,
  DIFFICULTY,
  newChallenge,
  PROOF_OF_WORK_PROBLEMS,
  type ProofOfWorkProblem,
} from '../../functions/_lib/forms/signed-challenges';
import { addEnv, setEnv, useStores } from '../support/store-setup';
import { createSqliteStore, type Store } from '../support/stores';
import challenge from '../../functions/challenge';
import leadsCreate from '../../functions/leads-create';
import newsletterSubscribe from '../../functions/newsletter-subscribe';
import { createContext } from '../../scripts/harness/functions';
import { proofFromHandler, solve } from '../support/solved-proofs';

const SECRET = 'proof-of-work-test-secret-0123456789abcdef';
const stores = useStores();

function configure(values: Record<string, string>) {
  setEnv({ SITE_LOCAL_RUN: 'true', SESSION_SECRET: SECRET, RATE_LIMIT_PER_MINUTE: '1000', ...values });
}

const LEAD = { name: 'Nia Okafor', email: 'nia@example.com', source: 'contact_form', notes: 'Invoices, please' };
const SUBSCRIBER = { email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper', source: 'newsletter_footer' };
const FOOTER = { email: 'ada@example.com', firstName: 'Ada Lovelace', source: 'website_footer' };

/** Each form endpoint, with a valid body and how to count what it stored. */
const FORMS = [
  {
    name: 'leads-create',
    handler: leadsCreate,
    url: '/api/leads/create',
    body: LEAD,
    count: (store: Store) => store.countLeads(),
  },
  {
    name: 'subscribers',
    handler: newsletterSubscribe,
    url: '/api/subscribers',
    body: SUBSCRIBER,
    count: (store: Store) => store.countSubscribers(),
  },
  {
    name: 'newsletter-subscribe',
    handler: newsletterSubscribe,
    url: '/api/newsletter/subscribe',
    body: FOOTER,
    count: (store: Store) => store.countSubscribers(),
  },
] as const;

async function send(form: (typeof FORMS)[number], altcha: unknown, headers: Record<string, string> = {}) {
  const body = altcha === undefined ? form.body : { ...form.body, altcha };
  const response = await form.handler(
    new Request(`http://localhost${form.url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
    createContext({ ip: '203.0.113.9' }),
  );
  return {
    status: response.status,
    json: (await response.json()) as { error?: string; fields?: Record<string, string> },
  };
}

/** A challenge signed as this site signs them, but with other parameters (a past expiry, another secret). */
function otherChallenge(options: { expiresAt?: Date; secret?: string }): Promise<Challenge> {
  const secret = options.secret;
  return createChallenge({
    algorithm: DIFFICULTY.algorithm,
    cost: DIFFICULTY.cost,
    counter: 5,
    deriveKey,
    expiresAt: options.expiresAt ?? new Date(Date.now() + CHALLENGE_TTL_MS),
    hmacSignatureSecret: secret ?? 'not-this-sites-secret-0123456789',
    hmacKeySignatureSecret: `${secret ?? 'not-this-sites-secret'}-keys`,
  });
}

describe.each(stores.backends)('on %s', (_label, backend) => {
  let store: Store;
  beforeEach(async () => {
    store = await stores.fresh(backend, { SESSION_SECRET: SECRET, RATE_LIMIT_PER_MINUTE: '1000' });
  });

  describe.each(FORMS)('$url', (form) => {
    test('a valid solution is stored once; the same solution again is refused as spent', async () => {
      const altcha = await proofFromHandler();
      expect(await send(form, altcha)).toEqual({ status: 201, json: { ok: true } });
      expect(await form.count(store)).toBe(1);
      const replay = await send(form, altcha);
      expect(replay.status).toBe(422);
      expect(replay.json.fields?.altcha).toBe(PROOF_OF_WORK_PROBLEMS.spent);
      expect(await form.count(store)).toBe(1);
    });

    test.each<[string, () => unknown, ProofOfWorkProblem | undefined]>([
      ['no solution', () => undefined, 'missing'],
      ['an empty one', () => '', 'missing'],
      ['one that is not base64 JSON', () => 'bm90IGpzb24=', 'malformed'],
      ['one of the wrong shape', () => Buffer.from('{"challenge":1}').toString('base64'), 'malformed'],
      ['a number', () => 42, undefined],
      ['one signed with another secret', async () => solve(await otherChallenge({})), 'invalid'],
      [
        'one whose solution was tampered with',
        async () => {
          const payload = JSON.parse(Buffer.from(await proofFromHandler(), 'base64').toString()) as {
            solution: { derivedKey: string };
          };
          payload.solution.derivedKey = payload.solution.derivedKey.replace(/.$/, (last) => (last === '0' ? '1' : '0'));
          return Buffer.from(JSON.stringify(payload)).toString('base64');
        },
        'invalid',
      ],
    ])('%s gets 422 and stores nothing', async (_label, make, problem) => {
      const { status, json } = await send(form, await make());
      expect(status).toBe(422);
      if (problem)
        expect(json).toEqual({
          error: PROOF_OF_WORK_PROBLEMS[problem],
          fields: { altcha: PROOF_OF_WORK_PROBLEMS[problem] },
        });
      else expect(json.fields?.altcha).toBeTruthy();
      expect(await form.count(store)).toBe(0);
    });
  });

  test('a challenge signed with this site’s secret that expired is refused even when solved correctly', async () => {
    // Issued 31 minutes ago by the site's own code: valid in every way but its age.
    const stale = await solve(await newChallenge(new Date(Date.now() - CHALLENGE_TTL_MS - 60_000)));
    const { status, json } = await send(FORMS[0], stale);
    expect([status, json.error]).toEqual([422, PROOF_OF_WORK_PROBLEMS.expired]);
    expect(await store.countLeads()).toBe(0);
  });

  test('twenty submissions at once with one solution store exactly one record', async () => {
    const altcha = await proofFromHandler();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        send({ ...FORMS[0], body: { ...LEAD, notes: `attempt ${index}` } }, altcha),
      ),
    );
    expect(results.filter((result) => result.status === 201)).toHaveLength(1);
    expect(results.filter((result) => result.status === 422)).toHaveLength(19);
    expect(await store.countLeads()).toBe(1);
  });

  test('a retry of a stored submission with its idempotency key gets the first answer, whatever solution it brings', async () => {
    const key = { 'idempotency-key': crypto.randomUUID() };
    const altcha = await proofFromHandler();
    expect((await send(FORMS[0], altcha, key)).status).toBe(201);
    expect((await send(FORMS[0], altcha, key)).status).toBe(201);
    expect((await send(FORMS[0], await proofFromHandler(), key)).status).toBe(201);
    expect(await store.countLeads()).toBe(1);
  });

  test('a solution is spent only by a stored submission: invalid fields leave it usable', async () => {
    const altcha = await proofFromHandler();
    const invalid = await send({ ...FORMS[0], body: { ...LEAD, email: 'not an address' } }, altcha);
    expect(invalid.status).toBe(422);
    expect((await send(FORMS[0], altcha)).status).toBe(201);
  });

  test('refusals are counted per endpoint for the Spam section', async () => {
    await send(FORMS[0], undefined);
    await send(FORMS[0], 'bm90IGpzb24=');
    await send(FORMS[2], undefined);
    const { challengeFailures } = await store.spamOverview({ offset: 0, limit: 10 });
    expect({ ...challengeFailures }).toEqual({ 'leads-create': 2, 'newsletter-subscribe': 1 });
  });
});

describe('GET /api/challenge', () => {
  beforeEach(() => configure({ LOCAL_STORE_DIR: stores.folder() }));

  const get = (ip = '198.51.100.4', method = 'GET') =>
    challenge(new Request('http://localhost/api/challenge', { method }), createContext({ ip }));

  test('answers a signed challenge in ALTCHA’s format that no cache keeps', async () => {
    const response = await get();
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as Challenge;
    expect(body.parameters).toMatchObject({ algorithm: DIFFICULTY.algorithm, cost: 50 });
    expect(body.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(body.parameters.expiresAt! * 1000 - Date.now()).toBeGreaterThan(CHALLENGE_TTL_MS - 60_000);
  });

  test('cost DIFFICULTY’s iterations a try unless a local run sets its own, which a deployed function ignores', async () => {
    const cost = async () => ((await (await get()).json()) as Challenge).parameters.cost;
    const own = process.env.LOCAL_PROOF_OF_WORK_COST;
    onTestFinished(() => addEnv({ LOCAL_PROOF_OF_WORK_COST: own ?? '' }));
    // The tests' own setting (vitest.config.ts), in this local run.
    expect(await cost()).toBe(50);
    addEnv({ LOCAL_PROOF_OF_WORK_COST: '' });
    expect(await cost()).toBe(DIFFICULTY.cost);
    // A deployed function (no local run) keeps the full cost, whatever the setting says.
    addEnv({ LOCAL_PROOF_OF_WORK_COST: '7', SITE_LOCAL_RUN: '' });
    expect(challengeCost()).toBe(DIFFICULTY.cost);
    addEnv({ SITE_LOCAL_RUN: 'true' });
    expect(challengeCost()).toBe(7);
  });

  test('two challenges are never the same', async () => {
    const [first, second] = await Promise.all([get(), get()].map(async (response) => (await response).json()));
    expect(first.parameters.nonce).not.toBe(second.parameters.nonce);
  });

  test('a POST answers 405', async () => {
    expect((await get('198.51.100.5', 'POST')).status).toBe(405);
  });

  test('one client gets as many a minute as the rate limit allows, then 429 with Retry-After', async () => {
    configure({ LOCAL_STORE_DIR: stores.folder(), RATE_LIMIT_PER_MINUTE: '3' });
    const statuses = [];
    for (let index = 0; index < 4; index += 1) statuses.push((await get('198.51.100.6')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await get('198.51.100.6');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await get('198.51.100.7')).status).toBe(200);
  });

  test('ALTCHA_HMAC_KEY, when set, signs instead of the site secret: challenges signed before no longer verify', async () => {
    const before = await proofFromHandler();
    configure({ LOCAL_STORE_DIR: stores.folder(), ALTCHA_HMAC_KEY: 'a-separate-altcha-key-0123456789abcdef' });
    const store = createSqliteStore(stores.folder());
    stores.opened.push(store);
    expect((await send(FORMS[0], before)).status).toBe(422);
    expect((await send(FORMS[0], await proofFromHandler())).status).toBe(201);
    expect(await store.countLeads()).toBe(1);
  });
});
