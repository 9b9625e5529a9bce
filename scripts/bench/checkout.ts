/**
 * A checkout of the site that `npm run bench:api` runs: this one, or an older one to compare it
 * with (BENCH_BASELINE), installed and built. Each runs with its own code: its servers start
 * through its own harness (scripts/harness/site-server.ts, which serves its dist/ with its
 * functions and its node_modules), and the proofs of work sent to them are signed with the keys
 * its own proof-of-work module derives from SESSION_SECRET, wherever that module sits in
 * functions/_lib and whatever its name (it moved from functions/_lib to functions/_lib/forms, and
 * from proof-of-work.ts to signed-challenges.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createChallenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { importBundled } from '../harness/functions.ts';
import type { startSiteServer } from '../harness/site-server.ts';
import type { challengeSecrets, DIFFICULTY } from '../../functions/_lib/forms/signed-challenges.ts';

export interface Checkout {
  /** `current` (this checkout) or `baseline`. */
  name: string;
  root: string;
  /** Its commit (short), `+` when its files differ from it; `?` outside git. */
  commit: string;
  startSiteServer: typeof startSiteServer;
  /** `count` solved proofs of work, each for one submission to a server of this checkout. */
  proofs: (count: number) => Promise<string[]>;
}

/** What the benchmark needs of a checkout's proof-of-work module, present in every version. */
interface ProofOfWork {
  challengeSecrets: typeof challengeSecrets;
  DIFFICULTY: Pick<typeof DIFFICULTY, 'algorithm'>;
}

const HARNESS = path.join('scripts', 'harness', 'site-server.ts');

/** The names the proof-of-work module has had, the newest last. */
const PROOF_OF_WORK_NAMES = ['proof-of-work.ts', 'signed-challenges.ts'];

/** The one proof-of-work module under functions/_lib, as a path from the checkout's root. */
function proofOfWorkModule(root: string): string {
  const lib = path.join('functions', '_lib');
  const found = readdirSync(path.join(root, lib), { recursive: true, encoding: 'utf8' }).filter((entry) =>
    PROOF_OF_WORK_NAMES.includes(path.basename(entry)),
  );
  if (found.length !== 1)
    throw new Error(`${root}: expected one of ${PROOF_OF_WORK_NAMES.join(', ')} under ${lib}, found ${found.length}`);
  return path.join(lib, found[0] ?? '');
}

function commitOf(root: string): string {
  const git = (...args: string[]) => spawnSync('git', ['-C', root, ...args], { encoding: 'utf8' });
  const head = git('rev-parse', '--short', 'HEAD');
  if (head.status !== 0) return '?';
  return `${head.stdout.trim()}${git('status', '--porcelain', '--untracked-files=no').stdout.trim() ? '+' : ''}`;
}

/**
 * Loads a checkout: fails, saying what to do, when it is not installed and built. The keys are
 * derived when the first proofs are made, so SESSION_SECRET must be set by then.
 */
export async function loadCheckout(name: string, root: string): Promise<Checkout> {
  for (const [entry, missing] of [
    ['node_modules', 'is not installed: run `npm ci` in it'],
    ['dist', 'is not built: run `npx astro build` in it'],
    [HARNESS, `has no ${HARNESS} to start its server with`],
  ])
    if (!existsSync(path.join(root, entry))) throw new Error(`The ${name} checkout ${root} ${missing}`);

  const harness: unknown = await import(pathToFileURL(path.join(root, HARNESS)).href);
  if (
    typeof harness !== 'object' ||
    harness === null ||
    !('startSiteServer' in harness) ||
    typeof harness.startSiteServer !== 'function'
  )
    throw new Error(`${path.join(root, HARNESS)} exports no startSiteServer`);
  const start = harness.startSiteServer;
  const proofOfWork = await importBundled<ProofOfWork>(root, proofOfWorkModule(root));

  return {
    name,
    root,
    commit: commitOf(root),
    startSiteServer: async (env) => start(env),
    proofs: (count) => {
      // Cost 1 and counter 0: thousands a second, and the server's check is the same two HMACs
      // whatever a challenge's cost.
      const made: Promise<string>[] = [];
      for (let index = 0; index < count; index += 1)
        made.push(
          (async () => {
            const challenge = await createChallenge({
              algorithm: proofOfWork.DIFFICULTY.algorithm,
              cost: 1,
              counter: 0,
              deriveKey,
              expiresAt: new Date(Date.now() + 30 * 60_000),
              ...proofOfWork.challengeSecrets(),
            });
            const solution = await solveChallenge({ challenge, deriveKey });
            return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
          })(),
        );
      return Promise.all(made);
    },
  };
}
