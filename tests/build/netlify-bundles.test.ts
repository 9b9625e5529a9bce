/**
 * The functions as Netlify deploys them: netlify.toml read by Netlify's own config reader
 * (@netlify/config) and the functions bundled by its own bundler (@netlify/zip-it-and-ship-it),
 * as a Netlify build does. Reads dist/ (the content function ships dist/api-data.json).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { resolveConfig } from '@netlify/config';
import { zipFunctions, type FunctionResult } from '@netlify/zip-it-and-ship-it';
import { z } from 'zod';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../scripts/harness/project';

/** What netlify.toml says about functions, per function name ('*' for all). */
const FunctionsConfig = z.record(
  z.string(),
  z.object({
    included_files: z.array(z.string()).optional(),
    node_bundler: z.enum(['esbuild', 'esbuild_zisi', 'nft', 'zisi', 'none']).optional(),
  }),
);

let functionsConfig: z.infer<typeof FunctionsConfig>;
let bundles: FunctionResult[];
const output = mkdtempSync(path.join(tmpdir(), 'netlify-bundles-'));

beforeAll(async () => {
  const resolved = await resolveConfig({
    config: path.join(PROJECT_ROOT, 'netlify.toml'),
    cwd: PROJECT_ROOT,
    repositoryRoot: PROJECT_ROOT,
    context: 'production',
    offline: true,
    mode: 'cli',
  });
  functionsConfig = FunctionsConfig.parse(z.object({ functions: z.unknown() }).parse(resolved.config).functions);
  const config = Object.fromEntries(
    Object.entries(functionsConfig).map(([name, value]) => [
      name,
      { includedFiles: value.included_files, nodeBundler: value.node_bundler },
    ]),
  );
  bundles = await zipFunctions([path.join(PROJECT_ROOT, 'functions')], output, {
    basePath: PROJECT_ROOT,
    repositoryRoot: PROJECT_ROOT,
    config,
    archiveFormat: 'none',
  });
}, 120_000);

afterAll(() => rmSync(output, { recursive: true, force: true }));

test('every function is bundled by nft, so netlify.toml names no bundler', () => {
  expect(bundles.length).toBeGreaterThan(5);
  for (const bundle of bundles) expect(bundle.bundler, bundle.name).toBe('nft');
  for (const [name, value] of Object.entries(functionsConfig)) expect(value.node_bundler, name).toBeUndefined();
});

test('only the content function ships dist/api-data.json', () => {
  const shipping = bundles.filter((bundle) =>
    (bundle.includedFiles ?? []).some((file) => file.endsWith(path.join('dist', 'api-data.json'))),
  );
  expect(shipping.map((bundle) => bundle.name)).toEqual(['content']);
});

test('one function serves the newsletter sign-up at both paths, with the privacy policy date it records', () => {
  const signUp = bundles.find((bundle) => bundle.name === 'newsletter-subscribe');
  expect(signUp?.routes?.map((route) => route.pattern)).toEqual(['/api/newsletter/subscribe', '/api/subscribers']);
  expect(
    (signUp?.includedFiles ?? []).some((file) => file.endsWith(path.join('dist', 'privacy-policy-version.json'))),
  ).toBe(true);
});

test('the booking functions, and only they, ship the owner’s hours', () => {
  const shipping = bundles.filter((bundle) =>
    (bundle.includedFiles ?? []).some((file) => file.endsWith(path.join('dist', 'booking-hours.json'))),
  );
  expect(shipping.map((bundle) => bundle.name).sort()).toEqual([
    'admin-bookings',
    'booking-slots',
    'bookings-create',
    'bookings-manage',
  ]);
});

test('no two functions claim the same path', () => {
  const patterns = bundles.flatMap((bundle) => (bundle.routes ?? []).map((route) => route.pattern));
  expect(patterns.length).toBeGreaterThan(5);
  expect(new Set(patterns).size).toBe(patterns.length);
});
