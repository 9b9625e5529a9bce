/**
 * What the local server checks before it serves: that every setting it and the functions read
 * can be used, and that its port is free. A wrong setting is a message naming every wrong value at
 * once and a non-zero exit, rather than a server whose every form and admin request answers 500;
 * a taken port is a message saying how to choose another, rather than an EADDRINUSE stack trace.
 */
import net from 'node:net';
import path from 'node:path';
import { DEFAULT_PORT, localPort } from '../../src/site.config.ts';
import { importBundled } from '../harness/functions.ts';

/** A reason not to serve, said in full: the server prints the message alone (no stack trace) and exits with 1. */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** Where the server listens. */
export interface Address {
  port: number;
  host: string;
}

export const DEFAULT_ADDRESS: Address = { port: DEFAULT_PORT, host: 'localhost' };

/** Reads the project's .env into process.env, when there is one; what the shell sets wins. */
export function loadLocalEnv(projectRoot: string): void {
  try {
    process.loadEnvFile(path.join(projectRoot, '.env'));
  } catch {
    // No .env: the defaults apply (embedded store).
  }
}

/** PORT and HOST (each blank or unset is the default), and what is wrong with them. */
export function readAddress(env: NodeJS.ProcessEnv): { address: Address; problems: string[] } {
  const problems: string[] = [];
  const port = env.PORT?.trim() ? localPort(env.PORT) : DEFAULT_ADDRESS.port;
  if (port === undefined) problems.push('PORT: must be a whole number from 1 to 65535');
  const host = env.HOST?.trim() || DEFAULT_ADDRESS.host;
  return { address: { port: port ?? DEFAULT_ADDRESS.port, host }, problems };
}

/**
 * LOCAL_SCHEDULE_SECONDS: how often the local server runs the scheduled functions (the outbox
 * sweep). Unset or blank, at the start of each minute their schedule matches, as Netlify does; a
 * number of seconds from 1 to 60, that often instead, so a newsletter pressed Send goes out in
 * seconds when trying it (and in the test that sends one). Netlify has no such setting.
 */
export function readScheduleEvery(env: NodeJS.ProcessEnv): { everyMs?: number; problems: string[] } {
  const value = env.LOCAL_SCHEDULE_SECONDS?.trim();
  if (!value) return { problems: [] };
  const seconds = /^\d+$/.test(value) ? Number(value) : NaN;
  if (seconds >= 1 && seconds <= 60) return { everyMs: seconds * 1000, problems: [] };
  return {
    problems: ['LOCAL_SCHEDULE_SECONDS: must be a whole number of seconds from 1 to 60, or unset (each minute)'],
  };
}

/**
 * What is wrong in the functions' environment (functions/_lib/platform/env.ts, the one schema
 * they parse it with), every variable at once. That module's imports have no file extensions, so
 * it is bundled first, as the functions are.
 */
async function functionsEnvironmentProblems(projectRoot: string): Promise<string[]> {
  const env = await importBundled<typeof import('../../functions/_lib/platform/env.ts')>(
    projectRoot,
    path.join('functions', '_lib', 'platform', 'env.ts'),
  );
  return env.environmentProblems(process.env);
}

/** Throws a StartupError naming every wrong setting of the server and the functions; the address otherwise. */
export async function checkSettings(projectRoot: string): Promise<Address> {
  const { address, problems } = readAddress(process.env);
  problems.push(...readScheduleEvery(process.env).problems);
  problems.push(...(await functionsEnvironmentProblems(projectRoot)));
  if (problems.length === 0) return address;
  throw new StartupError(
    [
      `The local server did not start: ${problems.length === 1 ? 'a setting is' : `${problems.length} settings are`} wrong (in .env or the shell).`,
      ...problems.map((problem) => `  - ${problem}`),
      'Fix them (.env.example says what each one takes) and start again.',
    ].join('\n'),
  );
}

/** What to tell a person whose port is taken. */
function portTaken({ port, host }: Address): string {
  const other = port < 65535 ? port + 1 : port - 1;
  return [
    `Port ${port} on ${host} is already in use: another \`npm start\`, \`npm run dev\` or some other server is running on it.`,
    `Stop that one, or choose another port: PORT=${other} npm start (or PORT=${other} npm run serve; PORT can be set in .env too).`,
  ].join('\n');
}

/** A failure to listen, said as what to do about it when it is one a person can fix; otherwise the error itself. */
export function listenFailure(error: unknown, address: Address): unknown {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  if (code === 'EADDRINUSE') return new StartupError(portTaken(address));
  if (code === 'EACCES')
    return new StartupError(
      `Port ${address.port} needs privileges this user does not have: choose one above 1023, e.g. PORT=${DEFAULT_ADDRESS.port} npm start.`,
    );
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new StartupError(
      `HOST=${address.host} is not an address of this machine: leave HOST unset (localhost), or set it to 127.0.0.1 or 0.0.0.0.`,
    );
  return error;
}

/**
 * Listens on the address for a moment and lets it go, so that a taken port is found before the
 * functions are bundled (and, under npm start, before the build). The server's own listen still
 * handles the port being taken in between.
 */
export async function ensurePortFree(address: Address): Promise<void> {
  const probe = net.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(address.port, address.host, () => probe.close(() => resolve()));
    });
  } catch (error) {
    throw listenFailure(error, address);
  }
}

/** A StartupError is printed as it is and ends the process with 1; anything else is thrown on. */
export function exitOnStartupError(error: unknown): never {
  if (!(error instanceof StartupError)) throw error;
  console.error(error.message);
  process.exit(1);
}
