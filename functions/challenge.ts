import type { Config } from '@netlify/functions';
import { requireClientKey } from './_lib/forms/client';
import { endpoint, json, requireMethod, tooManyRequests } from './_lib/platform/http';
import { newChallenge } from './_lib/forms/signed-challenges';
import { getRateLimiter } from './_lib/store/get-store';
import { StoreUnavailableError } from './_lib/store/errors';

/**
 * A proof-of-work challenge for one form submission, in ALTCHA's JSON format. Issuing one costs
 * the server a key derivation, so each client gets as many a minute as it may submit forms.
 */
export default endpoint({ name: 'challenge', headers: { 'Cache-Control': 'no-store' } }, async (req, context) => {
  requireMethod(req, ['GET']);
  const client = requireClientKey(context.ip);
  const limit = await (await getRateLimiter()).limit(`challenge:${client}`).catch((error: unknown) => {
    // A challenge stores nothing: with the store down it is still handed out, and the submission
    // it is solved for meets the store's own 503, which the form reports.
    if (!(error instanceof StoreUnavailableError)) throw error;
    console.error(`[challenge] rate limit skipped, store unavailable: ${error.message}`);
    return undefined;
  });
  if (limit && !limit.success) return tooManyRequests('challenges', limit.reset);
  return json(200, await newChallenge());
});

// A literal: Netlify reads the path without running the module (PROOF_OF_WORK_PATH names the same).
export const config: Config = { path: '/api/challenge' };
