// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/** What a store call can throw that its caller answers for: endpoint() and the form endpoint read these. */

/** Raised by a write whose proof-of-work challenge was spent before; the form endpoint answers 422. */
export class ChallengeSpentError extends Error {
  constructor() {
    super('This proof of work was already used');
    this.name = 'ChallengeSpentError';
  }
}

/**
 * Raised by a write whose idempotency key was used before for a different body: the first one is
 * kept, and the form endpoint answers 422 so that the second is not dropped in silence.
 */
export class IdempotencyKeyReusedError extends Error {
  constructor() {
    super('This Idempotency-Key was used for a different submission');
    this.name = 'IdempotencyKeyReusedError';
  }
}

/** Raised when the store cannot be reached or answers too slowly; endpoint() answers 503. */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

/** Raised when this environment has no store (a deployed site without Upstash); endpoint() answers 503. */
export class StoreNotConfiguredError extends Error {
  constructor() {
    super('Storage is not configured: set UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN');
    this.name = 'StoreNotConfiguredError';
  }
}
