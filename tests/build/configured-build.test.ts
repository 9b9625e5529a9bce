/**
 * A build made as an owner configures the site, with every embed and every admin secret set, in
 * a throw-away copy of the site:
 * - the Content-Security-Policy lets in the hosts of the embeds (the contact form and the external
 *   dashboard as frames, the chat widget as a script) and no other, and the ordinary build
 *   (dist/), with none, names no other host;
 * - nothing that guards the admin page reaches the browser: every client file is searched for the
 *   password, hash and session secret, and for any password check.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copySite, type SiteCopy } from '../../scripts/harness/site-copy';
import { builtPages, DIST, pagePolicy } from '../support/dist';

const EMBEDS = {
  PUBLIC_CONTACT_FORM_URL: 'https://forms.example/acme/contact?embed=1',
  PUBLIC_CHAT_WIDGET_URL: 'https://chat.example/v2/widget.js',
  PUBLIC_EXTERNAL_DASHBOARD_URL: 'https://stats.example/share/acme',
};
const SECRETS = {
  ADMIN_PASSWORD: 'plain-password-7c1e9b',
  ADMIN_PASSWORD_HASH: 'scrypt$131072$8$1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g',
  SESSION_SECRET: 'session-secret-5b2f0e8d4a6c1b3e9f7a2d4c6e8b0a1f',
};

let site: SiteCopy;
beforeAll(() => {
  site = copySite();
  const { status, output } = site.build({ ...EMBEDS, ...SECRETS });
  expect(status, output).toBe(0);
}, 180_000);
afterAll(() => site?.remove());

/** The page's policy as directive name → sources. */
function policyOf(html: string): Record<string, string[]> {
  const policy = pagePolicy(html);
  expect(policy, 'no CSP meta tag').toBeDefined();
  return policy ?? {};
}

/** The sources of a directive that name another host (schemes with a host: https://…, http://…). */
const hostsIn = (sources: string[] = []) => sources.filter((source) => /^https?:\/\//.test(source));

describe('with the contact form, chat and external dashboard embeds configured', () => {
  let pages: string[];
  const page = (file: string) => readFileSync(site.file('dist', file), 'utf8');
  beforeAll(() => {
    pages = builtPages(site.file('dist'));
  });

  test('every page lets in the two frame origins and the chat script origin, and nothing else from another host', () => {
    expect(pages.length).toBeGreaterThan(30);
    for (const file of pages) {
      const policy = policyOf(page(file));
      expect(policy['frame-src'], file).toEqual(['https://forms.example', 'https://stats.example']);
      expect(hostsIn(policy['script-src']), file).toEqual(['https://chat.example']);
      for (const [name, sources] of Object.entries(policy)) {
        if (name !== 'frame-src' && name !== 'script-src') expect(hostsIn(sources), `${file} ${name}`).toEqual([]);
      }
    }
  });

  test('the pages embed what the policy lets in', () => {
    expect(page('contact.html')).toContain('<iframe src="https://forms.example/acme/contact?embed=1"');
    expect(page('index.html')).toContain('data-src="https://forms.example/acme/contact?embed=1"');
    expect(page('index.html')).toContain('data-src="https://chat.example/v2/widget.js"');
    expect(page('admin/insights.html')).toContain('https://stats.example/share/acme');
  });
});

test('without embeds configured, no page names another host in its policy and frames are refused', () => {
  const pages = builtPages();
  expect(pages.length).toBeGreaterThan(30);
  for (const file of pages) {
    const policy = policyOf(readFileSync(path.join(DIST, file), 'utf8'));
    expect(policy['frame-src'], file).toEqual(["'none'"]);
    for (const [name, sources] of Object.entries(policy)) expect(hostsIn(sources), `${file} ${name}`).toEqual([]);
  }
});

describe("with the admin's password, hash and session secret set", () => {
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

  let files: string[] = [];

  function walk(directory: string): string[] {
    return readdirSync(directory).flatMap((entry) => {
      const full = path.join(directory, entry);
      return statSync(full).isDirectory() ? walk(full) : [full];
    });
  }

  beforeAll(() => {
    files = walk(site.file('dist')).filter((file) => /\.(js|mjs|html|json|css|xml|txt)$/.test(file));
  });

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
});
