/**
 * The one API client: JSON in and out, the session cookie always sent, and any non-OK answer
 * turned into an error whose message is "status: body" (or the status text when the body is empty).
 */
import type { QueryFunction } from '@tanstack/react-query';

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

export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const response = await fetch(url, {
    method,
    headers: data === undefined ? {} : { 'Content-Type': 'application/json' },
    body: data === undefined ? undefined : JSON.stringify(data),
    credentials: 'include',
  });
  await throwIfResNotOk(response);
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
