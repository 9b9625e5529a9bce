/**
 * What the local server checks before it serves: that every setting it and the functions read
 * can be used. A wrong one is a message naming every wrong value at once and a non-zero exit,
 * rather than a server whose every form and admin request answers 500.
 */
import path from 'node:path';
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

export const DEFAULT_ADDRESS: Address = { port: 4321, host: 'localhost' };

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
  const portText = env.PORT?.trim() ?? '';
  const port = portText === '' ? DEFAULT_ADDRESS.port : Number(portText);
  if (!/^[0-9]+$/.test(String(port)) || port < 1 || port > 65535)
    problems.push('PORT: must be a whole number from 1 to 65535');
  const host = env.HOST?.trim() || DEFAULT_ADDRESS.host;
  return { address: { port, host }, problems };
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

/** A StartupError is printed as it is and ends the process with 1; anything else is thrown on. */
export function exitOnStartupError(error: unknown): never {
  if (!(error instanceof StartupError)) throw error;
  console.error(error.message);
  process.exit(1);
}
