/**
 * Nothing that guards the admin page may reach the browser: a build made with a configured
 * password, hash and session secret is searched, file by file, for them and for any password check.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { copySite, type SiteCopy } from '../../scripts/harness/site-copy';

const SECRETS = {
  ADMIN_PASSWORD: 'plain-password-7c1e9b',
  ADMIN_PASSWORD_HASH: 'scrypt$131072$8$1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g',
  SESSION_SECRET: 'session-secret-5b2f0e8d4a6c1b3e9f7a2d4c6e8b0a1f',
};
/** What a client-side password gate would contain. */
const CHECKS = [
  'timingSafeEqual',
  'scrypt',
  'verifyPassword',
  'verifyPlainPassword',
  'ADMIN_PASSWORD',
  'SESSION_SECRET',
  'createHmac',
];

let site: SiteCopy;
let files: string[] = [];

function walk(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const full = path.join(directory, entry);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

beforeAll(() => {
  site = copySite();
  const { status, output } = site.build(SECRETS);
  expect(status, output).toBe(0);
  files = walk(site.file('dist')).filter((file) => /\.(js|mjs|html|json|css|xml|txt)$/.test(file));
}, 120_000);

afterAll(() => site?.remove());

test('the build has client files to search, the admin page among them', () => {
  expect(files.some((file) => file.endsWith(path.join('admin', 'insights.html')))).toBe(true);
  expect(files.filter((file) => file.endsWith('.js')).length).toBeGreaterThan(3);
});

test.each(Object.entries(SECRETS))('no client file contains %s', (_name, value) => {
  for (const file of files) expect(readFileSync(file, 'utf8').includes(value), file).toBe(false);
});

/**
 * Decap CMS's bundle, as published and integrity-checked (scripts/cms/vendor-decap.ts), carries a
 * library's own crypto code: its words are not a password gate of ours. It is still searched for
 * the secrets themselves above.
 */
const isVendored = (file: string) => file.includes(`${path.sep}${path.join('admin', 'cms', 'decap')}${path.sep}`);

test.each(CHECKS)('no client file contains a password check (%s)', (word) => {
  for (const file of files.filter((file) => !isVendored(file))) {
    expect(readFileSync(file, 'utf8').includes(word), file).toBe(false);
  }
});
