/**
 * `npm test`: every check, cheapest first, stopping at the first group that fails, then the time
 * each group took. The three linters have nothing to share and each keeps one core busy, so
 * they run side by side (their output is printed whole as each ends, not interleaved); the test
 * groups run one after another, since each already uses every core.
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
    name: 'lint',
    commands: [
      ['prettier', '--check', '.', '--log-level', 'warn'],
      ['eslint', '.'],
      ['astro', 'check', '--minimumSeverity', 'warning'],
    ],
  },
  { name: 'unit+integration', commands: [['vitest', 'run', '--project', 'unit', '--project', 'integration']] },
  { name: 'build', commands: [['astro', 'build']] },
  { name: 'build tests', commands: [['vitest', 'run', '--project', 'build', '--maxWorkers', '2']] },
  { name: 'e2e', commands: [['playwright', 'test']] },
];

/** Runs a command; with `buffer`, its output is printed in one piece when it ends. */
function run(command: string[], buffer: boolean): Promise<number> {
  const [file = '', ...args] = command;
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
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
const times: [string, string, string][] = [];
const started = performance.now();
let failed: string | undefined;

for (const step of STEPS) {
  console.log(`\n=== ${step.name} ===`);
  const stepStarted = performance.now();
  const codes = await Promise.all(step.commands.map((command) => run(command, step.commands.length > 1)));
  const ok = codes.every((code) => code === 0);
  times.push([step.name, seconds(stepStarted), ok ? 'passed' : 'FAILED']);
  if (!ok) {
    failed = step.name;
    break;
  }
}

console.log('\nTime per group:');
for (const [name, time, result] of times) console.log(`  ${name.padEnd(18)} ${time.padStart(7)} s  ${result}`);
console.log(`  ${'all'.padEnd(18)} ${seconds(started).padStart(7)} s`);
if (failed) {
  console.error(`\n${failed} failed; the groups after it did not run.`);
  process.exitCode = 1;
}
