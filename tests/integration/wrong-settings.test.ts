/**
 * A wrong setting is named in the function log. Every admin and form request fails while a
 * variable is invalid; the answer keeps the reason to itself, and the log line (all the owner
 * sees on Netlify) says which variable is wrong and why, never a value or the request's data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Context } from '@netlify/functions';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import adminLogin from '../../functions/admin-login';
import adminSession from '../../functions/admin-session';
import challenge from '../../functions/challenge';
import leadsCreate from '../../functions/leads-create';
import newsletterConfirm from '../../functions/newsletter-confirm';
import newsletterSubscribe from '../../functions/newsletter-subscribe';
import newsletterUnsubscribe from '../../functions/newsletter-unsubscribe';
import { endpoint } from '../../functions/_lib/platform/http';
import { resetEnv } from '../../functions/_lib/platform/env';
import { createContext } from '../../scripts/harness/functions';

type Handler = (req: Request, context: Context) => Promise<Response>;

const SHORT_SECRET = 'only-twenty-chars-xx';
/** Shaped like an e-mailed link's token (`v2.` and 60 bytes in base64url): only the secret can tell it is not genuine. */
const LINK_TOKEN = `v2.${Buffer.alloc(60, 7).toString('base64url')}`;
const PASSWORD = 'a password nobody should read in a log';
const KEYS = ['SITE_LOCAL_RUN', 'LOCAL_STORE_DIR', 'SESSION_SECRET', 'ADMIN_PASSWORD', 'ADMIN_PASSWORD_HASH'];
let folder: string;
let logged: string[];

beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'wrong-settings-'));
  for (const key of KEYS) delete process.env[key];
  Object.assign(process.env, {
    SITE_LOCAL_RUN: 'true',
    LOCAL_STORE_DIR: folder,
    ADMIN_PASSWORD: PASSWORD,
    SESSION_SECRET: SHORT_SECRET,
  });
  resetEnv();
  logged = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
});
afterEach(() => {
  vi.restoreAllMocks();
  for (const key of KEYS) delete process.env[key];
  resetEnv();
  rmSync(folder, { recursive: true, force: true });
});

const json = (pathname: string, body: unknown) =>
  new Request(`http://localhost${pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const REQUESTS: [string, Handler, () => Request][] = [
  ['admin-login', adminLogin, () => json('/api/admin/login', { password: PASSWORD })],
  ['admin-session', adminSession, () => new Request('http://localhost/api/admin/session')],
  ['challenge', challenge, () => new Request('http://localhost/api/challenge')],
  [
    'leads-create',
    leadsCreate,
    () => json('/api/leads/create', { name: 'Ada', email: 'ada@example.com', source: 'contact_form', notes: PASSWORD }),
  ],
  [
    'newsletter-subscribe',
    newsletterSubscribe,
    () => json('/api/newsletter/subscribe', { firstName: 'Ada', email: 'ada@example.com', source: 'website_footer' }),
  ],
  // Not "this link is not valid": every link in every inbox would read so, and the log say nothing.
  ['newsletter-confirm', newsletterConfirm, () => json('/api/newsletter/confirm', { token: LINK_TOKEN })],
  ['newsletter-unsubscribe', newsletterUnsubscribe, () => json('/api/newsletter/unsubscribe', { token: LINK_TOKEN })],
];

describe('a SESSION_SECRET under 32 characters', () => {
  test.each(REQUESTS)('%s answers 500 and its log line names the variable', async (name, handler, request) => {
    const response = await handler(request(), createContext({ ip: '203.0.113.5' }));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'Something went wrong on our side. Please try again.' });
    expect(logged).toEqual([
      `[${name}] Invalid environment for functions: SESSION_SECRET: must be at least 32 characters`,
    ]);
    for (const line of logged) {
      expect(line).not.toContain(SHORT_SECRET);
      expect(line).not.toContain(PASSWORD);
    }
  });
});

describe('any other failure', () => {
  test('is logged by its name only: its message may hold what the request carried', async () => {
    process.env.SESSION_SECRET = 'a-secret-of-more-than-thirty-two-characters';
    resetEnv();
    const failing = endpoint({ name: 'failing' }, async () => {
      throw new TypeError(`cannot read ${PASSWORD}`, { cause: new RangeError(PASSWORD) });
    });
    const response = await failing(new Request('http://localhost/api/x'), createContext({ ip: '203.0.113.5' }));
    expect(response.status).toBe(500);
    expect(logged).toEqual(['[failing] unexpected failure: TypeError: RangeError']);
  });
});
