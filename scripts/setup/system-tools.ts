/**
 * Checks the programs the tests need besides Node packages, before `npm test` starts:
 *
 *   chromium      the browser of the end-to-end tests and of the build test of whole pages
 *                 (CHROMIUM_PATH, else /usr/bin/chromium)
 *   redis-server  started by the integration tests and benchmarks on a free port
 *   java          runs the Nu Html Checker over the built pages
 *
 *   node scripts/setup/system-tools.ts [chromium] [redis-server] [java]   (none named: all three)
 *
 * When one is missing on a Debian or Ubuntu machine where this user may install packages (root,
 * or sudo without a password), it installs it with apt-get and says so. Anywhere else it stops
 * at once with the command to run, instead of letting a test fail later with a launch error.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import { CHROMIUM_PATH } from '../harness/chromium.ts';

export interface Tool {
  name: string;
  /** What it is for, in the message about a missing tool. */
  purpose: string;
  /** The Debian package that provides it. */
  aptPackage: string;
  isPresent: () => boolean;
}

const isExecutable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

const onPath = (command: string) =>
  (process.env.PATH ?? '')
    .split(path.delimiter)
    .some((folder) => folder !== '' && isExecutable(path.join(folder, command)));

export const TOOLS: Tool[] = [
  {
    name: 'chromium',
    purpose: 'the browser of the end-to-end tests; set CHROMIUM_PATH to use another Chromium or Chrome',
    aptPackage: 'chromium',
    isPresent: () => isExecutable(CHROMIUM_PATH),
  },
  {
    name: 'redis-server',
    purpose: 'started by the integration tests on a free port',
    aptPackage: 'redis-server',
    isPresent: () => onPath('redis-server'),
  },
  {
    name: 'java',
    purpose: 'runs the Nu Html Checker over the built pages (Java 11 or later)',
    aptPackage: 'default-jre-headless',
    isPresent: () => onPath('java'),
  },
];

export type Plan =
  { action: 'none' } | { action: 'install'; commands: string[][] } | { action: 'stop'; message: string };

export interface Machine {
  /** apt-get is on the PATH (Debian, Ubuntu and their kin). */
  hasApt: boolean;
  isRoot: boolean;
  /** `sudo -n true` succeeds: sudo without a password. */
  hasPasswordlessSudo: boolean;
}

/** What to do about the missing tools on this machine: nothing, install with apt-get, or stop with the command to run. */
export function plan(missing: Tool[], machine: Machine): Plan {
  if (missing.length === 0) return { action: 'none' };
  const packages = missing.map((tool) => tool.aptPackage);
  const list = missing.map((tool) => `  ${tool.name}: ${tool.purpose}`).join('\n');
  if (machine.hasApt && (machine.isRoot || machine.hasPasswordlessSudo)) {
    const sudo = machine.isRoot ? [] : ['sudo', '-n'];
    return {
      action: 'install',
      commands: [
        [...sudo, 'apt-get', 'update', '-qq'],
        [
          ...sudo,
          'env',
          'DEBIAN_FRONTEND=noninteractive',
          'apt-get',
          'install',
          '-y',
          '-qq',
          '--no-install-recommends',
          ...packages,
        ],
      ],
    };
  }
  const command = machine.hasApt
    ? `sudo apt-get install -y ${packages.join(' ')}`
    : `install ${missing.map((tool) => tool.name).join(', ')} with your system's package manager (Debian packages: ${packages.join(' ')})`;
  return {
    action: 'stop',
    message: `The tests need programs this machine lacks:\n${list}\n\nRun:\n  ${command}\nthen run the tests again.`,
  };
}

function currentMachine(): Machine {
  const isRoot = process.getuid?.() === 0;
  const hasApt = onPath('apt-get') && existsSync('/etc/debian_version');
  const hasPasswordlessSudo =
    !isRoot &&
    hasApt &&
    onPath('sudo') &&
    spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore', timeout: 5_000 }).status === 0;
  return { hasApt, isRoot, hasPasswordlessSudo };
}

if (import.meta.main) {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !TOOLS.some((tool) => tool.name === name));
  if (unknown.length > 0) {
    console.error(`Unknown tool: ${unknown.join(', ')}. Known: ${TOOLS.map((tool) => tool.name).join(', ')}.`);
    process.exit(2);
  }
  const tools = wanted.length === 0 ? TOOLS : TOOLS.filter((tool) => wanted.includes(tool.name));
  const missing = tools.filter((tool) => !tool.isPresent());
  const next = plan(missing, currentMachine());
  if (next.action === 'stop') {
    console.error(next.message);
    process.exit(1);
  }
  if (next.action === 'install') {
    console.log(
      `Installing ${missing.map((tool) => tool.aptPackage).join(', ')} with apt-get, which the tests need (${missing.map((tool) => tool.name).join(', ')}).`,
    );
    for (const command of next.commands) {
      const result = spawnSync(command[0], command.slice(1), { stdio: 'inherit' });
      if (result.status !== 0) {
        console.error(`\`${command.join(' ')}\` failed (exit ${result.status ?? result.signal}).`);
        process.exit(1);
      }
    }
    const still = missing.filter((tool) => !tool.isPresent());
    if (still.length > 0) {
      console.error(
        `Still missing after apt-get: ${still.map((tool) => tool.name).join(', ')}.${still.some((tool) => tool.name === 'chromium') ? ' Set CHROMIUM_PATH to your Chromium or Chrome.' : ''}`,
      );
      process.exit(1);
    }
    console.log('Installed.');
  }
}
