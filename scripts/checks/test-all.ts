/**
 * `npm test`: every check, cheapest first, stopping at the first group that fails, then the time
 * each group (and each command of a group) took. The first group runs the three linters and the
 * unit and integration tests side by side: `astro check` keeps one core busy for its whole run
 * while the others end early, and the tests fill what it leaves (their output is printed whole as
 * each ends, not interleaved). The groups after it run one after another, since each already uses
 * every core, and each needs the build.
 *
 *   lint           Prettier, ESLint and `astro check`
 *   unit+integration  vitest: pure tests, then handlers and stores on a real redis-server
 *   build          `astro build` into dist/
 *   build tests    vitest: the built pages, and the local production server answering over HTTP
 *   e2e            Playwright in Chromium: a person's journeys through the site
 */
import { spawn } from 'node:child_process';

interface Step {
  name: string;
  /** Commands run side by side; the step fails when one does. */
  commands: string[][];
}

const STEPS: Step[] = [
  {
    name: 'lint, unit+integration',
    commands: [
      ['prettier', '--check', '.', '--log-level', 'warn'],
      ['eslint', '.'],
      ['astro', 'check', '--minimumSeverity', 'warning'],
      ['vitest', 'run', '--project', 'unit', '--project', 'integration'],
    ],
  },
  { name: 'build', commands: [['astro', 'build']] },
  { name: 'build tests', commands: [['vitest', 'run', '--project', 'build', '--maxWorkers', '2']] },
  { name: 'e2e', commands: [['playwright', 'test']] },
];

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

/** Runs a command, answering its exit code and its time; with `buffer`, its output is printed in one piece when it ends. */
function run(command: string[], buffer: boolean): Promise<{ code: number; time: string }> {
  const [file = '', ...args] = command;
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: buffer ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('close', (code, signal) => {
      if (buffer) {
        process.stdout.write(`\n$ ${command.join(' ')}\n`);
        process.stdout.write(Buffer.concat(chunks));
      }
      resolve({ code: code ?? (signal ? 1 : 0), time: seconds(started) });
    });
  });
}

/** Each group's name, time and result, and the time of each of its commands when it has several. */
const times: [string, string, string][] = [];
const started = performance.now();
let failed: string | undefined;

for (const step of STEPS) {
  console.log(`\n=== ${step.name} ===`);
  const stepStarted = performance.now();
  const several = step.commands.length > 1;
  const results = await Promise.all(step.commands.map((command) => run(command, several)));
  const ok = results.every(({ code }) => code === 0);
  times.push([step.name, seconds(stepStarted), ok ? 'passed' : 'FAILED']);
  if (several)
    results.forEach(({ code, time }, index) =>
      times.push([`  ${step.commands[index]?.[0] ?? ''}`, time, code === 0 ? 'passed' : 'FAILED']),
    );
  if (!ok) {
    failed = step.name;
    break;
  }
}

console.log('\nTime per group:');
for (const [name, time, result] of times) console.log(`  ${name.padEnd(24)} ${time.padStart(7)} s  ${result}`);
console.log(`  ${'all'.padEnd(24)} ${seconds(started).padStart(7)} s`);
if (failed) {
  console.error(`\n${failed} failed; the groups after it did not run.`);
  process.exitCode = 1;
}
