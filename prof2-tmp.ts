import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startSiteServer } from './tests/support/site-server.ts';
const route = process.argv[2] ?? '/sectors/saas';
const runs = Number(process.argv[3] ?? 3);
const server = await startSiteServer({});
const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
try {
  for (let i = 0; i < runs; i++) {
    const r: any = await lighthouse(`${server.origin}${route}`, { port: chrome.port, output: 'json', logLevel: 'error', formFactor: 'mobile', throttlingMethod: 'simulate', onlyCategories: ['performance'] });
    const a = r.lhr.audits;
    const ev = r.artifacts.Trace.traceEvents;
    const fcpEv = ev.find((e: any) => e.name === 'firstContentfulPaint');
    const navStart = ev.find((e: any) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame && e.args?.data?.documentLoaderURL?.startsWith('http'));
    const pid = navStart.pid, tid = navStart.tid;
    const main = ev.filter((e: any) => e.pid === pid && e.tid === tid && e.ph === 'X');
    const tasks = main.filter((e: any) => (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && e.dur > 8000);
    console.log(`TBT ${Math.round(a['total-blocking-time'].numericValue)} FCP(sim) ${Math.round(a['first-contentful-paint'].numericValue)} observed FCP at ${Math.round((fcpEv.ts - navStart.ts) / 1000)} ms`);
    for (const t of tasks) {
      const kids = main.filter((e: any) => e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e !== t && e.dur > 1000 && !/RunTask|mojo|BeginMainFrame|UpdateLifecycle/.test(e.name));
      const byName = new Map<string, number>();
      for (const k of kids) byName.set(k.name, Math.max(byName.get(k.name) ?? 0, k.dur));
      console.log(`  task @${Math.round((t.ts - navStart.ts) / 1000)} ${Math.round(t.dur / 1000)} ms:`, [...byName].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([n, d]) => `${n}=${(d / 1000).toFixed(1)}`).join(' '));
    }
  }
} finally { chrome.kill(); server.stop(); }
