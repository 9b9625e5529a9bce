// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/**
 * What a form submission's write checks and marks before anything else, in the same atomic step
 * as its record: its idempotency key (a repeat gives back the first answer) and its proof-of-work
 * challenge (spent once, until it expires).
 */
import type { Values, Write } from './backend-contract';
import { ChallengeSpentError, IdempotencyKeyReusedError } from './errors';
import { KEYS } from './keys';
import type { WriteOptions } from './types';

/** How long a form submission's idempotency key is remembered. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

/** What an idempotency key holds: what its submission stored, and a digest of its body. */
interface KeyMark {
  ref: string;
  digest?: string;
}

/** A key's mark; one written before bodies had digests holds the bare reference. */
function markOf(value: string): KeyMark {
  return value.startsWith('{') ? (JSON.parse(value) as KeyMark) : { ref: value };
}

/**
 * What a submission with this key stored before, from the value its key holds (null: nothing);
 * a key used for another body throws IdempotencyKeyReusedError.
 */
export function repeatOf(value: string | null | undefined, bodyDigest: string | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  const mark = markOf(value);
  if (bodyDigest && mark.digest && mark.digest !== bodyDigest) throw new IdempotencyKeyReusedError();
  return mark.ref;
}

/** The keys a submission's marks are read from. */
export function submissionKeys({ idempotencyKey, challenge }: WriteOptions): string[] {
  return [
    ...(idempotencyKey ? [KEYS.idempotency(idempotencyKey)] : []),
    ...(challenge ? [KEYS.spentChallenge(challenge.id)] : []),
  ];
}

/**
 * What the marks let a submission do: a repeat of one stored before (what it stored: an e-mail or
 * a lead id), or the writes that mark this one (its key, holding `ref`, and its spent challenge).
 * A challenge spent before, and not expired at `now`, throws ChallengeSpentError, and a key used
 * for another body IdempotencyKeyReusedError: nothing is stored. The key is looked at first, so
 * the retry of a stored submission still gets its first answer.
 */
export function admit(
  values: Values,
  { idempotencyKey, bodyDigest, challenge }: WriteOptions,
  ref: string,
  now: Date,
): { repeatOf: string } | { writes: Write[] } {
  const writes: Write[] = [];
  if (idempotencyKey) {
    const key = KEYS.idempotency(idempotencyKey);
    const first = repeatOf(values.get(key), bodyDigest);
    if (first !== undefined) return { repeatOf: first };
    const mark: KeyMark = { ref, ...(bodyDigest ? { digest: bodyDigest } : {}) };
    writes.push({ op: 'put', key, value: JSON.stringify(mark), ttlMs: IDEMPOTENCY_TTL_SECONDS * 1000 });
  }
  if (challenge) {
    const key = KEYS.spentChallenge(challenge.id);
    const until = Number(values.get(key) ?? Number.NaN);
    if (until > now.getTime()) throw new ChallengeSpentError();
    const left = challenge.expiresAt.getTime() - now.getTime();
    // One that has expired already needs no mark: the form endpoint refuses it before the store.
    if (left > 0) writes.push({ op: 'put', key, value: String(challenge.expiresAt.getTime()), ttlMs: left });
  }
  return { writes };
}
