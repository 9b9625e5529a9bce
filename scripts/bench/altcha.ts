/**
 * The forms' proof of work at the chosen difficulty (functions/_lib/forms/signed-challenges.ts DIFFICULTY):
 *
 * - in Chromium, the time the site's own solver (src/lib/altcha-solver.ts, the chunk the forms
 *   load) takes from fetching a challenge to its solution, with two workers and with one, and
 *   from the cost of one try, an estimate for a phone whose cores are 4× slower;
 * - on the server, what issuing a challenge and verifying a solution cost per request.
 *
 *   npm run bench:altcha          (builds first)
 *   ALTCHA_RUNS=40 npm run bench:altcha
 */
import { chromium } from '@playwright/test';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type * as ProofOfWork from '../../functions/_lib/forms/signed-challenges.ts';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../harness/chromium.ts';
import { PROJECT_ROOT } from '../harness/project.ts';
import { importBundled } from '../harness/functions.ts';
import { startSiteServer } from '../harness/site-server.ts';

const { checkProofOfWork, DIFFICULTY, newChallenge } = await importBundled<typeof ProofOfWork>(
  PROJECT_ROOT,
  'functions/_lib/forms/signed-challenges.ts',
);

const RUNS = Number(process.env.ALTCHA_RUNS ?? 20);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const summary = (values: number[]) => ({
  'p50 ms': Math.round(percentile(values, 50)),
  'p90 ms': Math.round(percentile(values, 90)),
  'max ms': Math.round(Math.max(...values)),
});

const assets = path.join(PROJECT_ROOT, 'dist', '_astro');
const solverFile = readdirSync(assets).find((file) => /^altcha-solver\..*\.js$/.test(file));
if (!solverFile) throw new Error('dist/_astro has no altcha-solver chunk: run npm run build first');

// A secret of the benchmark's own, for the server half and the local server alike.
process.env.SESSION_SECRET ??= 'bench-altcha-secret-0123456789abcdefghijklmnop';
const server = await startSiteServer({ SESSION_SECRET: process.env.SESSION_SECRET, RATE_LIMIT_PER_MINUTE: '100000' });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });

/** A mid-range phone's core against this machine's: DevTools' "mid-tier mobile" preset slows the CPU 4×. */
const PHONE_SLOWDOWN = 4;

const rows = [];
let perTry = 0;
try {
  for (const workers of [2, 1]) {
    const page = await browser.newPage({ viewport: { width: 375, height: 740 }, isMobile: true });
    await page.goto(`${server.origin}/contact`);
    const times: number[] = [];
    const tries: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const { ms, counter } = await page.evaluate(
        async ({ url, workers }) => {
          Object.defineProperty(navigator, 'hardwareConcurrency', { value: workers, configurable: true });
          const solver = await import(url);
          const started = performance.now();
          const { payload } = await solver.solveChallenge();
          const ms = performance.now() - started;
          return { ms, counter: (JSON.parse(atob(payload)) as { solution: { counter: number } }).solution.counter };
        },
        { url: `/_astro/${solverFile}`, workers },
      );
      times.push(ms);
      // The workers share the tries up to the solution's counter between them.
      tries.push((ms * workers) / (counter + 1));
    }
    if (workers === 1) perTry = percentile(tries, 50);
    rows.push({
      browser: 'Chromium on this machine',
      workers,
      ...summary(times),
      'ms per try': percentile(tries, 50).toFixed(2),
    });
    await page.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
// Chromium's CPU throttling (DevTools, CDP) slows the page's main thread, not its web workers,
// where the work is done: a phone's time is estimated from the measured cost of one try.
const phone = (tries: number, workers: number) => Math.round((perTry * PHONE_SLOWDOWN * tries) / workers);
const mean = (DIFFICULTY.counter.min + DIFFICULTY.counter.max) / 2;
rows.push(
  {
    browser: `phone, ${PHONE_SLOWDOWN}× slower per core (estimate)`,
    workers: 4,
    'p50 ms': phone(mean, 4),
    'max ms': phone(DIFFICULTY.counter.max, 4),
  },
  {
    browser: `phone, ${PHONE_SLOWDOWN}× slower per core (estimate)`,
    workers: 2,
    'p50 ms': phone(mean, 2),
    'max ms': phone(DIFFICULTY.counter.max, 2),
  },
);

// The server's half, in this process: what a challenge and a verification cost.
const issued: number[] = [];
const challenges = [];
for (let run = 0; run < RUNS * 5; run += 1) {
  const started = performance.now();
  challenges.push(await newChallenge());
  issued.push(performance.now() - started);
}
const payloads = [];
for (const challenge of challenges.slice(0, RUNS)) {
  const solution = await solveChallenge({ challenge, deriveKey });
  payloads.push(Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'));
}
const verified: number[] = [];
for (let round = 0; round < 50; round += 1) {
  for (const payload of payloads) {
    const started = performance.now();
    const check = await checkProofOfWork(payload);
    verified.push(performance.now() - started);
    if (!check.ok) throw new Error(`a solved challenge did not verify: ${check.problem}`);
  }
}
const micro = (values: number[]) => ({
  'p50 µs': Math.round(percentile(values, 50) * 1000),
  'p99 µs': Math.round(percentile(values, 99) * 1000),
});

console.log(
  `\nProof of work: ${DIFFICULTY.algorithm}, ${DIFFICULTY.cost} iterations per try, ` +
    `${DIFFICULTY.counter.min}–${DIFFICULTY.counter.max} tries; ${RUNS} challenges per row\n`,
);
console.log('Solving in Chromium (fetching the challenge included)');
console.table(rows);
console.log('\nThe server, per request');
console.table([
  { step: 'issue a challenge (GET /api/challenge)', ...micro(issued) },
  { step: 'verify a solution (every form POST)', ...micro(verified) },
]);
