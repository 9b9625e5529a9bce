/**
 * Proof of work on every form (ALTCHA v2): GET /api/challenge hands out a signed challenge, the
 * browser solves it in a web worker while the person types, and the form endpoint verifies the
 * solution before it stores anything. Nothing is tracked and nothing is loaded from elsewhere.
 *
 * The challenges are deterministic: the server picks the counter the solver must reach, so every
 * challenge costs about the same work (DIFFICULTY), and a second key signs the derived key, so
 * verifying is two HMACs rather than a key derivation. Each challenge is spent once; the store
 * marks it spent in the same step as the record it let in (WriteOptions.challenge).
 */
import { createChallenge, randomInt, verifySolution, type Challenge, type Payload } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { z } from 'zod';
import { PROOF_OF_WORK_FIELD, PROOF_OF_WORK_PATH } from '../../../src/shared/proof-of-work-names';
import { getEnv, isLocalRun } from '../platform/env';
import { derivedKey } from '../platform/secrets';
import type { SpentChallenge } from '../store/types';

/**
 * How hard a challenge is: PBKDF2-SHA256 at `cost` iterations per try, and a counter drawn from
 * `counter`, which is how many tries the solver makes on average (split between its workers).
 * Measured by `npm run bench:altcha`: the solve time here and on a phone-speed CPU.
 */
export const DIFFICULTY = {
  algorithm: 'PBKDF2/SHA-256',
  cost: 5_000,
  counter: { min: 40, max: 120 },
} as const;

/**
 * The iterations per try of the challenges issued now: DIFFICULTY's, or in a local run
 * LOCAL_PROOF_OF_WORK_COST when it is set. The test suite sets it: its forms and scripts solve
 * hundreds of challenges, each the same steps at a hundredth of the work. A deployed function
 * ignores it, so a stray setting can never weaken the forms on the live site.
 */
export function challengeCost(): number {
  return (isLocalRun() ? getEnv().LOCAL_PROOF_OF_WORK_COST : undefined) ?? DIFFICULTY.cost;
}

/** How long a challenge may be solved and used: long enough to fill in a long message. */
export const CHALLENGE_TTL_MS = 30 * 60_000;

const HEX = /^[0-9a-f]+$/;
const hex = (min: number, max: number) => z.string().min(min).max(max).regex(HEX);

/**
 * ALTCHA's payload, checked for shape before any cryptography sees it: hostile input gets an
 * answer, never an exception. Only challenges of the kind this site issues can verify (the
 * signature covers every parameter), so the shape can be exact.
 */
const PayloadSchema = z.object({
  challenge: z.object({
    // Strict: the signature covers the parameters exactly as issued, so none may be dropped.
    parameters: z.strictObject({
      algorithm: z.literal(DIFFICULTY.algorithm),
      nonce: hex(32, 32),
      salt: hex(32, 32),
      cost: z.number().int().positive().max(1_000_000),
      keyLength: z.number().int().min(16).max(64),
      keyPrefix: hex(2, 128),
      keySignature: hex(64, 64).optional(),
      expiresAt: z.number().int().positive(),
    }),
    signature: hex(64, 64),
  }),
  solution: z.object({
    counter: z.number().int().min(0).max(0xffffffff),
    derivedKey: hex(32, 128),
    time: z.number().optional(),
  }),
});

interface ChallengeSecrets {
  hmacSignatureSecret: string;
  hmacKeySignatureSecret: string;
}

let cachedSecrets: { env: object; secrets: ChallengeSecrets } | undefined;

/**
 * The two HMAC secrets: one signs the challenge, one the key it derives. ALTCHA_HMAC_KEY, if set,
 * replaces the site's secret. Exported for `npm run bench:api`, which signs challenges of its own
 * with them so that thousands of submissions a second can each carry a valid, unspent solution.
 */
export function challengeSecrets(): ChallengeSecrets {
  const env = getEnv();
  // Derived once per environment (getEnv gives the same object until process.env is replaced).
  if (cachedSecrets?.env === env) return cachedSecrets.secrets;
  const own = env.ALTCHA_HMAC_KEY;
  const key = (purpose: string) => (own ? `${purpose}:${own}` : derivedKey(`altcha-${purpose}`).toString('hex'));
  const secrets = { hmacSignatureSecret: key('challenge'), hmacKeySignatureSecret: key('derived-key') };
  cachedSecrets = { env, secrets };
  return secrets;
}

/** A new signed challenge, in ALTCHA's JSON format, expiring CHALLENGE_TTL_MS after `now`. */
export function newChallenge(now: Date = new Date()): Promise<Challenge> {
  return createChallenge({
    algorithm: DIFFICULTY.algorithm,
    cost: challengeCost(),
    counter: randomInt(DIFFICULTY.counter.max, DIFFICULTY.counter.min),
    deriveKey,
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
    ...challengeSecrets(),
  });
}

/** What a person (or a script) is told when its proof of work is refused: 422, with the field named. */
export const PROOF_OF_WORK_PROBLEMS = {
  missing: `A proof of work is required: GET ${PROOF_OF_WORK_PATH}, solve the challenge and send the solution as "${PROOF_OF_WORK_FIELD}"`,
  malformed: `"${PROOF_OF_WORK_FIELD}" is not a solved challenge: send the base64 payload of a challenge from ${PROOF_OF_WORK_PATH}`,
  invalid: `The proof of work does not verify: solve a challenge from ${PROOF_OF_WORK_PATH} and send its solution`,
  expired: `The proof of work has expired: solve a new challenge from ${PROOF_OF_WORK_PATH}`,
  spent: `This proof of work was already used: solve a new challenge from ${PROOF_OF_WORK_PATH} for each submission`,
} as const;

export type ProofOfWorkProblem = keyof typeof PROOF_OF_WORK_PROBLEMS;

export type ProofOfWorkCheck = { ok: true; challenge: SpentChallenge } | { ok: false; problem: ProofOfWorkProblem };

function decode(value: string): Payload | undefined {
  try {
    const parsed = PayloadSchema.safeParse(JSON.parse(Buffer.from(value, 'base64').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks a form's proof of work: present, well formed, signed by this site, solved, not expired.
 * Whether it was spent before is the store's to say, in the step that stores the submission.
 */
export async function checkProofOfWork(value: string | undefined): Promise<ProofOfWorkCheck> {
  if (!value) return { ok: false, problem: 'missing' };
  const payload = decode(value);
  if (!payload) return { ok: false, problem: 'malformed' };
  const result = await verifySolution({ ...payload, deriveKey, ...challengeSecrets() });
  if (result.verified) {
    const { nonce, expiresAt } = payload.challenge.parameters;
    return { ok: true, challenge: { id: nonce, expiresAt: new Date((expiresAt ?? 0) * 1000) } };
  }
  return { ok: false, problem: result.expired ? 'expired' : 'invalid' };
}
