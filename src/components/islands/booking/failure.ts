import { ApiError } from '../../../lib/api-client';

/** Whether a failed booking or move was refused because the time is no longer open. */
export const timeTaken = (error: unknown) => error instanceof ApiError && error.status === 409;

/** The `error` and `fields` of a JSON error body, when the answer has one. */
function errorBody(error: ApiError): { error?: string; fields?: Record<string, unknown> } {
  try {
    const body: unknown = JSON.parse(error.body);
    return typeof body === 'object' && body !== null ? body : {};
  } catch {
    return {};
  }
}

/**
 * What to tell the person about a booking or a move that failed: the server's own words (the time
 * was just taken, the calendar cannot be read, too many attempts), with each field's message when
 * it refused one, or a plain word about the connection or the server.
 */
export function failureText(error: unknown): string {
  if (!(error instanceof ApiError)) return 'We could not reach the site. Check your connection and try again.';
  const body = errorBody(error);
  const said = typeof body.error === 'string' ? body.error : 'Something went wrong on our side. Please try again.';
  if (error.status === 422) {
    const fields = Object.values(body.fields ?? {}).filter((message) => typeof message === 'string');
    return [said, ...fields].join(' ');
  }
  return said;
}
