/**
 * Every built page carries a Content-Security-Policy without 'unsafe-inline' for scripts or
 * styles, and the hash of each of its inline scripts, JSON-LD blocks and style elements is in
 * that policy.
 * Reads dist/, which `npm test` builds first.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { builtPages, DIST, pagePolicy } from '../support/dist';

const PAGES = builtPages();

describe('content security policy of the built pages', () => {
  test('the build has pages to check', () => {
    expect(PAGES.length).toBeGreaterThan(30);
  });

  test.each(PAGES)('%s', (page) => {
    const html = readFileSync(path.join(DIST, page), 'utf8');
    const policy = pagePolicy(html);
    expect(policy, 'no CSP meta tag').toBeDefined();
    const scriptSrc = policy?.['script-src'] ?? [];
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
    const inline = [...html.matchAll(/<script(?![^>]*\ssrc=)([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(inline.length).toBeGreaterThan(0);
    for (const [, attributes, body] of inline) {
      const hash = `'sha256-${createHash('sha256')
        .update(body ?? '')
        .digest('base64')}'`;
      expect(scriptSrc, `inline script ${attributes?.trim() || '(classic)'} of ${page} is not in the policy`).toContain(
        hash,
      );
    }
    const styleSrc = policy?.['style-src'] ?? [];
    expect(styleSrc).not.toContain("'unsafe-inline'");
    for (const [, body] of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)) {
      const hash = `'sha256-${createHash('sha256')
        .update(body ?? '')
        .digest('base64')}'`;
      expect(styleSrc, `an inline style of ${page} (${(body ?? '').slice(0, 40)}…) is not in the policy`).toContain(
        hash,
      );
    }
    expect(html).not.toMatch(/<[a-z][^>]*\sstyle="/i);
  });
});
