/**
 * The one pipeline every form endpoint runs: method and content checks → rate limit on the
 * client IP → the shared schema → proof of work (422 unless solved, unexpired and unspent) →
 * honeypot → store (record, outbox entries and the spent challenge in one step) → answer, then
 * delivery. Answers are JSON; failures never carry internal detail, and a store that
 * fails or is slow answers 503 within seconds.
 *
 * A submission may carry an `Idempotency-Key` header (the site's forms send one, kept across
 * retries of the same content). A write that timed out here may still commit in the store a
 * moment later; its retry then finds the key, stored in the same step as the record, and gets
 * the first answer without a second record. The key is bound to what the submission says: the
 * same key with other content answers 422 rather than drop that content in silence.
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { requireClientKey } from './client';
import {
  endpoint,
  errorResponse,
  HttpError,
  json,
  parseWith,
  readJsonBody,
  requireMethod,
  tooManyRequests,
  type Handler,
} from '../platform/http';
import { PROOF_OF_WORK_FIELD } from '../../../src/shared/proof-of-work-names';
import { HONEYPOT_FIELD } from '../../../src/shared/schemas';
import { getRateLimiter, getStore } from '../store/get-store';
import { ChallengeSpentError, IdempotencyKeyReusedError } from '../store/errors';
import type { StoreVerbs } from '../store/store';
import type { WriteOptions } from '../store/types';
import { checkProofOfWork, PROOF_OF_WORK_PROBLEMS, type ProofOfWorkProblem } from './signed-challenges';
import { deliverySettings } from '../delivery/settings';
import type { DeliverySettings } from '../delivery/settings';
import { deliverAfterAnswer } from '../delivery/outbox';

/** What a form's save needs besides its data: where deliveries go and what their links point at. */
export interface SaveContext {
  options: WriteOptions;
  delivery: DeliverySettings;
  /** How the submission arrived, for a content check: the client's IP, user agent and referrer. */
  request: { ip?: string; userAgent?: string; referrer?: string };
}

/** What every form's schema has besides its own fields (src/shared/schemas.ts). */
interface FormFields {
  [HONEYPOT_FIELD]?: string;
  [PROOF_OF_WORK_FIELD]?: string;
}

export interface FormEndpoint<S extends z.ZodType<FormFields>> {
  /** Short name for logs, rate-limit keys, honeypot counts and the scope of idempotency keys. */
  name: string;
  schema: S;
  /**
   * Stores the submission with its outbox entries in one step; answers the ids of the entries it
   * queued, and, for a form whose 201 says more than `{ ok: true }`, the body to answer with. A
   * submission the form refuses (a time already taken) throws HttpError with its answer.
   */
  save: (store: StoreVerbs, data: z.infer<S>, now: Date, context: SaveContext) => Promise<string[] | SavedAnswer>;
}

/** What a form's save answers when its 201 carries more than `{ ok: true }`. */
export interface SavedAnswer {
  queued: string[];
  body: Record<string, unknown>;
}

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Letters, digits, `-` and `_`, 1 to 100 of them: a UUID fits, and nothing that could break a store key. */
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{1,100}$/;

/** The request's idempotency key, if it sent one; a malformed key answers 400 naming the header. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return undefined;
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw new HttpError(
      errorResponse(
        400,
        `The ${IDEMPOTENCY_HEADER} header must be 1 to 100 letters, digits, "-" or "_" (a UUID, for example)`,
      ),
    );
  }
  return key;
}

const KEY_REUSED = `This ${IDEMPOTENCY_HEADER} was already used for a different submission: send new content with a new key`;

/**
 * What a submission says, as a digest: its fields as the schema parsed them, without the proof of
 * work and the honeypot, which a retry of the same content may send anew.
 */
function digestOf(data: FormFields): string {
  const { [PROOF_OF_WORK_FIELD]: _proof, [HONEYPOT_FIELD]: _honeypot, ...fields } = data;
  return createHash('sha256').update(JSON.stringify(fields)).digest('base64url');
}

/** 422 for a proof of work that does not let the submission in, counted per endpoint for the admin's Spam section. */
async function refuseProofOfWork(
  store: StoreVerbs,
  name: string,
  problem: ProofOfWorkProblem,
  now: Date,
): Promise<Response> {
  await store.recordChallengeFailure(name, now);
  const message = PROOF_OF_WORK_PROBLEMS[problem];
  return errorResponse(422, message, { fields: { [PROOF_OF_WORK_FIELD]: message } });
}

/** A form's endpoint: a failing store asks the browser to retry in 30 seconds. */
export function formHandler<S extends z.ZodType<FormFields>>(form: FormEndpoint<S>): Handler {
  return endpoint({ name: form.name, retryAfterSeconds: 30 }, async (req, context) => {
    requireMethod(req, ['POST']);
    const idempotencyKey = idempotencyKeyOf(req);
    const client = requireClientKey(context.ip);
    const store = await getStore();
    const limiter = await getRateLimiter();
    const body = await readJsonBody(req);

    const limit = await limiter.limit(`${form.name}:${client}`);
    if (!limit.success) return tooManyRequests('submissions', limit.reset);

    const data = parseWith(form.schema, body);
    const now = new Date();
    const proof = await checkProofOfWork(data[PROOF_OF_WORK_FIELD]);
    if (!proof.ok) return refuseProofOfWork(store, form.name, proof.problem, now);
    if (data[HONEYPOT_FIELD]) {
      // A bot filled the field people never see: it gets the ordinary answer, nothing is kept.
      await store.recordHoneypot(form.name, now);
      return json(201, { ok: true });
    }
    // Keys are scoped per endpoint: the same key sent to two endpoints is two submissions.
    const options: WriteOptions = {
      ...(idempotencyKey ? { idempotencyKey: `${form.name}:${idempotencyKey}`, bodyDigest: digestOf(data) } : {}),
      challenge: proof.challenge,
    };
    let saved: string[] | SavedAnswer;
    try {
      const request = {
        ip: context.ip || undefined,
        userAgent: req.headers.get('user-agent') ?? undefined,
        referrer: req.headers.get('referer') ?? undefined,
      };
      saved = await form.save(store, data, now, { options, delivery: deliverySettings(req, context), request });
    } catch (error) {
      if (error instanceof ChallengeSpentError) return refuseProofOfWork(store, form.name, 'spent', now);
      if (error instanceof IdempotencyKeyReusedError) return errorResponse(422, KEY_REUSED);
      throw error;
    }
    // Delivered after the answer: the person never waits for SMTP or a webhook, and whatever fails
    // here is retried by the scheduled sweep.
    const { queued, body: answer } = Array.isArray(saved) ? { queued: saved, body: { ok: true } } : saved;
    deliverAfterAnswer(context, store, queued, form.name);
    return json(201, answer);
  });
}
