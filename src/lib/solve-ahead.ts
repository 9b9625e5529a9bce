/**
 * The forms' proof of work in the browser. A form starts solving a challenge when someone first
 * focuses it (prepareProofOfWork), so the work is done while they type; its submission takes the
 * solution (takeProofOfWork), and the next submission solves a new one: each is accepted once.
 *
 * The solver (ALTCHA's widget and its web worker, src/lib/altcha-solver.ts) is a chunk of its own,
 * fetched on that first focus: no page loads it before someone uses a form.
 */
import type { Solved } from './altcha-solver';

/** A solution this close to its challenge's expiry is not used: a new one is solved instead. */
const EXPIRY_MARGIN_MS = 60_000;

let pending: Promise<Solved> | undefined;

function solve(): Promise<Solved> {
  return import('./altcha-solver').then((solver) => solver.solveChallenge());
}

/** Starts solving a challenge for the next submission, unless one is under way or ready. */
export function prepareProofOfWork(): void {
  if (pending) return;
  const attempt = solve();
  pending = attempt;
  // A failure (the challenge endpoint down, say) is reported when a submission takes it; the
  // one after that starts afresh.
  attempt.catch(() => {
    if (pending === attempt) pending = undefined;
  });
}

/** A solution for one submission, in ALTCHA's payload format; rejects when none could be solved. */
export async function takeProofOfWork(): Promise<string> {
  const attempt = pending ?? solve();
  pending = undefined;
  const solved = await attempt;
  if (solved.expiresAt - Date.now() > EXPIRY_MARGIN_MS) return solved.payload;
  return (await solve()).payload;
}
