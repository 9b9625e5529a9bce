/**
 * Decap CMS fields generated from the content schemas, so the editing UI can never ask for
 * less, or allow more, than the build accepts. A field's type, whether it is required, its
 * length and count limits, its options and its default come from its zod schema; only what a
 * schema cannot say (the label, the hint, a multi-line box, a relation's target) is written by
 * hand, in a spec per field. A schema field without a spec, or a spec without a schema field, is
 * an error naming both, and the build stops on it.
 */
import type { SchemaContext } from 'astro:content';
import { z } from 'astro/zod';

/** How one schema field is edited: what only a person can say about it. */
export interface FieldSpec {
  label: string;
  /** Shown under the field; its limits are added to it from the schema. */
  hint?: string;
  /**
   * `text` for a several-line box instead of one line; `relation` for a reference to another
   * collection; `day` for a calendar day the schema keeps as text (YYYY-MM-DD), picked on a calendar.
   */
  widget?: 'text' | 'relation' | 'day';
  /** Widget options the schema cannot give: a relation's collection, an image's folders, a list's summary. */
  options?: Record<string, unknown>;
  /** For a list of objects, the specs of the object's fields. */
  fields?: FieldSpecs;
}

export type FieldSpecs = Record<string, FieldSpec>;

/** A field of Decap's configuration (its `fields` list). */
export interface DecapField {
  name: string;
  label: string;
  widget: string;
  required?: boolean;
  hint?: string;
  [option: string]: unknown;
}

/** The formats of Astro's image(), as a tuple of the type Astro's SchemaContext names. */
const IMAGE_FORMATS: [
  z.ZodLiteral<'png'>,
  z.ZodLiteral<'jpg'>,
  z.ZodLiteral<'jpeg'>,
  z.ZodLiteral<'tiff'>,
  z.ZodLiteral<'webp'>,
  z.ZodLiteral<'gif'>,
  z.ZodLiteral<'svg'>,
  z.ZodLiteral<'avif'>,
  z.ZodLiteral<'apng'>,
] = [
  z.literal('png'),
  z.literal('jpg'),
  z.literal('jpeg'),
  z.literal('tiff'),
  z.literal('webp'),
  z.literal('gif'),
  z.literal('svg'),
  z.literal('avif'),
  z.literal('apng'),
];

/**
 * What `image()` stands for when the schemas are read for the CMS, recognised by identity. The
 * build's own `image()` resolves files; this one never parses anything.
 */
export const IMAGE = z.object({
  src: z.string(),
  width: z.number(),
  height: z.number(),
  format: z.union(IMAGE_FORMATS),
});

/** The argument a schema function (`({ image }) => z.object(…)`) gets when it is read for the CMS. */
export const SCHEMA_CONTEXT: SchemaContext = { image: () => IMAGE };

/** The date format of every date in content/: a calendar day, as YAML writes it. */
export const DATE_FORMAT = 'YYYY-MM-DD';

/** Decap's calendar for a day, kept as YYYY-MM-DD: in UTC, so that no editor's zone moves the day. */
const DAY_PICKER = {
  widget: 'datetime',
  format: DATE_FORMAT,
  date_format: DATE_FORMAT,
  time_format: false,
  picker_utc: true,
} as const;

/** A field's schema that does not match its spec, or that the generator cannot express. */
export class SchemaDriftError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `The CMS fields (src/lib/cms/collections.ts) do not match the content schemas (src/content.config.ts):\n` +
        problems.map((problem) => `  - ${problem}`).join('\n'),
    );
    this.name = 'SchemaDriftError';
  }
}

/** A `[regex, message]` pattern for a string's length limits, and the words for its hint. */
function lengthRule(min: number | null, max: number | null): { pattern?: [string, string]; words?: string } {
  const low = min ?? 0;
  if (low === 0 && max === null) return {};
  const words =
    max === null ? `at least ${low} characters` : low === 0 ? `at most ${max} characters` : `${low}–${max} characters`;
  return { pattern: [`^[\\s\\S]{${low},${max ?? ''}}$`, `Must be ${words}.`], words };
}

function countWords(min: number | undefined, max: number | undefined, one: string, many: string): string | undefined {
  if (min !== undefined && max !== undefined) return `${min}–${max} ${many}`;
  if (min !== undefined) return `at least ${min} ${min === 1 ? one : many}`;
  if (max !== undefined) return `at most ${max} ${max === 1 ? one : many}`;
  return undefined;
}

/** A list's limits on its number of items, read from the schema's JSON Schema form. */
function itemCount(schema: z.ZodArray): { min?: number; max?: number } {
  const json: object = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  const min = 'minItems' in json && typeof json.minItems === 'number' ? json.minItems : undefined;
  const max = 'maxItems' in json && typeof json.maxItems === 'number' ? json.maxItems : undefined;
  return { min, max };
}

function withHint(field: DecapField, spec: FieldSpec, ...limits: (string | undefined)[]): DecapField {
  const said = limits.filter(Boolean).join('; ');
  const hint = [spec.hint, said && `${said[0]?.toUpperCase()}${said.slice(1)}.`].filter(Boolean).join(' ');
  return hint ? { ...field, hint } : field;
}

/** Decap's field for one schema field, or the problems that keep it from having one. */
function fieldFor(
  path: string,
  name: string,
  schema: z.core.$ZodType,
  spec: FieldSpec,
  problems: string[],
): DecapField | undefined {
  let inner: z.core.$ZodType = schema;
  let required = true;
  let defaultValue: unknown;
  // Optional and defaulted fields may be left out of a file; the build fills in the default.
  for (;;) {
    if (inner instanceof z.ZodOptional) {
      required = false;
      inner = inner.unwrap();
    } else if (inner instanceof z.ZodDefault) {
      required = false;
      defaultValue = inner.def.defaultValue;
      inner = inner.unwrap();
    } else break;
  }
  const base: DecapField = {
    name,
    label: spec.label,
    widget: 'string',
    ...(required ? {} : { required: false }),
    ...(defaultValue === undefined ? {} : { default: defaultValue }),
  };

  if (spec.widget === 'relation') {
    // Astro's reference() is a transform of an id; a list of them is a multiple relation.
    const list = inner instanceof z.ZodArray ? inner : undefined;
    const item = list ? list.element : inner;
    if (!(item instanceof z.ZodPipe)) {
      problems.push(`${path}: the CMS edits it as a relation, but the schema does not make it a reference()`);
      return undefined;
    }
    const { min, max } = list ? itemCount(list) : {};
    const field: DecapField = {
      ...base,
      widget: 'relation',
      ...spec.options,
      ...(list ? { multiple: true } : {}),
      ...(min === undefined ? {} : { min }),
      ...(max === undefined ? {} : { max }),
    };
    return withHint(field, spec, countWords(min, max, 'choice', 'choices'));
  }
  if ((spec.widget === 'text' || spec.widget === 'day') && !(inner instanceof z.ZodString)) {
    problems.push(`${path}: the CMS edits it as ${spec.widget}, but the schema does not make it a string`);
    return undefined;
  }
  if (inner === IMAGE) {
    return withHint({ ...base, widget: 'image', choose_url: false, ...spec.options }, spec);
  }
  if (spec.widget === 'day') return withHint({ ...base, ...DAY_PICKER }, spec);
  if (inner instanceof z.ZodString) {
    // A required string with no minimum (alt text) is required non-empty here: Decap cannot ask
    // for a field that must be present but may be empty, and an editor should describe the image.
    const { pattern, words } = lengthRule(inner.minLength, inner.maxLength);
    return withHint({ ...base, widget: spec.widget ?? 'string', ...(pattern ? { pattern } : {}) }, spec, words);
  }
  if (inner instanceof z.ZodNumber) {
    const max = inner.maxValue !== null && inner.maxValue < Number.MAX_SAFE_INTEGER ? inner.maxValue : undefined;
    const min = inner.minValue !== null && inner.minValue > Number.MIN_SAFE_INTEGER ? inner.minValue : undefined;
    const field: DecapField = {
      ...base,
      widget: 'number',
      value_type: inner.isInt ? 'int' : 'float',
      ...(min === undefined ? {} : { min }),
      ...(max === undefined ? {} : { max }),
    };
    return withHint(field, spec, inner.isInt ? 'a whole number' : undefined);
  }
  if (inner instanceof z.ZodBoolean) {
    return withHint({ ...base, widget: 'boolean' }, spec);
  }
  if (inner instanceof z.ZodDate) {
    // A calendar day, written as YAML's date (2026-12-01), which the schema's coerce.date() reads.
    return withHint({ ...base, ...DAY_PICKER }, spec);
  }
  if (inner instanceof z.ZodEnum) {
    return withHint({ ...base, widget: 'select', options: inner.options.map(String) }, spec);
  }
  if (inner instanceof z.ZodArray) {
    const { min, max } = itemCount(inner);
    const element = inner.element;
    const list: DecapField = {
      ...base,
      widget: 'list',
      ...(min === undefined ? {} : { min }),
      ...(max === undefined ? {} : { max }),
    };
    const count = countWords(min, max, 'item', 'items');
    if (element instanceof z.ZodObject) {
      const fields = objectFields(path, element, spec.fields ?? {}, problems);
      const summary = `{{fields.${fields[0]?.name ?? 'title'}}}`;
      return withHint({ ...list, fields, summary, ...spec.options }, spec, count);
    }
    // A list of plain values: Decap's single `field` keeps them plain in the file, not objects.
    const item = fieldFor(`${path}[]`, 'item', element, { label: spec.label }, problems);
    if (!item) return undefined;
    const { hint: itemLimits, ...field } = item;
    return withHint(
      { ...list, field },
      spec,
      count,
      itemLimits && `each ${itemLimits.replace(/\.$/, '').toLowerCase()}`,
    );
  }
  problems.push(`${path}: its schema type (${inner._zod.def.type}) has no CMS widget here`);
  return undefined;
}

function objectFields(path: string, schema: z.ZodObject, specs: FieldSpecs, problems: string[]): DecapField[] {
  const shape: Record<string, z.core.$ZodType> = schema.shape;
  for (const name of Object.keys(specs)) {
    if (!(name in shape)) problems.push(`${path}.${name}: in the CMS, but not in the content schema`);
  }
  const fields: DecapField[] = [];
  for (const [name, field] of Object.entries(shape)) {
    const spec = specs[name];
    if (!spec) {
      const required = !(field instanceof z.ZodOptional || field instanceof z.ZodDefault);
      problems.push(
        `${path}.${name}: ${required ? 'required' : 'optional'} in the content schema, missing from the CMS`,
      );
      continue;
    }
    const decap = fieldFor(`${path}.${name}`, name, field, spec, problems);
    if (decap) fields.push(decap);
  }
  return fields;
}

/**
 * The Decap fields of a collection, in the schema's order, from its schema and the specs of its
 * fields. Throws a SchemaDriftError listing every mismatch at once.
 */
export function cmsFields(collection: string, schema: z.ZodObject, specs: FieldSpecs): DecapField[] {
  const problems: string[] = [];
  const fields = objectFields(collection, schema, specs, problems);
  if (problems.length > 0) throw new SchemaDriftError(problems);
  return fields;
}
