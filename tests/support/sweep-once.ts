/**
 * The process that comes after one that was killed: it runs the real scheduled function
 * (functions/outbox-sweep.ts) once, as Netlify's next invocation or a restarted local server's
 * first sweep does, with the store and mail settings of its environment. Its clock runs
 * CLOCK_OFFSET_MS ahead of the machine's, so a test can start it after a lease has ended without
 * waiting for it. Prints `swept` when the function has answered.
 */
import path from 'node:path';
import { importBundled } from '../../scripts/harness/functions.ts';
import { PROJECT_ROOT } from '../../scripts/harness/project.ts';

const offset = Number(process.env.CLOCK_OFFSET_MS ?? 0);
const RealDate = Date;
/** `new Date()` and `Date.now()` read the moved clock; a Date of a given time is that time. */
class MovedDate extends RealDate {
  constructor(...args: unknown[]) {
    super();
    return Reflect.construct(RealDate, args.length > 0 ? args : [RealDate.now() + offset], new.target) as MovedDate;
  }

  static override now() {
    return RealDate.now() + offset;
  }
}
globalThis.Date = MovedDate as DateConstructor;

const root = process.env.BUNDLE_ROOT ?? PROJECT_ROOT;
const { default: outboxSweep } = await importBundled<{ default: () => Promise<Response> }>(
  root,
  path.join('functions', 'outbox-sweep.ts'),
);
const response = await outboxSweep();
console.log(response.status === 204 ? 'swept' : `failed ${response.status}`);
// A local run keeps its SMTP connections open for the next message: this process has no next one.
process.exit(0);
