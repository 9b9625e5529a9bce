/**
 * The one API client: JSON in and out, the session cookie always sent, and any non-OK answer
 * turned into an error whose message is "status: body" (or the status text when the body is empty).
 */
import type { QueryFunction } from '@tanstack/react-query';
import { PROOF_OF_WORK_FIELD } from '../shared/proof-of-work-names';
import { takeProofOfWork } from './solve-ahead';
import { VISIT_KEY } from './visit-key';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export async function throwIfResNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const body = await response.text();
  throw new ApiError(response.status, `${response.status}: ${body || response.statusText}`, body);
}

export async function apiRequest(
  method: string,
  url: string,
  data?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const response = await fetch(url, {
    method,
    headers: data === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
    body: data === undefined ? undefined : JSON.stringify(data),
    credentials: 'include',
  });
  await throwIfResNotOk(response);
  return response;
}

/**
 * Keys of form submissions not yet known to be stored, by endpoint and content. A request that
 * failed (a timeout, a dropped answer) may still have been stored; sending the same content again
 * sends the same key, so the server stores it once. Other content gets a new key, and a success
 * forgets the key, so the next submission is a new one even with the same values.
 */
const pendingKeys = new Map<string, string>();

/** A random UUID; `crypto.randomUUID` exists only on secure origins (not on a LAN address over http). */
function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The page a form is on and the session's first touch, as BaseLayout's script keeps them
 * (src/lib/attribution.ts); nothing when storage is unavailable. The server checks every field.
 */
function visit(): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(VISIT_KEY) ?? 'null');
    if (typeof value !== 'object' || value === null) return {};
    const { page, attribution } = value as Record<string, unknown>;
    return { page, attribution };
  } catch {
    return {};
  }
}

/** Whether an answer refused the submission's proof of work (expired or spent): then a new one is solved and sent. */
async function refusedProofOfWork(error: unknown): Promise<boolean> {
  if (!(error instanceof ApiError) || error.status !== 422) return false;
  try {
    const body = JSON.parse(error.body) as { fields?: Record<string, unknown> };
    return typeof body.fields?.[PROOF_OF_WORK_FIELD] === 'string';
  } catch {
    return false;
  }
}

/**
 * POSTs a form's values as JSON with an `Idempotency-Key`, plus `page` and `attribution` (the
 * visit) and a solved proof of work; any non-OK answer throws, as apiRequest does. A proof of work
 * the server refuses (it expired while the page stayed open) is solved again once.
 */
export async function submitForm(url: string, data: Record<string, unknown>): Promise<Response> {
  const submission = `${url} ${JSON.stringify(data)}`;
  const key = pendingKeys.get(submission) ?? newKey();
  pendingKeys.set(submission, key);
  const send = async () => {
    const body = { ...visit(), ...data, [PROOF_OF_WORK_FIELD]: await takeProofOfWork() };
    return apiRequest('POST', url, body, { 'Idempotency-Key': key });
  };
  let response: Response;
  try {
    response = await send();
  } catch (error) {
    if (!(await refusedProofOfWork(error))) throw error;
    response = await send();
  }
  pendingKeys.delete(submission);
  return response;
}

/** Queries GET the URL that is their key's first element and parse JSON; any non-OK answer throws. */
export function getQueryFn<T>(): QueryFunction<T> {
  return async ({ queryKey, signal }) => {
    const response = await fetch(String(queryKey[0]), { credentials: 'include', signal });
    await throwIfResNotOk(response);
    return (await response.json()) as T;
  };
}

/** What to tell a person about a failed call: the `error` of a JSON error body, or the whole message. */
export function errorText(error: unknown): string {
  if (!(error instanceof ApiError)) return 'Something went wrong. Please try again.';
  try {
    const body = JSON.parse(error.body) as { error?: string };
    return body.error ?? error.message;
  } catch {
    return error.message;
  }
}
