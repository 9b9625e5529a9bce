/**
 * The fields of an entry in content/, checked before Astro's own schema check, so that a mistake
 * fails the build with the file, the field and what to write, in an editor's words. Astro alone
 * drops a key that is no field (a misspelt `Draft: true` publishes the draft) and says
 * `Expected type "date", received "object"` of a date left out.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Loader, ParseDataOptions } from 'astro/loaders';
import { z } from 'astro/zod';

/** What a value of each kind is written as. */
const WRITE: Partial<Record<string, string>> = {
  date: 'write the date as YYYY-MM-DD',
  boolean: 'write true or false',
  number: 'write a number',
  int: 'write a whole number',
  array: 'write a list',
  string: 'write it as text',
};

/** What a value of each kind is called, where "a <kind>" would not do. */
const KIND: Partial<Record<string, string>> = { boolean: 'true or false', int: 'a whole number', array: 'a list' };

/** A value as the editor wrote it, shortened. */
function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = value instanceof Date ? value.toISOString().slice(0, 10) : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The known field a misspelt key most likely meant: the same but for case, or one or two letters off. */
function meant(key: string, fields: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const distance = (a: string, b: string): number => {
    let row = Array.from({ length: b.length + 1 }, (_, index) => index);
    for (let i = 1; i <= a.length; i += 1) {
      const next = [i];
      for (let j = 1; j <= b.length; j += 1)
        next.push(
          Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)),
        );
      row = next;
    }
    return row[b.length] ?? Number.POSITIVE_INFINITY;
  };
  return (
    fields.find((field) => field.toLowerCase() === lower) ??
    fields.find((field) => distance(lower, field.toLowerCase()) <= 2)
  );
}

/** One line per problem of an issue, each starting with the field it is about. */
function describe(issue: z.core.$ZodIssue, fields: readonly string[], missing: boolean): string[] {
  const field = issue.path.map(String).join('.');
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => {
        const guess = meant(key, fields);
        return `${key}: is not a field here${guess ? `; did you mean ${guess}?` : ''} The fields are ${fields.join(', ')}`;
      });
    case 'invalid_type': {
      const write = WRITE[issue.expected];
      if (missing) return [`${field}: is missing${write ? `; ${write}` : ''}`];
      return [
        `${field}: ${shown(issue.input)} is not ${KIND[issue.expected] ?? `a ${issue.expected}`}${write ? `; ${write}` : ''}`,
      ];
    }
    case 'too_small':
    case 'too_big': {
      const limit = issue.code === 'too_small' ? `at least ${issue.minimum}` : `at most ${issue.maximum}`;
      const { input } = issue;
      if (issue.origin === 'string' && typeof input === 'string')
        return [`${field}: is ${input.length} characters; write ${limit}`];
      if (issue.origin === 'array' && Array.isArray(input)) return [`${field}: has ${input.length}; give ${limit}`];
      return [`${field}: ${shown(input)} is too ${issue.code === 'too_small' ? 'small' : 'large'}; write ${limit}`];
    }
    case 'invalid_value':
      return [`${field}: ${shown(issue.input)} is not one of ${issue.values.map(String).join(', ')}`];
    default:
      return [`${field}: ${issue.message}`];
  }
}

/** An entry as a loader hands it to Astro's parseData. */
export type LoadedEntry = ParseDataOptions<Record<string, unknown>>;

/**
 * A loader whose entries go through `check` before Astro's schema: it throws to fail the build,
 * naming the file and the field, or answers the entry's data (changed, where it must be) for the
 * next step. `root` is the site's folder, which entries' paths are relative to.
 */
export function checkedBefore(
  loader: Loader,
  check: (entry: LoadedEntry, root: string) => Record<string, unknown>,
): Loader {
  return {
    ...loader,
    load: (context) => {
      const root = fileURLToPath(context.config.root);
      return loader.load({
        ...context,
        parseData<TData extends Record<string, unknown>>(entry: ParseDataOptions<TData>) {
          // A check answers the entry's own data, or the same without fields it takes out.
          return context.parseData({ ...entry, data: check(entry, root) as TData });
        },
      });
    },
  };
}

/**
 * A loader whose entries must hold the fields of `schema` and no others, each of the right kind
 * and length; the build fails naming the file, each field, and what to write. A field in `skip`
 * that is there (an image, whose path withImageFiles checks; a reference, which Astro checks
 * against its collection) is left to the loaders and schema after it.
 */
export function withKnownFields(loader: Loader, schema: z.ZodObject, skip: readonly string[] = []): Loader {
  const check = z.strictObject(schema.shape);
  const fields = Object.keys(schema.shape);
  // A field left out: at the top (a date, whose coercion hides it), or inside a list item (a
  // sector's automation without its text).
  const missing = (issue: z.core.$ZodIssue, data: Record<string, unknown>) =>
    (issue.path.length === 1 && data[String(issue.path[0])] === undefined) ||
    (issue.code === 'invalid_type' && issue.input === undefined);
  // How many a list holds is this check's to say, also of a list of references.
  const counted = (issue: z.core.$ZodIssue) =>
    (issue.code === 'too_big' || issue.code === 'too_small') && issue.origin === 'array';
  return checkedBefore(loader, (entry, root) => {
    const result = check.safeParse(entry.data, { reportInput: true });
    const problems = result.success
      ? []
      : result.error.issues
          .filter((issue) => missing(issue, entry.data) || counted(issue) || !skip.includes(String(issue.path[0])))
          .flatMap((issue) => describe(issue, fields, missing(issue, entry.data)));
    if (entry.filePath && problems.length > 0)
      throw new Error(`${path.relative(root, path.resolve(root, entry.filePath))}: ${problems.join('; ')}`);
    return entry.data;
  });
}
