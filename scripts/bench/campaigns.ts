/**
 * What sign-ups with made-up campaigns do to the admin dashboard. A store is seeded (1,000
 * subscribers and 1,000 leads from 30 campaigns by default), then the size of GET
 * /api/admin/overview and the number of elements of the drawn dashboard in Chromium are measured;
 * then 300 sign-ups are sent through the newsletter form's endpoint, each with unique utm_* values
 * of 200 characters, as one script can within the rate limit, and both are measured again; then
 * after 300 more.
 *
 * The overview carries the newest page of subscribers, so the made-up sign-ups replace those 20
 * rows: each shows its first touch cut to 32 characters, without term and content, so that it
 * weighs what a real one does. The script exits with 1 when the elements or the overview's bytes
 * grow more than 5%. A store of fewer than 20 campaigns (BENCH_CAMPAIGNS=3) has room in the table
 * for made-up ones, up to 20 rows: then both grow once, and no more after the next 300.
 *
 *   npm run bench:campaigns          (builds first)
 *   BENCH_RECORDS=10000 BENCH_CAMPAIGNS=3 BENCH_SIGNUPS=1000 npm run bench:campaigns
 */
import { chromium, type Page } from '@playwright/test';
import { createChallenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type * as ProofOfWork from '../../functions/_lib/forms/signed-challenges.ts';
import { seedStore } from '../admin/seed-store.ts';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../harness/chromium.ts';
import { importBundled } from '../harness/functions.ts';
import { PROJECT_ROOT } from '../harness/project.ts';
import { startSiteServer } from '../harness/site-server.ts';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 1000);
const CAMPAIGNS = Number(process.env.BENCH_CAMPAIGNS ?? 30);
const SIGNUPS = Number(process.env.BENCH_SIGNUPS ?? 300);
/** How much the elements and the overview's bytes may grow. */
const TOLERANCE = 0.05;
const PASSWORD = 'bench admin password';
const UTM = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;

// The server and this process share the secret the challenges are signed with.
process.env.SESSION_SECRET ??= `bench-${randomBytes(24).toString('hex')}`;
const { challengeSecrets, DIFFICULTY } = await importBundled<typeof ProofOfWork>(
  PROJECT_ROOT,
  'functions/_lib/forms/signed-challenges.ts',
);

/** A solved proof of work, signed with the server's secrets at the lowest cost (the server checks it alike). */
async function proof(): Promise<string> {
  const challenge = await createChallenge({
    algorithm: DIFFICULTY.algorithm,
    cost: 1,
    counter: 0,
    deriveKey,
    expiresAt: new Date(Date.now() + 30 * 60_000),
    ...challengeSecrets(),
  });
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** A value of 200 characters no other sign-up sends. */
const unique = (name: string, index: number) => `${name}-${index}-`.padEnd(200, 'x');

interface Figures {
  bytes: number;
  /** The overview's first page of subscribers, in bytes. */
  newest: number;
  elements: number;
}

/** The overview's JSON in bytes, and the elements of the dashboard once its lists and chart are drawn. */
async function measure(origin: string, cookie: string, page: Page): Promise<Figures> {
  const response = await fetch(`${origin}/api/admin/overview`, { headers: { cookie } });
  if (!response.ok) throw new Error(`GET /api/admin/overview answered ${response.status}`);
  const text = await response.text();
  const { subscribers } = JSON.parse(text) as { subscribers: unknown };
  await page.goto(`${origin}/admin/insights`);
  for (const section of ['leads', 'subscribers', 'campaigns'])
    await page.locator(`section[aria-labelledby="${section}-title"] tbody tr`).first().waitFor();
  await page.locator('section[aria-labelledby="activity-title"] canvas').first().waitFor();
  await page.waitForLoadState('networkidle');
  return {
    bytes: Buffer.byteLength(text),
    newest: Buffer.byteLength(JSON.stringify(subscribers)),
    elements: await page.evaluate(() => document.querySelectorAll('*').length),
  };
}

/** `count` sign-ups from `first` on, each with campaign values of its own. */
async function signUps(origin: string, first: number, count: number) {
  for (let index = first; index < first + count; index += 1) {
    const response = await fetch(`${origin}/api/newsletter/subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `campaign-${index}@example.com`,
        firstName: `Reader ${index}`,
        source: 'website_footer',
        page: '/',
        attribution: Object.fromEntries(UTM.map((name) => [name, unique(name, index)])),
        altcha: await proof(),
      }),
    });
    if (!response.ok) throw new Error(`sign-up ${index} answered ${response.status}: ${await response.text()}`);
  }
}

const folder = mkdtempSync(path.join(tmpdir(), 'bench-campaigns-'));
const env = { LOCAL_STORE_DIR: folder };
const runs: [string, Figures][] = [];
try {
  await seedStore({ subscribers: RECORDS, leads: RECORDS, campaigns: CAMPAIGNS, env });
  const server = await startSiteServer({
    ...env,
    ADMIN_PASSWORD: PASSWORD,
    SESSION_SECRET: process.env.SESSION_SECRET,
    RATE_LIMIT_PER_MINUTE: String(SIGNUPS * 4),
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    const { origin } = server;
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${origin}/admin/insights`);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    const cookie = (await page.context().cookies()).map(({ name, value }) => `${name}=${value}`).join('; ');

    runs.push(['before', await measure(origin, cookie, page)]);
    await signUps(origin, 0, SIGNUPS);
    runs.push([`after ${SIGNUPS}`, await measure(origin, cookie, page)]);
    await signUps(origin, SIGNUPS, SIGNUPS);
    runs.push([`after ${2 * SIGNUPS}`, await measure(origin, cookie, page)]);
  } finally {
    await browser.close();
    await server.stop();
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}

const [, before] = runs[0] ?? [];
if (!before) throw new Error('nothing was measured');
const percent = (value: number, base: number) => `${value >= base ? '+' : ''}${((value / base - 1) * 100).toFixed(1)}%`;
const figures: [string, (figures: Figures) => number][] = [
  ['GET /api/admin/overview, bytes', (run) => run.bytes],
  ['  of which the newest 20 subscribers', (run) => run.newest],
  ['  the rest of it', (run) => run.bytes - run.newest],
  ['dashboard elements (1280 px)', (run) => run.elements],
];
console.log(
  `\n${RECORDS} subscribers and ${RECORDS} leads from ${CAMPAIGNS} campaigns seeded, then sign-ups with unique 200-character utm_* values\n`,
);
console.table(
  figures.map(([figure, value]) => ({
    figure,
    ...Object.fromEntries(runs.flatMap(([name, run]) => [[name, value(run)]])),
    ...Object.fromEntries(runs.slice(1).map(([name, run]) => [`growth ${name}`, percent(value(run), value(before))])),
  })),
);
const grew = runs.some(
  ([, run]) => run.elements > before.elements * (1 + TOLERANCE) || run.bytes > before.bytes * (1 + TOLERANCE),
);
if (grew) console.log(`The elements, or the overview's bytes, grew more than ${TOLERANCE * 100}%.`);
process.exitCode = grew ? 1 : 0;
