/**
 * Admin authentication primitives: password hashes, the signed session cookie and cookie
 * parsing, plus the hashing script run as the admin would run it.
 * scrypt at N=2^17 costs a few hundred milliseconds, so only a handful of tests hash for real.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  LOCAL_SESSION_COOKIE,
  SESSION_COOKIE,
  SESSION_MAX_AGE_SECONDS,
  clearedSessionCookie,
  hashPassword,
  newSessionId,
  readCookie,
  sessionCookie,
  signSession,
  verifyPassword,
  verifyPlainPassword,
  verifySession,
} from '../../functions/_lib/admin/auth';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HASH_FORMAT = /^scrypt\$131072\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/;
const SLOW = { timeout: 20_000 };

describe('hashPassword and verifyPassword', () => {
  const password = 'correct horse battery staple';
  let stored: string;

  beforeAll(async () => {
    stored = await hashPassword(password);
  }, 20_000);

  test('writes scrypt with its parameters, a 16-byte salt and a 32-byte hash', () => {
    expect(stored).toMatch(HASH_FORMAT);
  });

  test('salts every hash, so the same password never hashes twice the same', SLOW, async () => {
    expect(await hashPassword(password)).not.toBe(stored);
  });

  test('accepts the right password', SLOW, async () => {
    expect(await verifyPassword(password, stored)).toBe(true);
  });

  test('refuses a wrong password', SLOW, async () => {
    expect(await verifyPassword('correct horse battery stapler', stored)).toBe(false);
  });

  const salt = 'A'.repeat(22);
  const key = 'A'.repeat(43);
  test.each([
    ['an empty string', ''],
    ['a bare prefix', 'scrypt$'],
    ['another algorithm', '$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW'],
    ['another algorithm with scrypt-like fields', `bcrypt$131072$8$1$${salt}$${key}`],
    ['a missing field', `scrypt$131072$8$${salt}$${key}`],
    ['an extra field', `scrypt$131072$8$1$${salt}$${key}$`],
    ['a salt that is not base64url', `scrypt$131072$8$1$${'A'.repeat(20)}+/$${key}`],
    ['a hash that is not base64url', `scrypt$131072$8$1$${salt}$${'!'.repeat(43)}`],
    ['a salt spelled non-canonically', `scrypt$131072$8$1$${'A'.repeat(21)}B$${key}`],
    ['a salt that is too short', `scrypt$131072$8$1$AAAA$${key}`],
    ['a negative cost', `scrypt$-131072$8$1$${salt}$${key}`],
    ['a cost that is not a power of two', `scrypt$131073$8$1$${salt}$${key}`],
    ['a huge cost', `scrypt$${2 ** 21}$8$1$${salt}$${key}`],
    ['an absurd cost', `scrypt$99999999999999999999$8$1$${salt}$${key}`],
    ['a zero block size', `scrypt$131072$0$1$${salt}$${key}`],
    ['a block size times parallelism too large', `scrypt$131072$32$16$${salt}$${key}`],
    ['too much memory', `scrypt$${2 ** 20}$8$1$${salt}$${key}`],
  ])('returns false, without throwing, for %s', async (_case, malformed) => {
    await expect(verifyPassword(password, malformed)).resolves.toBe(false);
  });
});

describe('verifyPlainPassword', () => {
  test('accepts the same password', () => {
    expect(verifyPlainPassword('local admin password', 'local admin password')).toBe(true);
  });

  test('refuses a different password of the same length', () => {
    expect(verifyPlainPassword('local admin passworD', 'local admin password')).toBe(false);
  });

  test.each([
    ['a prefix', 'local admin'],
    ['a longer password', 'local admin password!'],
    ['an empty password', ''],
  ])('refuses %s without throwing', (_case, attempt) => {
    expect(verifyPlainPassword(attempt, 'local admin password')).toBe(false);
  });
});

describe('newSessionId', () => {
  test('gives 32 random bytes in base64url, different every time', () => {
    const first = newSessionId();
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newSessionId()).not.toBe(first);
  });
});

describe('signSession and verifySession', () => {
  const secret = 'a session secret of reasonable length for tests';
  const now = new Date('2030-01-01T09:00:00Z');
  const expiresAt = new Date(now.getTime() + SESSION_MAX_AGE_SECONDS * 1000);
  const sessionId = newSessionId();
  const value = signSession(sessionId, expiresAt, secret);
  const [id = '', exp = '', mac = ''] = value.split('.');

  test('reads back the session it signed', () => {
    expect(value).toBe(`${sessionId}.${expiresAt.getTime() / 1000}.${mac}`);
    expect(verifySession(value, secret, now)).toEqual({ sessionId, expiresAt });
  });

  test('still accepts the session a second before it expires', () => {
    expect(verifySession(value, secret, new Date(expiresAt.getTime() - 1000))).not.toBeNull();
  });

  test.each([
    ['at the moment it expires', expiresAt],
    ['after it expired', new Date(expiresAt.getTime() + 1000)],
  ])('refuses the session %s', (_case, later) => {
    expect(verifySession(value, secret, later)).toBeNull();
  });

  test('refuses a session signed to last longer than a session may', () => {
    const tooLong = signSession(sessionId, new Date(now.getTime() + (SESSION_MAX_AGE_SECONDS + 120) * 1000), secret);
    expect(verifySession(tooLong, secret, now)).toBeNull();
  });

  // The last base64url character of a 32-byte MAC carries two unused bits: flipping one keeps the bytes.
  const lastChar = mac.at(-1) ?? 'A';
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const sameBytesMac = mac.slice(0, -1) + alphabet[alphabet.indexOf(lastChar) ^ 1];

  test.each([
    ['no value', undefined],
    ['an empty value', ''],
    ['a tampered session id', `${id.startsWith('A') ? 'B' : 'A'}${id.slice(1)}.${exp}.${mac}`],
    ['another session id with the same MAC', `${newSessionId()}.${exp}.${mac}`],
    ['a tampered expiry', `${id}.${Number(exp) - 60}.${mac}`],
    ['a tampered MAC', `${id}.${exp}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`],
    ['a MAC spelled differently for the same bytes', `${id}.${exp}.${sameBytesMac}`],
    ['a truncated value', value.slice(0, -1)],
    ['a MAC cut in half', `${id}.${exp}.${mac.slice(0, 22)}`],
    ['an oversized value', `${id}.${exp}.${mac}${'A'.repeat(10_000)}`],
    ['an extra dot', `${value}.`],
    ['an extra part', `${id}.${exp}.${exp}.${mac}`],
    ['only two parts', `${id}.${mac}`],
    ['characters outside base64url', `${id}+/.${exp}.${mac}`],
    ['a non-numeric expiry', `${id}.1e12.${mac}`],
    ['a value signed with another secret', signSession(sessionId, expiresAt, 'another secret')],
  ])('refuses %s', (_case, tampered) => {
    expect(verifySession(tampered, secret, now)).toBeNull();
  });

  test('refuses everything when the secret is empty', () => {
    expect(verifySession(value, '', now)).toBeNull();
  });

  test('refuses to sign a session id that could not be read back', () => {
    expect(() => signSession('with.dot', expiresAt, secret)).toThrow();
  });
});

describe('sessionCookie and clearedSessionCookie', () => {
  const attributes = (cookie: string) => cookie.split('; ');

  test('sets a host-only, script-proof, same-site cookie for the whole site', () => {
    const cookie = sessionCookie('abc.123.def', SESSION_MAX_AGE_SECONDS);
    expect(cookie.startsWith(`${SESSION_COOKIE}=abc.123.def; `)).toBe(true);
    expect(attributes(cookie)).toEqual(
      expect.arrayContaining(['Path=/', 'Max-Age=28800', 'HttpOnly', 'Secure', 'SameSite=Strict']),
    );
    expect(cookie).not.toMatch(/domain/i);
  });

  test('clears the cookie with the same attributes and Max-Age=0', () => {
    const cookie = clearedSessionCookie();
    expect(attributes(cookie)).toEqual([
      `${SESSION_COOKIE}=`,
      'Path=/',
      'Max-Age=0',
      'HttpOnly',
      'Secure',
      'SameSite=Strict',
    ]);
  });

  test('not Secure, it drops the __Host- prefix too (a local run over http) and keeps the rest', () => {
    expect(attributes(sessionCookie('abc.123.def', SESSION_MAX_AGE_SECONDS, false))).toEqual([
      `${LOCAL_SESSION_COOKIE}=abc.123.def`,
      'Path=/',
      'Max-Age=28800',
      'HttpOnly',
      'SameSite=Strict',
    ]);
    expect(clearedSessionCookie(false)).toBe(`${LOCAL_SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict`);
  });

  test('refuses a value that would inject attributes', () => {
    expect(() => sessionCookie('x; Domain=evil.example', 60)).toThrow();
  });
});

describe('readCookie', () => {
  test('finds one cookie among several', () => {
    expect(readCookie(`theme=dark; ${SESSION_COOKIE}=abc.123.def; lang=en`, SESSION_COOKIE)).toBe('abc.123.def');
  });

  test('returns the first of two cookies with the same name', () => {
    expect(readCookie('a=1; a=2', 'a')).toBe('1');
  });

  test('does not confuse a name with a longer one', () => {
    expect(readCookie('xa=1; a=2', 'a')).toBe('2');
  });

  test('keeps = signs inside the value', () => {
    expect(readCookie('a=b=c', 'a')).toBe('b=c');
  });

  test.each([
    ['no header', null],
    ['an empty header', ''],
    ['a header without the cookie', 'theme=dark; lang=en'],
  ])('returns undefined for %s', (_case, header) => {
    expect(readCookie(header, SESSION_COOKIE)).toBeUndefined();
  });

  test('skips malformed pairs without throwing', () => {
    expect(readCookie(`garbage; =orphan; ;; %zz; ${SESSION_COOKIE}=v;`, SESSION_COOKIE)).toBe('v');
  });
});

describe('scripts/admin/hash-password.ts', () => {
  const run = (args: string[], input?: string) =>
    spawnSync(process.execPath, ['scripts/admin/hash-password.ts', ...args], {
      cwd: PROJECT_ROOT,
      input,
      encoding: 'utf8',
      timeout: 20_000,
    });

  test('prints a hash of the password given as an argument that verifies', SLOW, async () => {
    const result = run(['correct horse battery']);
    expect(result.status).toBe(0);
    const [, hash = ''] = /^ADMIN_PASSWORD_HASH=(\S+)\n$/.exec(result.stdout) ?? [];
    expect(hash).toMatch(HASH_FORMAT);
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(result.stderr).toContain('Environment variables');
  });

  test('reads the password from stdin when no argument is given', SLOW, () => {
    const result = run([], 'correct horse battery\n');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^ADMIN_PASSWORD_HASH=scrypt\$131072\$8\$1\$\S+\n$/);
  });

  test.each([
    ['a short password', ['short pw'], undefined, /at least 12 characters/],
    ['an empty argument', [''], undefined, /No password/],
    ['empty stdin', [], '', /No password/],
  ])('refuses %s with exit code 1 and no hash', (_case, args, input, message) => {
    const result = run(args, input);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
  });
});
