/**
 * The Content-Security-Policy lets in the hosts of the embeds an owner configures (the contact
 * form and the external dashboard as frames, the chat widget as a script) and no other: a copy
 * of the site is built with all three set, and the ordinary build (dist/) with none names no
 * other host.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copySite, type SiteCopy } from '../../scripts/harness/site-copy';
import { builtPages, DIST, pagePolicy } from '../support/dist';

const EMBEDS = {
  PUBLIC_CONTACT_FORM_URL: 'https://forms.example/acme/contact?embed=1',
  PUBLIC_CHAT_WIDGET_URL: 'https://chat.example/v2/widget.js',
  PUBLIC_EXTERNAL_DASHBOARD_URL: 'https://stats.example/share/acme',
};

/** The page's policy as directive name → sources. */
function policyOf(html: string): Record<string, string[]> {
  const policy = pagePolicy(html);
  expect(policy, 'no CSP meta tag').toBeDefined();
  return policy ?? {};
}

/** The sources of a directive that name another host (schemes with a host: https://…, http://…). */
const hostsIn = (sources: string[] = []) => sources.filter((source) => /^https?:\/\//.test(source));

describe('with the contact form, chat and external dashboard embeds configured', () => {
  let site: SiteCopy;
  let pages: string[];
  const page = (file: string) => readFileSync(site.file('dist', file), 'utf8');

  beforeAll(() => {
    site = copySite();
    const { status, output } = site.build(EMBEDS);
    expect(status, output).toBe(0);
    pages = builtPages(site.file('dist'));
  }, 180_000);
  afterAll(() => site?.remove());

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
