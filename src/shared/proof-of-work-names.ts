// src/shared holds what the pages and the functions both import, and ships to the browser: zod and this folder only.
// The proof of work's names, in a module of their own: the API client reads them without loading zod.

/** The field of a form's JSON body that carries the solved challenge (ALTCHA's own name). */
export const PROOF_OF_WORK_FIELD = 'altcha';
/** Where a form gets a challenge to solve. */
export const PROOF_OF_WORK_PATH = '/api/challenge';
