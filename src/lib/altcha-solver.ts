/**
 * Solves one proof-of-work challenge with ALTCHA's widget, invisibly: the widget fetches a
 * challenge from PROOF_OF_WORK_PATH and derives keys in web workers until it finds the solution.
 * Loaded only when a form is first used (src/lib/solve-ahead.ts).
 *
 * The `external` build carries no workers inlined as blob: or data: URLs; the one worker the
 * site's challenges need (PBKDF2, Web Crypto only, no WebAssembly) is a file of the site's own,
 * so the pages' Content-Security-Policy needs nothing beyond 'self' for it.
 */
import 'altcha/external';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
import { PROOF_OF_WORK_PATH } from '../shared/proof-of-work-names';

globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());

export interface Solved {
  /** ALTCHA's payload: base64 of the challenge and its solution, sent as the forms' `altcha` field. */
  payload: string;
  /** When the challenge expires, ms since the epoch. */
  expiresAt: number;
}

/** At most this many workers: a phone's cores, but not a whole desktop's. */
const MAX_WORKERS = 4;

export async function solveChallenge(): Promise<Solved> {
  const widget = document.createElement('altcha-widget');
  widget.setAttribute('challenge', PROOF_OF_WORK_PATH);
  widget.setAttribute('auto', 'off');
  widget.setAttribute('display', 'invisible');
  widget.setAttribute('workers', String(Math.min(MAX_WORKERS, navigator.hardwareConcurrency || 2)));
  // No artificial delay, and no collection of pointer or scroll events: the site tracks nobody.
  widget.setAttribute('configuration', JSON.stringify({ minDuration: 0, humanInteractionSignature: false }));
  // The widget is a tool here, not a control: the form says when something went wrong.
  widget.hidden = true;
  document.body.append(widget);
  try {
    // The element builds its component one microtask after it is connected.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const result = await widget.verify();
    const expiresAt = result?.challenge?.parameters.expiresAt;
    if (!result?.payload || !expiresAt) throw new Error('The proof of work could not be solved');
    return { payload: result.payload, expiresAt: expiresAt * 1000 };
  } finally {
    widget.remove();
  }
}
