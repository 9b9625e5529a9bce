/**
 * Lighthouse on one page of each type, on the local production server: mobile emulation with
 * simulated throttling, 5 runs per page, medians. Prints a table, writes the JSON reports to
 * reports/lighthouse/ (git-ignored) and exits non-zero when a budget is missed.
 *
 * The floor is the fastest whole document possible (floor-page.ts: text that links a stylesheet,
 * the icon and the manifest, as every page must), written into dist/ and served by the same
 * server under the same throttling: it is audited first, and again before each run of every
 * public page. Each public page's LCP is budgeted as a ratio to the median of all those floor runs
 * (over 100: the floor's noise all but drops out of the ratio, and being spread over the whole
 * audit they follow the machine as it drifts); its ratio to the floor runs beside its own is shown
 * beside it, to show a drift. It does not make the machine's speed go away:
 * Lighthouse adds the main-thread work it observed before the largest paint, slowed down, to a
 * network time that is the same on every machine, so a slower CPU widens every page's ratio (a
 * page parses, styles and lays out more than the floor's paragraphs; docs/benchmarks.md says how
 * that work is counted). Compare audits made on one machine. The table's "work ms"
 * columns give that work as observed, for the page and the floor runs beside it.
 *
 *   npm run audit                (builds first)
 *   npm run audit -- admin blog  (only the page types whose names contain one of the words)
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startSiteServer } from '../harness/site-server.ts';
import { BARE_FILE, FLOOR_FILE, FLOOR_STYLESHEET, floorPage, floorStylesheet } from './floor-page.ts';
import { PAGE_TYPES, type PageType } from './page-types.ts';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../harness/chromium.ts';
import { PROJECT_ROOT } from '../harness/project.ts';

/**
 * Five runs: one run of a page reads 2 to 3 % either side of its median on a 2-core machine, and a
 * median of five moves a page's LCP by 2 to 4 % from one audit to the next, well inside the budget.
 */
const RUNS = Number(process.env.AUDIT_RUNS ?? 5);
const only = process.argv.slice(2);
const pages = only.length ? PAGE_TYPES.filter((page) => only.some((word) => page.name.includes(word))) : PAGE_TYPES;
if (pages.length === 0)
  throw new Error(
    `No page type matches ${only.join(', ')}; the types are ${PAGE_TYPES.map((page) => page.name).join(', ')}`,
  );

const KB = 1024;
/** `lcpToFloor` applies to public pages; the login and 404 pages, which no one is sent to by a search, keep `lcp`. */
const BUDGET = {
  score: 100,
  /** Every public page within a tenth of the fastest whole document the network allows. */
  lcpToFloor: 1.1,
  lcp: 1200,
  tbt: 30,
  cls: 0,
  js: 15 * KB,
  jsWithForm: 80 * KB,
  css: 15 * KB,
  homeTotal: 100 * KB,
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

interface Audit {
  categories: Record<string, { score: number | null }>;
  audits: Record<
    string,
    {
      numericValue?: number;
      details?: {
        items?: {
          resourceType?: string;
          transferSize?: number;
          url?: string;
          rendererStartTime?: number;
          observedDomContentLoaded?: number;
          observedLargestContentfulPaint?: number;
        }[];
      };
    }
  >;
}

/**
 * How long after the page's largest paint (as observed, before any throttling is simulated) its
 * view was reported to /api/visits, in ms, and whether that was from its load event on (the
 * beacon goes from a load listener, so it starts within the event, before the event's end
 * that Lighthouse notes); undefined when it sent none.
 */
function beaconTiming(report: Audit): { afterLcp: number; inLoad: boolean } | undefined {
  const beacon = report.audits['network-requests']?.details?.items?.find((item) => item.url?.endsWith('/api/visits'));
  const timings = report.audits.metrics?.details?.items?.[0];
  const start = beacon?.rendererStartTime;
  if (start === undefined || timings?.observedLargestContentfulPaint === undefined) return undefined;
  return {
    afterLcp: start - timings.observedLargestContentfulPaint,
    inLoad: timings.observedDomContentLoaded !== undefined && start >= timings.observedDomContentLoaded,
  };
}

function transfer(report: Audit, type: string): number {
  return (report.audits['network-requests']?.details?.items ?? [])
    .filter((item) => item.resourceType === type)
    .reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
}

const FLOOR: PageType = { name: 'floor', route: `/${FLOOR_FILE}`, noindex: true };
/**
 * The floor page again, audited as the pages are, beside floor runs of its own: the same page on
 * both sides, so its LCP/floor is what this run's noise alone makes of a ratio. Not budgeted.
 */
const CONTROL: PageType = { name: 'floor as a page', route: FLOOR.route, noindex: true };
/**
 * The floor's text with its CSS inline and nothing linked, audited once: the fastest page
 * possible, which no whole page can be. Not budgeted; what the floor pays over it is what linking
 * a stylesheet and a manifest costs on this network.
 */
const BARE: PageType = { name: 'bare floor', route: `/${BARE_FILE}`, noindex: true };
const floorFiles = {
  [FLOOR_FILE]: floorPage(),
  [FLOOR_STYLESHEET]: floorStylesheet(),
  [BARE_FILE]: floorPage({ bare: true }),
};

const server = await startSiteServer({
  // No weekly letter: its figures would be worked out as the audit starts.
  WEEKLY_REPORT: 'off',
  ADMIN_PASSWORD: 'audit password',
  SESSION_SECRET: 'audit-session-secret-0123456789abcdef0123',
});
/**
 * The local server's time to answer a request, as Lantern is to use it for every request of the
 * origin (Lighthouse's `precomputedLanternData`, which it offers for steadier results): the median
 * of 21 requests for the floor page, made before the audit while nothing else runs. Left to itself,
 * Lantern takes the median over the requests of each run, and on the local server that is not a
 * property of the page: a page's scripts, fetched after its largest paint while the browser works,
 * wait for this machine's CPU and then count against the page's document (seen: 10 to 38 ms each,
 * where the document alone took 2 to 4), while the floor's one request has no median to smooth a
 * stall (seen: 47 and 51 ms, making the floor slower). One figure for every run treats both alike.
 */
async function serverResponseMs(url: string): Promise<number> {
  const times: number[] = [];
  for (let request = 0; request < 21; request += 1) {
    const start = performance.now();
    const response = await fetch(url, { headers: { accept: 'text/html', 'accept-encoding': 'br, gzip' } });
    times.push(performance.now() - start);
    await response.arrayBuffer();
  }
  return median(times);
}

const launchChromium = () =>
  chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS] });
let chrome = await launchChromium();
const reports = path.join(PROJECT_ROOT, 'reports', 'lighthouse');
mkdirSync(reports, { recursive: true });

/**
 * One Lighthouse run. A run that Lighthouse itself reports as broken (NO_NAVSTART now and then on a
 * busy machine) is run again rather than counted as a page scoring zero, in a new browser: once
 * the browser gave one NO_NAVSTART it went on giving them, and an audit 24 minutes in was lost.
 */
async function lighthouseRun(route: string) {
  for (let attempt = 1; ; attempt += 1) {
    const result = await lighthouse(`${server.origin}${route}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      formFactor: 'mobile',
      throttlingMethod: 'simulate',
      precomputedLanternData: {
        additionalRttByOrigin: { [server.origin]: 0 },
        serverResponseTimeByOrigin: { [server.origin]: serverMs },
      },
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${route}`);
    const error = result.lhr.runtimeError;
    if (!error) return result;
    if (attempt === 3) throw new Error(`Lighthouse failed on ${route} three times: ${error.code}`);
    console.warn(`Lighthouse failed on ${route} (${error.code}); running it again in a new browser`);
    chrome.kill();
    chrome = await launchChromium();
  }
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { beginData?: { url?: string } };
}

/**
 * The main thread's work from the start of the document's parsing to its largest paint, in ms as
 * observed (before Lighthouse's slowdown): every task of the page's renderer that began before
 * that paint, the parse, layouts and paints Lighthouse's estimate counts among them. The work the
 * page asks of the phone before its largest paint, where a page and the floor differ.
 */
function workBeforeLcp(events: TraceEvent[], url: string): number {
  const parse = events.find((event) => event.name === 'ParseHTML' && event.args?.beginData?.url === url);
  const lcp = Math.max(
    ...events.filter((event) => event.name === 'largestContentfulPaint::Candidate').map((e) => e.ts),
  );
  if (!parse || !Number.isFinite(lcp)) return Number.NaN;
  const tasks = events.filter(
    (event) => event.name === 'RunTask' && event.ph === 'X' && event.pid === parse.pid && event.tid === parse.tid,
  );
  const first = tasks.find((task) => task.ts <= parse.ts && parse.ts <= task.ts + (task.dur ?? 0)) ?? parse;
  return (
    tasks.filter((task) => task.ts >= first.ts && task.ts <= lcp).reduce((sum, task) => sum + (task.dur ?? 0), 0) / 1000
  );
}

/**
 * The LCP of every run of the floor page in the audit: its own row's, and those before each run of
 * every public page, so spread over the whole audit. Their median is the floor each public page's
 * LCP is budgeted against: with over 100 runs its noise is a fraction of one page's nine, and the
 * runs beside each page keep it following the machine through the audit.
 */
const allFloorLcps: number[] = [];

/** Lighthouse's benchmarkIndex of every run: its measure of this machine's CPU (see the note under the table). */
const benchmarkIndexes: number[] = [];

/** What the table takes from one Lighthouse run: its LCP and the main thread's work before it (ms). */
function runFigures(result: Awaited<ReturnType<typeof lighthouseRun>>) {
  benchmarkIndexes.push(result.lhr.environment.benchmarkIndex);
  return {
    lcp: result.lhr.audits['largest-contentful-paint']?.numericValue ?? 0,
    work: workBeforeLcp(
      (result.artifacts as unknown as { Trace: { traceEvents: TraceEvent[] } }).Trace.traceEvents,
      result.lhr.finalDisplayedUrl,
    ),
  };
}

/**
 * Lighthouse's medians for one page, as a row of the table. With `floor`, each run of the page
 * follows a run of the floor page, and the page's LCP is read against the median of those floor
 * runs: a machine whose speed drifts during the audit (another process, a thermal limit) moves
 * both alike, where a floor measured once at the start would be minutes old by the last page.
 */
async function audit(page: PageType, floor?: PageType) {
  const runs: Audit[] = [];
  const pageRuns: ReturnType<typeof runFigures>[] = [];
  const floorRuns: ReturnType<typeof runFigures>[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    if (floor) floorRuns.push(runFigures(await lighthouseRun(floor.route)));
    const result = await lighthouseRun(page.route);
    writeFileSync(path.join(reports, `${page.name.replace(/\W+/g, '-')}-${run + 1}.json`), String(result.report));
    runs.push(result.lhr as unknown as Audit);
    pageRuns.push(runFigures(result));
  }
  // The floor is its own floor; a page budgeted on its LCP alone (noindex) has none beside it.
  const besideFloor = floor ? floorRuns : page === FLOOR ? pageRuns : [];
  allFloorLcps.push(...besideFloor.map((run) => run.lcp));
  const score = (category: string) =>
    median(runs.map((run) => Math.round((run.categories[category]?.score ?? 0) * 100)));
  const metric = (audit: string) => median(runs.map((run) => run.audits[audit]?.numericValue ?? 0));
  const lcp = Math.round(metric('largest-contentful-paint'));
  const floorLcp = besideFloor.length ? Math.round(median(besideFloor.map((run) => run.lcp))) : undefined;
  return {
    page: page.name,
    perf: score('performance'),
    a11y: score('accessibility'),
    bp: score('best-practices'),
    seo: score('seo'),
    'LCP ms': lcp,
    'floor ms': floorLcp,
    'LCP/floor': floorLcp ? Number((lcp / floorLcp).toFixed(2)) : undefined,
    /** LCP over the median of every floor run of the audit (allFloorLcps): set once the audit is done. */
    'LCP/all floors': undefined as number | undefined,
    'work ms': Number(median(pageRuns.map((run) => run.work)).toFixed(1)),
    'floor work ms': besideFloor.length ? Number(median(besideFloor.map((run) => run.work)).toFixed(1)) : undefined,
    'TBT ms': Math.round(metric('total-blocking-time')),
    /** Runs whose view was reported after their largest paint, and the median time after it. */
    beacon: beaconColumn(runs),
    CLS: Number(metric('cumulative-layout-shift').toFixed(3)),
    'JS KB': Number((median(runs.map((run) => transfer(run, 'Script'))) / KB).toFixed(1)),
    'CSS KB': Number((median(runs.map((run) => transfer(run, 'Stylesheet'))) / KB).toFixed(1)),
    'HTML KB': Number((median(runs.map((run) => transfer(run, 'Document'))) / KB).toFixed(1)),
    'total KB': Number((metric('total-byte-weight') / KB).toFixed(1)),
  };
}

/**
 * `5/5, +120 ms`: how many runs reported their view after their largest paint and once the
 * document had loaded, and the median time after that paint; `0/5` when none did.
 */
function beaconColumn(runs: Audit[]): string {
  const timings = runs.map(beaconTiming).filter((timing) => timing !== undefined);
  const after = timings.filter((timing) => timing.afterLcp > 0 && timing.inLoad).map((timing) => timing.afterLcp);
  return after.length ? `${after.length}/${runs.length}, +${Math.round(median(after))} ms` : `0/${runs.length}`;
}

const rows = [];
const misses: string[] = [];
/** Budgets the floor itself misses: a page's miss of these says more about the machine than the page. */
const floorMisses: string[] = [];
for (const [name, text] of Object.entries(floorFiles)) writeFileSync(path.join(PROJECT_ROOT, 'dist', name), text);
let serverMs = 0;
let allFloorsMs: number | undefined;
let bare: Awaited<ReturnType<typeof audit>> | undefined;
try {
  serverMs = await serverResponseMs(`${server.origin}${FLOOR.route}`);
  const floor = await audit(FLOOR);
  rows.push(floor);
  if (floor['TBT ms'] > BUDGET.tbt) floorMisses.push(`TBT ${floor['TBT ms']} ms (budget ${BUDGET.tbt} ms)`);
  if (floor.perf < BUDGET.score) floorMisses.push(`performance ${floor.perf} (budget ${BUDGET.score})`);
  const control = await audit(CONTROL, FLOOR);
  rows.push(control);
  bare = await audit(BARE);
  rows.push(bare);
  /** The public pages' rows, whose LCP is budgeted against every floor run once all are in. */
  const publicRows = [control];
  for (const page of pages) {
    // Pages no search sends anyone to keep an LCP budget of their own, so they need no floor runs.
    const row = await audit(page, page.noindex ? undefined : FLOOR);
    rows.push(row);

    const check = (ok: boolean, what: string) => ok || misses.push(`${page.name}: ${what}`);
    check(row.perf >= BUDGET.score, `performance ${row.perf}`);
    check(row.a11y >= BUDGET.score, `accessibility ${row.a11y}`);
    check(row.bp >= BUDGET.score, `best practices ${row.bp}`);
    if (page.noindex) {
      check(row['LCP ms'] <= BUDGET.lcp, `LCP ${row['LCP ms']} ms`);
    } else {
      check(row.seo >= BUDGET.score, `SEO ${row.seo}`);
      publicRows.push(row);
    }
    check(row['TBT ms'] <= BUDGET.tbt, `TBT ${row['TBT ms']} ms`);
    check(row.CLS <= BUDGET.cls, `CLS ${row.CLS}`);
    // Every public page reports its view once it has loaded, after its largest paint, in every run.
    if (!page.noindex) check(/^(\d+)\/\1, \+/.test(row.beacon), `view reported after load in ${row.beacon} runs`);
    check(row['JS KB'] * KB <= (page.formAboveFold ? BUDGET.jsWithForm : BUDGET.js), `JavaScript ${row['JS KB']} KB`);
    check(row['CSS KB'] * KB <= BUDGET.css, `CSS ${row['CSS KB']} KB`);
    if (page.route === '/') check(row['total KB'] * KB <= BUDGET.homeTotal, `total ${row['total KB']} KB`);
  }
  allFloorsMs = Math.round(median(allFloorLcps));
  for (const row of publicRows) {
    const ratio = Number((row['LCP ms'] / allFloorsMs).toFixed(2));
    row['LCP/all floors'] = ratio;
    // The control row is the floor itself: what noise makes of a ratio, not a page to budget.
    if (row !== control && ratio > BUDGET.lcpToFloor)
      misses.push(`${row.page}: LCP ${row['LCP ms']} ms, ${ratio} × the floor's ${allFloorsMs} ms`);
  }
} finally {
  chrome.kill();
  await server.stop();
  for (const name of Object.keys(floorFiles)) rmSync(path.join(PROJECT_ROOT, 'dist', name), { force: true });
}

console.log(
  `\nLighthouse, mobile, simulated throttling, median of ${RUNS} runs (reports in reports/lighthouse/); each run of a public page follows a run of the floor page. "LCP/all floors", which is budgeted, is the page's median LCP over the median of every floor run of the audit (printed below the table); "LCP/floor" is the same over the median of the floor runs beside the page's own ("floor ms"), which shows whether the machine drifted while the page was audited. "work ms" is the main thread's work from the document's parsing to its largest paint as observed on this machine, page and floor: Lighthouse counts a task that lays out 2 times over in LCP and any other (the parse) 4 times over, so each millisecond a page does beyond the floor's adds 2 to 4 ms, 0.3% to 0.6% of the floor's LCP. "${CONTROL.name}" is the floor audited as the pages are: the same page on both sides, so its LCP/floor is what this run's noise alone makes of a ratio\n`,
);
console.table(rows);
console.log(
  `\nThe floor page, median of all its ${allFloorLcps.length} runs: ${allFloorsMs} ms. Every run is simulated with the local server answering in ${serverMs.toFixed(1)} ms (the median of 21 requests for the floor page before the audit), the same for every request and page.`,
);
if (bare && allFloorsMs) {
  const home = rows.find((row) => row.page === 'home');
  console.log(
    `\nThe bare floor, the same text with its CSS inline and nothing linked, reads ${bare['LCP ms']} ms: the floor pays ${allFloorsMs - bare['LCP ms']} ms for linking its stylesheet, icon and manifest.${home ? ` Over the bare floor, home reads ${(home['LCP ms'] / bare['LCP ms']).toFixed(2)} ×.` : ''}`,
  );
}
console.log(
  `\nThis machine's CPU, as Lighthouse measures it (benchmarkIndex, median of ${benchmarkIndexes.length} runs): ${Math.round(median(benchmarkIndexes))}. Lighthouse's 4× slowdown is meant for a machine of 1,500 to 2,000, where it makes a mid-tier phone; a machine below that makes a slower phone and widens every LCP/floor, one above it a faster phone. Compare audits made on machines of about the same index.`,
);
if (misses.length > 0) {
  console.error(`\nBudgets missed:\n- ${misses.join('\n- ')}`);
  if (floorMisses.length > 0)
    console.error(
      `\nThe floor page, one small document with no script, itself measured ${floorMisses.join(' and ')} in this run: under Lighthouse's simulated 4× CPU slowdown this machine's main thread is too slow for those budgets, so misses of them are not the pages' alone. Compare each page with the floor's row, or audit on a faster machine: a slower main thread also widens every page's LCP/floor, since the page has more to parse, style and lay out than the floor.`,
    );
  process.exitCode = 1;
} else {
  console.log('\nEvery page is within every budget.');
}
