/**
 * The forms' proof of work in the build: a chunk of its own that no page loads or preloads (the
 * forms import it on first use), whose one worker is a file of the site's, so the pages' policy
 * allows it as it stands: no blob: or data: workers, no WebAssembly, nothing loosened.
 * Reads dist/, which `npm test` builds first.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { builtPages, CMS_PAGE, DIST, pagePolicy } from '../support/dist';

const ASSETS = path.join(DIST, '_astro');
const files = readdirSync(ASSETS);
const solver = files.find((file) => /^altcha-solver\.[\w.-]+\.js$/.test(file));
const workers = files.filter((file) => /^pbkdf2[.-][\w.-]+\.js$/.test(file));
const PAGES = builtPages().filter((page) => page !== CMS_PAGE);

describe('the proof of work in the build', () => {
  test('is one chunk of its own with one worker file', () => {
    expect(solver).toBeDefined();
    expect(workers).toHaveLength(1);
  });

  test('the solver starts its worker from the site’s own file, never from a blob: or data: URL', () => {
    const code = readFileSync(path.join(ASSETS, solver ?? ''), 'utf8');
    const started = [...code.matchAll(/new Worker\(([^,)]*)/g)].map((match) => match[1]);
    expect(started).toEqual([`\`/_astro/${workers[0]}\``]);
    expect(code).not.toMatch(/createObjectURL|data:(text|application)\/javascript/);
  });

  test('the worker derives keys with Web Crypto, not WebAssembly', () => {
    const code = readFileSync(path.join(ASSETS, workers[0] ?? ''), 'utf8');
    expect(code).toContain('PBKDF2');
    expect(code).not.toMatch(/WebAssembly/);
  });

  test.each(PAGES)('%s neither loads nor preloads it, and its policy allows workers from the site only', (page) => {
    const html = readFileSync(path.join(DIST, page), 'utf8');
    expect(html).not.toContain('altcha-solver');
    expect(html).not.toContain('pbkdf2');
    const policy = pagePolicy(html) ?? {};
    // worker-src falls back to script-src: 'self' and hashes, nothing that would run other code.
    const workerSources = policy['worker-src'] ?? policy['script-src'] ?? [];
    expect(workerSources).toContain("'self'");
    for (const loose of ['blob:', 'data:', "'unsafe-eval'", "'wasm-unsafe-eval'", '*'])
      expect(workerSources).not.toContain(loose);
  });
});
