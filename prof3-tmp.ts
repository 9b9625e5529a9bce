import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startSiteServer } from './tests/support/site-server.ts';
const route = process.argv[2] ?? '/sectors/saas';
const runs = Number(process.argv[3] ?? 3);
const server = await startSiteServer({});
const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const out: Record<string, number[]> = {};
try {
  for (let i = 0; i < runs; i++) {
    const r: any = await lighthouse(`${server.origin}${route}`, { port: chrome.port, output: 'json', logLevel: 'error', formFactor: 'mobile', throttlingMethod: 'simulate', onlyCategories: ['performance'] });
    const a = r.lhr.audits;
    const ev = r.artifacts.Trace.traceEvents.filter((e: any) => e.ph === 'X');
    const per = new Map<string, number>();
    for (const e of ev) if (e.name === 'Layout' || e.name === 'UpdateLayoutTree') per.set(`${e.pid}:${e.tid}`, (per.get(`${e.pid}:${e.tid}`) ?? 0) + e.dur);
    const [key] = [...per].sort((x, y) => y[1] - x[1])[0];
    const main = ev.filter((e: any) => `${e.pid}:${e.tid}` === key);
    const sum = (n: string) => main.filter((e: any) => e.name === n).reduce((s: number, e: any) => s + e.dur, 0) / 1000;
    const rec = { TBT: a['total-blocking-time'].numericValue, style: sum('UpdateLayoutTree'), layout: sum('Layout'), paint: sum('Paint'), parse: sum('ParseHTML'), script: sum('v8.evaluateModule') + sum('EvaluateScript'), longest: Math.max(...main.filter((e: any) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask').map((e: any) => e.dur / 1000)) };
    for (const [k, v] of Object.entries(rec)) (out[k] ??= []).push(v);
  }
  console.log(route, Object.entries(out).map(([k, v]) => `${k} med ${med(v).toFixed(1)} [${v.map((x) => x.toFixed(0)).join(',')}]`).join(' | '));
} finally { chrome.kill(); server.stop(); }
