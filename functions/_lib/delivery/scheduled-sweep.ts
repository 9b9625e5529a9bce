// functions/_lib/delivery gets what the outbox holds to people: the e-mails, their SMTP transport or local folder, the signed webhooks and links, and the sweep.
/** What the scheduled function (functions/outbox-sweep.ts) does each minute. */
import type { StoreVerbs } from '../store/store';
import { autoSend, fanOut } from './newsletter-sending';
import { pruneDelivered, sweep } from './outbox';
import { queueWeeklyReport } from './weekly-sending';

/**
 * A run's share of a scheduled function's 30 seconds, after which Netlify stops it wherever it is:
 * writing newsletter entries gets up to FAN_OUT_BUDGET_MS, delivering what is left of RUN_BUDGET_MS
 * (its attempts cut off at the end of it), and the rest is the margin for the hourly prune and for
 * the last fan-out batch and store calls.
 */
const RUN_BUDGET_MS = 24_000;
const FAN_OUT_BUDGET_MS = 8_000;

/**
 * One run of the sweep, on a clock the tests can move: asks for the mailings whose automatic
 * sending time has come; writes the next batches of every mailing's entries (resumed by the next
 * run where this one stopped); delivers what is due, the first line before the newsletter's; once
 * an hour, forgets the text of messages delivered more than 30 days ago. From Monday morning, the
 * owner's weekly letter is queued first, once a week, and goes out in this same run.
 */
export async function runSweep(store: StoreVerbs, now: () => Date = () => new Date()) {
  const started = Date.now();
  const weekly = await queueWeeklyReport(store, now()).catch((error: unknown) => {
    // The figures of a letter are never worth the sweep: the next run tries again.
    console.error(`[outbox-sweep] weekly letter not queued: ${error instanceof Error ? error.name : 'unknown error'}`);
    return undefined;
  });
  if (weekly) console.log(`[outbox-sweep] queued the weekly letter of the week from ${weekly}`);
  const automatic = await autoSend(store, now());
  if (automatic.length > 0) console.log(`[outbox-sweep] sending automatically: ${automatic.join(', ')}`);
  const written = await fanOut(store, { now, budgetMs: FAN_OUT_BUDGET_MS });
  if (written > 0) console.log(`[outbox-sweep] wrote ${written} newsletter entries`);
  const report = await sweep(store, { now, budgetMs: RUN_BUDGET_MS - (Date.now() - started) });
  if (report.delivered + report.failed + report.dead > 0)
    console.log(`[outbox-sweep] delivered ${report.delivered}, failed ${report.failed}, dead ${report.dead}`);
  const pruned = await pruneDelivered(store, now());
  if (pruned > 0) console.log(`[outbox-sweep] forgot the text of ${pruned} delivered messages`);
  return { weekly, automatic, written, report, pruned };
}
