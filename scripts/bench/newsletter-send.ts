/**
 * The newsletter sent to 10,000 confirmed subscribers by the local production server: the owner
 * logs in and presses Send (the admin API, as the page does), the server's own scheduled sweep
 * writes the entries and delivers them to a local SMTP server, which tells messages apart by
 * Message-ID (an entry's id: the same on every attempt).
 *
 * The subscribers are seeded once per size through the store's own verbs (subscribe, then
 * confirmSubscriber) into an embedded store, copied for each run. Three runs, each on its copy:
 *
 * - A, no rate limit (MAIL_RATE_PER_MINUTE=0): Send → every entry written (progress.queued) →
 *   every subscriber's e-mail received; halfway through delivery a lead is posted, and the wait
 *   from its 201 to its notification at the SMTP server is timed (the first line before the
 *   newsletter's second).
 * - B, at MAIL_RATE_PER_MINUTE=600, with BENCH_SUBSCRIBERS_RATED subscribers: the same.
 * - C, crashes: SIGKILL in the middle of the fan-out, restart on the same store, SIGKILL in the
 *   middle of delivery, restart, wait until every entry is recorded as sent. Every subscriber
 *   must get the mailing; a duplicate can only be an entry in flight at a kill (received by SMTP,
 *   its outcome not recorded), which goes again when its lease ends (2 minutes).
 *
 * The sweep runs at the start of each minute; Send is pressed a few seconds before one, so the
 * figures are the sending's and not a random wait for the next minute.
 *
 *   npm run bench:newsletter                                   (builds first)
 *   BENCH_RUNS=A,C BENCH_SUBSCRIBERS_RATED=3000 npm run bench:newsletter
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Mailings } from '../../src/shared/mailing-types.ts';
import { importBundled } from '../harness/functions.ts';
import { PROJECT_ROOT } from '../harness/project.ts';
import { startSiteServer, type SiteServer } from '../harness/site-server.ts';
import { startSmtpSink, type Arrival } from '../harness/smtp-sink.ts';
import { loadCheckout } from './checkout.ts';
import type * as BenchStoreModule from './newsletter-store.ts';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 10_000);
const RATED = Number(process.env.BENCH_SUBSCRIBERS_RATED ?? 10_000);
const RATE = 600;
const RUNS = (process.env.BENCH_RUNS ?? 'A,B,C').split(',');
const PASSWORD = 'bench admin password';
const OWNER = 'owner@bench.example';
process.env.SESSION_SECRET ??= 'bench-session-secret-0123456789abcdef0123';

const folder = mkdtempSync(path.join(tmpdir(), 'bench-newsletter-'));
const { openBenchStore } = await importBundled<typeof BenchStoreModule>(
  PROJECT_ROOT,
  'scripts/bench/newsletter-store.ts',
);
const smtp = await startSmtpSink({ keep: false });
const checkout = await loadCheckout('current', PROJECT_ROOT);
const { mailings } = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'dist', 'mailings.json'), 'utf8')) as Mailings;
const post = mailings.find((mailing) => mailing.kind === 'post');
if (!post) throw new Error('the build publishes no post');
const MAILING = `post-${post.slug}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number | undefined) => (ms === undefined ? '—' : (ms / 1000).toFixed(1));

/** A store folder with `count` confirmed subscribers: seeded once per size, copied for each run. */
const seeded = new Map<number, { folder: string; ms: number }>();
async function storeWith(count: number, run: string): Promise<string> {
  let template = seeded.get(count);
  if (!template) {
    const started = Date.now();
    const store = openBenchStore(path.join(folder, `seed-${count}`));
    await store.seed(count);
    store.close();
    await sleep(200);
    template = { folder: path.join(folder, `seed-${count}`), ms: Date.now() - started };
    seeded.set(count, template);
  }
  const copy = path.join(folder, `run-${run}`);
  cpSync(template.folder, copy, { recursive: true });
  return copy;
}

function serve(store: string, rate: number): Promise<SiteServer> {
  const serverTemp = path.join(folder, 'servers');
  mkdirSync(serverTemp, { recursive: true });
  return startSiteServer({
    LOCAL_STORE_DIR: store,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Bench <hello@bench.example>',
    LEADS_NOTIFY_TO: OWNER,
    ADMIN_PASSWORD: PASSWORD,
    SESSION_SECRET: process.env.SESSION_SECRET ?? '',
    MAIL_RATE_PER_MINUTE: String(rate),
    RATE_LIMIT_PER_MINUTE: '1000000',
    // A killed server leaves its project root behind: here, cleared with the rest.
    TMPDIR: serverTemp,
  });
}

async function logIn(origin: string): Promise<string> {
  const response = await fetch(`${origin}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password: PASSWORD }),
  });
  if (!response.ok) throw new Error(`login answered ${response.status}`);
  return (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

async function pressSend(origin: string, cookie: string): Promise<void> {
  const response = await fetch(`${origin}/api/admin/newsletter/${MAILING}/send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin },
    body: '{}',
  });
  if (!response.ok) throw new Error(`Send answered ${response.status}`);
}

/** The mailing's progress as the admin page reads it. */
async function queuedOnPage(origin: string, cookie: string): Promise<number> {
  const response = await fetch(`${origin}/api/admin/newsletter`, { headers: { cookie } });
  const page = (await response.json()) as { items: { id: string; progress: { queued: number } }[] };
  return page.items.find((item) => item.id === MAILING)?.progress.queued ?? 0;
}

/** Until a few seconds before the next minute's sweep. */
async function untilBeforeMinute(lead = 4_000): Promise<void> {
  const wait = (60_000 - (Date.now() % 60_000) - lead + 60_000) % 60_000;
  await sleep(wait);
}

/** The newsletter's messages at the SMTP server since `mark`: how often each Message-ID arrived. */
function newsletterSince(mark: number): { arrivals: Arrival[]; byId: Map<string, number> } {
  const arrivals = smtp.arrived.slice(mark).filter((arrival) => arrival.messageId?.startsWith('<nl-'));
  const byId = new Map<string, number>();
  for (const arrival of arrivals) byId.set(arrival.messageId ?? '', (byId.get(arrival.messageId ?? '') ?? 0) + 1);
  return { arrivals, byId };
}

/** Posts a lead; answers when its 201 came and when its notification reached the owner's inbox. */
async function timedLead(origin: string, proof: string): Promise<{ answerMs: number; waitMs: number }> {
  const mark = smtp.arrived.length;
  const started = Date.now();
  const response = await fetch(`${origin}/api/leads/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Bench Lead',
      email: `lead-${started}@example.com`,
      source: 'contact_form',
      notes: 'We would like to automate our invoicing.',
      page: '/contact',
      altcha: proof,
    }),
  });
  const answered = Date.now();
  if (response.status !== 201) throw new Error(`the lead answered ${response.status}`);
  for (;;) {
    const notified = smtp.arrived.slice(mark).find((arrival) => arrival.to.includes(OWNER));
    if (notified) return { answerMs: answered - started, waitMs: notified.at - answered };
    if (Date.now() - answered > 10 * 60_000) throw new Error('the lead notification never arrived');
    await sleep(20);
  }
}

/** Runs A and B: Send, every entry written, every e-mail received, a lead halfway. */
async function timedRun(run: string, count: number, rate: number) {
  const server = await serve(await storeWith(count, run), rate);
  try {
    const cookie = await logIn(server.origin);
    const [proof] = await checkout.proofs(1);
    await untilBeforeMinute();
    const mark = smtp.arrived.length;
    const pressed = Date.now();
    await pressSend(server.origin, cookie);
    let firstWritten: number | undefined;
    let allWritten: number | undefined;
    let lead: Promise<{ answerMs: number; waitMs: number }> | undefined;
    const limit = pressed + (rate === 0 ? 20 : 10 + count / rate) * 60_000;
    for (;;) {
      const queued = allWritten ? count : await queuedOnPage(server.origin, cookie);
      if (queued > 0) firstWritten ??= Date.now();
      if (queued >= count) allWritten ??= Date.now();
      const { arrivals, byId } = newsletterSince(mark);
      if (!lead && byId.size >= count / 2) lead = timedLead(server.origin, proof ?? '');
      if (allWritten && byId.size >= count) {
        const leadTimes = await lead;
        const minutes = new Set(arrivals.map((arrival) => Math.floor(arrival.at / 60_000)));
        const last = Math.max(...arrivals.map((arrival) => arrival.at));
        return {
          run: `${run}: rate ${rate === 0 ? 'unlimited' : `${rate}/min`}`,
          subscribers: count,
          'Send → first entry s': seconds((firstWritten ?? 0) - pressed),
          'Send → all written s': seconds(allWritten - pressed),
          'Send → all received s': seconds(last - pressed),
          'minutes with deliveries': minutes.size,
          'unique / received': `${byId.size} / ${arrivals.length}`,
          'lead 201 ms': leadTimes?.answerMs ?? '—',
          'lead 201 → notification ms': leadTimes?.waitMs ?? '—',
        };
      }
      if (Date.now() > limit)
        throw new Error(
          `run ${run}: ${queued} written, ${byId.size} received after ${seconds(Date.now() - pressed)} s`,
        );
      await sleep(250);
    }
  } finally {
    await server.stop();
  }
}

/** Run C: killed in the fan-out, then in delivery; every subscriber gets it, duplicates only where in flight. */
async function crashRun(count: number) {
  const storeFolder = await storeWith(count, 'C');
  const store = openBenchStore(storeFolder);
  const queued = async () => (await store.progress(MAILING)).queued ?? 0;
  let server = await serve(storeFolder, 0);
  const mark = smtp.arrived.length;
  const cookie = await logIn(server.origin);
  await untilBeforeMinute();
  const pressed = Date.now();
  await pressSend(server.origin, cookie);
  // The store is read directly, every few ms: the fan-out writes 100 entries a commit.
  while ((await queued()) < count * 0.3) {
    if (Date.now() - pressed > 3 * 60_000) throw new Error('run C: the fan-out never started');
    await sleep(5);
  }
  await server.kill('SIGKILL');
  const writtenAtKill = await queued();
  if (writtenAtKill >= count) throw new Error('run C: the fan-out was over before the kill');

  server = await serve(storeFolder, 0);
  while (newsletterSince(mark).byId.size < count / 2) {
    if (Date.now() - pressed > 10 * 60_000) throw new Error('run C: delivery stalled after the first restart');
    await sleep(5);
  }
  await server.kill('SIGKILL');
  const killedAt = Date.now();
  const atKill = newsletterSince(mark).byId;
  const entries = await store.entries(MAILING, killedAt);
  const inFlight = entries.filter((entry) => entry.leased);
  // Received by SMTP, its outcome not recorded: it goes again when its lease ends.
  const sentUnrecorded = entries.filter(
    (entry) => entry.status === 'pending' && atKill.has(`<${entry.id}@bench.example>`),
  ).length;

  server = await serve(storeFolder, 0);
  try {
    for (;;) {
      const progress = await store.progress(MAILING);
      if ((progress.sent ?? 0) + (progress.failed ?? 0) + (progress.cancelled ?? 0) >= count) break;
      if (Date.now() - killedAt > 10 * 60_000)
        throw new Error(`run C: after the second restart, ${JSON.stringify(progress)}`);
      await sleep(250);
    }
    const done = Date.now();
    await sleep(1000);
    const { arrivals, byId } = newsletterSince(mark);
    const recipients = new Set(arrivals.flatMap((arrival) => arrival.to));
    const progress = await store.progress(MAILING);
    return {
      run: 'C: killed twice (SIGKILL)',
      subscribers: count,
      'written at fan-out kill': writtenAtKill,
      'entries queued in the end': progress.queued ?? 0,
      'received at delivery kill': atKill.size,
      'in flight at kill (leased)': inFlight.length,
      'of those received by SMTP': sentUnrecorded,
      'unique recipients': recipients.size,
      'duplicate Message-IDs': [...byId.values()].reduce((sum, times) => sum + times - 1, 0),
      'sent (store)': progress.sent ?? 0,
      'Send → all recorded s': seconds(done - pressed),
    };
  } finally {
    await server.stop();
    store.close();
  }
}

const rows: Record<string, unknown>[] = [];
try {
  if (RUNS.includes('A')) rows.push(await timedRun('A', SUBSCRIBERS, 0));
  if (RUNS.includes('C')) rows.push(await crashRun(SUBSCRIBERS));
  if (RUNS.includes('B')) rows.push(await timedRun('B', RATED, RATE));
} finally {
  await smtp.stop();
  rmSync(folder, { recursive: true, force: true });
}
console.log('\nSeeding (subscribe + confirmSubscriber, embedded store)\n');
console.table([...seeded].map(([count, { ms }]) => ({ subscribers: count, 'seed s': seconds(ms) })));
console.log('\nThe newsletter on the local production server (embedded store, local SMTP server)\n');
const timed = rows.filter((row) => !String(row.run).startsWith('C'));
if (timed.length > 0) console.table(timed);
const crashed = rows.find((row) => String(row.run).startsWith('C'));
if (crashed) console.table([crashed]);
