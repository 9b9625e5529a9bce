// functions/_lib/admin is what only the admin endpoints use: login and session, the dashboard's figures, the CSV export.
/**
 * The query strings of the admin's GET endpoints, checked as strictly as their bodies: a page
 * number that is not one, a parameter given twice or one the endpoint does not know answers 400
 * saying which, rather than a first page that looks like an answer.
 */
import { z } from 'zod';
import { errorResponse, HttpError } from '../platform/http';

/** The last page number a list is asked for. */
export const MAX_PAGE = 100_000;
const PAGE_ERROR = `page must be a whole number from 1 to ${MAX_PAGE}`;

/** `?page=n`, from 1; absent is the first page. */
export const PageNumber = z
  .string()
  .regex(/^[1-9][0-9]*$/, PAGE_ERROR)
  .transform(Number)
  .refine((page) => page <= MAX_PAGE, PAGE_ERROR)
  .optional();

/** An object of query parameters that names the known ones when given another. */
export function queryOf<Shape extends z.ZodRawShape>(shape: Shape) {
  const known = Object.keys(shape).join(' and ');
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown query parameter ${issue.keys.map((key) => key.slice(0, 40)).join(', ')}; use ${known}`
        : undefined,
  });
}

/** A list's query: `?page=n`. */
export const PageQuery = queryOf({ page: PageNumber });

/** `?format=csv`: the whole list as a file. */
export const ExportFormat = z.literal('csv', { error: 'format can only be csv' }).optional();

/** A list that also exports: `?page=n`, or `?format=csv` for all of it. */
export const ExportQuery = queryOf({ page: PageNumber, format: ExportFormat });

/** `?q=text`: trimmed, at most `max` characters and no control characters; empty is no search. */
export const SearchText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `q must be at most ${max} characters`)
    .refine((q) => !/\p{Cc}/u.test(q), 'q must not hold control characters')
    .optional();

/** `?name=value` among `values`; another answers 400 naming them all. */
export const OneOf = <const T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.enum(values, { error: `${name} must be one of ${values.join(', ')}` }).optional();

/** The request's query, parsed with `schema`; a parameter given twice or a bad value answers 400 with the reason. */
export function parseQuery<T extends z.ZodType>(schema: T, req: Request): z.infer<T> {
  const params = new URL(req.url).searchParams;
  for (const name of new Set(params.keys())) {
    if (params.getAll(name).length > 1) throw new HttpError(errorResponse(400, `Give ${name.slice(0, 40)} only once`));
  }
  const query = schema.safeParse(Object.fromEntries(params));
  if (!query.success)
    throw new HttpError(errorResponse(400, query.error.issues[0]?.message ?? 'The query is not valid'));
  return query.data;
}
