/**
 * Solved proofs of work for tests that post to the form endpoints as a script would: a challenge
 * from the real endpoint (over HTTP, or the handler called directly), solved with altcha-lib
 * exactly as docs/api.md tells API clients to.
 */
import type { Context } from '@netlify/functions';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { createContext } from '../../scripts/harness/functions.ts';

/** ALTCHA's payload for a challenge: base64 of the challenge and its solution. */
export async function solve(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the challenge could not be solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

async function solveAnswer(response: Response): Promise<string> {
  if (!response.ok) throw new Error(`GET /api/challenge answered ${response.status}`);
  return solve((await response.json()) as Challenge);
}

/** A solved proof of work from a running site (`http://localhost:4321`). */
export async function proofFrom(origin: string): Promise<string> {
  return solveAnswer(await fetch(`${origin}/api/challenge`));
}

type Handler = (request: Request, context: Context) => Promise<Response>;

/** An address in a /64 of its own (documentation range), so the challenges never meet a test's rate limit. */
const group = () => ((Math.random() * 0xffff) | 0).toString(16);
const randomClient = () => `2001:db8:${group()}:${group()}::1`;

/**
 * A solved proof of work from the challenge function, in this process's environment: the
 * handler given, or functions/challenge.ts (imported here only, by a bundler-run test).
 */
export async function proofFromHandler(handler?: Handler): Promise<string> {
  const challenge = handler ?? (await import('../../functions/challenge')).default;
  return solveAnswer(
    await challenge(new Request('http://localhost/api/challenge'), createContext({ ip: randomClient() })),
  );
}
