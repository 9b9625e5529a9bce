import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { scheduledJob, startScheduler, type Scheduled } from '../../scripts/serve/functions-runner';
import { readScheduleEvery } from '../../scripts/serve/startup-checks';

/** A job as loadFunctions makes it from a function's `config.schedule`. */
const job = (name: string, schedule: string): Scheduled => scheduledJob(name, schedule, `file:///${name}.mjs`);

/** Starts the scheduler on the fake clock; `runs` lists each start as `name@HH:MM:SS` with its next_run. */
function schedule(jobs: Scheduled[], everyMs?: number) {
  const runs: string[] = [];
  const stop = startScheduler(
    jobs,
    () => 'http://localhost:4321',
    {
      runScheduled: (module, url, nextRun) => {
        runs.push(`${url.split('/').pop()}@${new Date().toISOString().slice(11, 19)} next ${nextRun.slice(11, 19)}`);
        return Promise.resolve();
      },
    },
    everyMs,
  );
  return { runs, stop };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-03-02T03:58:30Z'));
});
afterEach(() => vi.useRealTimers());

describe('the local server runs scheduled functions', () => {
  test('at start, then at the start of each minute their schedule matches, as Netlify does', async () => {
    const { runs, stop } = schedule([job('outbox-sweep', '* * * * *'), job('scheduled-build', '0 4 * * *')]);
    await vi.advanceTimersByTimeAsync(150_000);
    stop();
    expect(runs).toEqual([
      'outbox-sweep@03:58:30 next 03:59:00',
      'outbox-sweep@03:59:00 next 04:00:00',
      'outbox-sweep@04:00:00 next 04:01:00',
      'scheduled-build@04:00:00 next 04:01:00',
      'outbox-sweep@04:01:00 next 04:02:00',
    ]);
  });

  test('with LOCAL_SCHEDULE_SECONDS, the every-minute ones that often; the others still once, at their minute', async () => {
    const { runs, stop } = schedule([job('outbox-sweep', '* * * * *'), job('scheduled-build', '0 4 * * *')], 10_000);
    await vi.advanceTimersByTimeAsync(100_000);
    stop();
    expect(runs.filter((run) => run.startsWith('outbox-sweep'))).toHaveLength(11);
    expect(runs.slice(0, 3)).toEqual([
      'outbox-sweep@03:58:30 next 03:58:40',
      'outbox-sweep@03:58:40 next 03:58:50',
      'outbox-sweep@03:58:50 next 03:59:00',
    ]);
    expect(runs.filter((run) => run.startsWith('scheduled-build'))).toEqual(['scheduled-build@04:00:00 next 04:00:10']);
  });

  test('a run still going when the next is due is not started again', async () => {
    const sweep = job('outbox-sweep', '* * * * *');
    const runs: string[] = [];
    let finish = () => {};
    const stop = startScheduler(
      [sweep],
      () => 'http://localhost:4321',
      {
        runScheduled: () => {
          runs.push(new Date().toISOString().slice(11, 19));
          return new Promise<void>((resolve) => (finish = resolve));
        },
      },
      5_000,
    );
    await vi.advanceTimersByTimeAsync(12_000);
    expect(runs).toEqual(['03:58:30']);
    finish();
    await vi.advanceTimersByTimeAsync(5_000);
    stop();
    expect(runs).toEqual(['03:58:30', '03:58:45']);
  });
});

describe('readScheduleEvery: LOCAL_SCHEDULE_SECONDS', () => {
  test('unset or blank is each minute; 1 to 60 seconds are taken', () => {
    expect(readScheduleEvery({})).toEqual({ problems: [] });
    expect(readScheduleEvery({ LOCAL_SCHEDULE_SECONDS: ' ' })).toEqual({ problems: [] });
    expect(readScheduleEvery({ LOCAL_SCHEDULE_SECONDS: '2' })).toEqual({ everyMs: 2000, problems: [] });
    expect(readScheduleEvery({ LOCAL_SCHEDULE_SECONDS: '60' })).toEqual({ everyMs: 60_000, problems: [] });
  });

  test.each(['0', '61', '1.5', 'two', '-5', '1e1'])('refuses %s', (value) => {
    expect(readScheduleEvery({ LOCAL_SCHEDULE_SECONDS: value })).toEqual({
      problems: ['LOCAL_SCHEDULE_SECONDS: must be a whole number of seconds from 1 to 60, or unset (each minute)'],
    });
  });
});
