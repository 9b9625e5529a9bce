/** The one endpoint wrapper, and the request checks and JSON answers every function shares. */
import type { Context } from '@netlify/functions';
import type { z } from 'zod';
import type { ApiErrorBody } from '../../../src/shared/api-responses';
import { LIMITS } from '../../../src/shared/schemas';
import { StoreNotConfiguredError, StoreUnavailableError } from '../store/errors';
import { describeFailure, envErrorIn } from './env';

/**
 * netlify.toml headers reach static files only: function responses carry their own.
 * The API answers JSON, so nothing in it may run, be framed or be sniffed as something else.
 */
export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return Response.json(body, {
    status,
    headers: { 'Cache-Control': 'no-store', ...SECURITY_HEADERS, ...headers },
  });
}

export function errorResponse(
  status: number,
  error: string,
  extra: Omit<ApiErrorBody, 'error'> & { headers?: Record<string, string> } = {},
): Response {
  const { headers, ...rest } = extra;
  return json(status, { error, ...rest }, headers);
}

/** How long a 429 asks a person to wait, in words: "1 second", "40 seconds", "15 minutes". */
function waitInWords(seconds: number): string {
  const [count, unit] = seconds < 60 ? [seconds, 'second'] : [Math.ceil(seconds / 60), 'minute'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** 429 for a limit that resets at `resetAt` (ms since the epoch): the wait in words and in Retry-After. */
export function tooManyRequests(what: string, resetAt: number, now = Date.now()): Response {
  const seconds = Math.max(1, Math.ceil((resetAt - now) / 1000));
  return errorResponse(429, `Too many ${what}. Please try again in ${waitInWords(seconds)}.`, {
    headers: { 'Retry-After': String(seconds) },
  });
}

/** Thrown by the checks below; carries the response to send. */
export class HttpError extends Error {
  constructor(readonly response: Response) {
    super(`HTTP ${response.status}`);
  }
}

export function requireMethod(req: Request, allowed: readonly string[]): void {
  if (!allowed.includes(req.method)) {
    throw new HttpError(
      errorResponse(405, `Method ${req.method} is not allowed; use ${allowed.join(' or ')}`, {
        headers: { Allow: allowed.join(', ') },
      }),
    );
  }
}

function isJsonContentType(value: string | null): boolean {
  const type = value?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json' || Boolean(type?.endsWith('+json'));
}

/** The charset parameter of a Content-Type, lower-cased and unquoted; undefined when there is none. */
function charsetOf(value: string | null): string | undefined {
  for (const parameter of value?.split(';').slice(1) ?? []) {
    const [name, ...rest] = parameter.split('=');
    if (name?.trim().toLowerCase() === 'charset')
      return rest
        .join('=')
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .toLowerCase();
  }
  return undefined;
}

/**
 * Reads a body of at most LIMITS.bodyBytes as UTF-8 text, counting bytes as they arrive so that a
 * body with a false or missing Content-Length cannot make us buffer more.
 */
export async function readBoundedText(req: Request): Promise<string> {
  // A compressed body would be read as its compressed bytes: say so, rather than call it bad UTF-8.
  const encoding = req.headers.get('content-encoding')?.trim().toLowerCase();
  if (encoding && encoding !== 'identity')
    throw new HttpError(
      errorResponse(415, `Send the body uncompressed: Content-Encoding ${encoding.slice(0, 40)} is not accepted`),
    );
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (declared > LIMITS.bodyBytes)
    throw new HttpError(errorResponse(413, `The body is larger than ${LIMITS.bodyBytes} bytes`));

  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > LIMITS.bodyBytes) {
        await reader.cancel().catch(() => undefined);
        throw new HttpError(errorResponse(413, `The body is larger than ${LIMITS.bodyBytes} bytes`));
      }
      chunks.push(value);
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new HttpError(errorResponse(400, 'The body is not valid UTF-8'));
  }
}

/** Reads a JSON body of at most LIMITS.bodyBytes (see readBoundedText). */
export async function readJsonBody(req: Request): Promise<unknown> {
  if (!isJsonContentType(req.headers.get('content-type'))) {
    throw new HttpError(errorResponse(415, 'Send the body as JSON with Content-Type: application/json'));
  }
  // JSON is UTF-8 (RFC 8259): a body in another charset would be decoded into replacement characters.
  const charset = charsetOf(req.headers.get('content-type'));
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new HttpError(errorResponse(415, `Send the body as UTF-8 (charset=utf-8), not ${charset.slice(0, 40)}`));
  }
  const text = await readBoundedText(req);
  if (text.trim() === '') throw new HttpError(errorResponse(400, 'The body is empty; send a JSON object'));
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(errorResponse(400, 'The body is not valid JSON'));
  }
}

/** A percent-encoded path segment, decoded; a malformed escape (`%E0%A4%A`) is a 400, not an exception. */
export function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(errorResponse(400, 'The path holds a malformed percent-escape'));
  }
}

/** Validates with a shared schema; invalid input answers 422 with a message per field. */
export function parseWith<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(errorResponse(400, 'The body must be a JSON object'));
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join('.') || 'body';
    fields[key] ??= issue.message;
  }
  throw new HttpError(errorResponse(422, 'Some fields are missing or invalid', { fields }));
}

export type Handler = (req: Request, context: Context) => Promise<Response>;

export interface EndpointOptions {
  /** Short name for the log lines. */
  name: string;
  /**
   * Headers every answer of the handler carries, and the 503 and 500 below. An HttpError thrown by
   * a check is sent as the check made it.
   */
  headers?: Record<string, string>;
  /** Asks a client to wait this long before retrying after a store failure (Retry-After on that 503). */
  retryAfterSeconds?: number;
}

/** The cause's name too: "store call failed: TimeoutError". Messages are ours; no payload is in them. */
function describe(error: StoreUnavailableError): string {
  return [error.message, error.cause instanceof Error ? error.cause.name : undefined].filter(Boolean).join(': ');
}

/**
 * A function's handler with the one error handling: an HttpError answers as it was made, a store
 * that is missing or failing answers 503, anything else 500. No internal detail reaches the
 * client, and the log line names the endpoint and the error, never the request's data: a wrong
 * setting (EnvError) by its whole message, which names the variable, anything else by its name.
 */
export function endpoint({ name, headers = {}, retryAfterSeconds }: EndpointOptions, handler: Handler): Handler {
  return async (req, context) => {
    try {
      const response = await handler(req, context);
      for (const [header, value] of Object.entries(headers)) response.headers.set(header, value);
      return response;
    } catch (error) {
      if (error instanceof HttpError) return error.response;
      if (error instanceof StoreNotConfiguredError) {
        console.error(`[${name}] ${error.message}`);
        return errorResponse(503, 'Storage is not configured', { headers });
      }
      if (error instanceof StoreUnavailableError) {
        console.error(`[${name}] store unavailable: ${describe(error)}`);
        const retry =
          retryAfterSeconds === undefined ? headers : { ...headers, 'Retry-After': String(retryAfterSeconds) };
        return errorResponse(503, 'The service is temporarily unavailable. Please try again in a moment.', {
          headers: retry,
        });
      }
      // A wrong setting fails every request until it is fixed: the log line says which one.
      const wrongSetting = envErrorIn(error);
      console.error(`[${name}] ${wrongSetting?.message ?? `unexpected failure: ${describeFailure(error)}`}`);
      return errorResponse(500, 'Something went wrong on our side. Please try again.', { headers });
    }
  };
}
