/**
 * The CMS's fields are read from the content schemas: each zod type becomes the Decap widget
 * that accepts what the schema accepts, and a schema field the CMS does not describe (or a CMS
 * field the schema does not have) is an error naming it.
 */
import { z } from 'astro/zod';
import { describe, expect, test } from 'vitest';
import { cmsFields, IMAGE, SchemaDriftError, type FieldSpecs } from '../../src/lib/cms/fields';

const only = (schema: z.ZodType, spec: FieldSpecs[string] = { label: 'Field' }) =>
  cmsFields('things', z.object({ field: schema }), { field: spec })[0];

describe('a schema field becomes the Decap field that accepts the same values', () => {
  test.each([
    [
      'a bounded string',
      z.string().trim().min(10).max(90),
      { widget: 'string', pattern: ['^[\\s\\S]{10,90}$', 'Must be 10–90 characters.'] },
    ],
    [
      'a string with a maximum',
      z.string().max(200),
      { widget: 'string', pattern: ['^[\\s\\S]{0,200}$', 'Must be at most 200 characters.'] },
    ],
    [
      'a string with a minimum',
      z.string().min(120),
      { widget: 'string', pattern: ['^[\\s\\S]{120,}$', 'Must be at least 120 characters.'] },
    ],
    ['a whole number', z.number().int().min(0), { widget: 'number', value_type: 'int', min: 0 }],
    ['a boolean with a default', z.boolean().default(false), { widget: 'boolean', required: false, default: false }],
    [
      'a date',
      z.coerce.date(),
      { widget: 'datetime', format: 'YYYY-MM-DD', date_format: 'YYYY-MM-DD', time_format: false },
    ],
    ['an optional date', z.coerce.date().optional(), { widget: 'datetime', required: false }],
    [
      'an enum with a default',
      z.enum(['a', 'b']).default('b'),
      { widget: 'select', options: ['a', 'b'], default: 'b', required: false },
    ],
    ['an image', IMAGE, { widget: 'image', choose_url: false }],
    [
      'a list of strings',
      z.array(z.string().min(3)).min(2).max(8),
      {
        widget: 'list',
        min: 2,
        max: 8,
        field: {
          name: 'item',
          label: 'Field',
          widget: 'string',
          pattern: ['^[\\s\\S]{3,}$', 'Must be at least 3 characters.'],
        },
      },
    ],
  ])('%s', (_name, schema, expected) => {
    expect(only(schema)).toMatchObject({ name: 'field', label: 'Field', ...expected });
  });

  test('a required field is required (Decap’s default), an optional one is not', () => {
    expect(only(z.string())).not.toHaveProperty('required');
    expect(only(z.string().optional())).toMatchObject({ required: false });
  });

  test('the limits are added to the hint, in words', () => {
    expect(only(z.string().min(50).max(180), { label: 'Summary', hint: 'For cards.' })?.hint).toBe(
      'For cards. 50–180 characters.',
    );
  });

  test('a text spec gives a several-line box with the same limits', () => {
    expect(only(z.string().max(300), { label: 'Text', widget: 'text' })).toMatchObject({
      widget: 'text',
      pattern: ['^[\\s\\S]{0,300}$', 'Must be at most 300 characters.'],
    });
  });

  test('a list of references is a multiple relation with its count limits', () => {
    const reference = z.string().transform((id) => ({ id, collection: 'sectors' }));
    expect(
      only(z.array(reference).min(1), { label: 'Sectors', widget: 'relation', options: { collection: 'sectors' } }),
    ).toMatchObject({ widget: 'relation', collection: 'sectors', multiple: true, min: 1, hint: 'At least 1 choice.' });
  });

  test('an optional list of references with a maximum is an optional multiple relation', () => {
    const reference = z.string().transform((id) => ({ id, collection: 'blog' }));
    expect(
      only(z.array(reference).max(3).optional(), {
        label: 'Featured posts',
        widget: 'relation',
        options: { collection: 'blog' },
      }),
    ).toMatchObject({
      widget: 'relation',
      collection: 'blog',
      multiple: true,
      max: 3,
      required: false,
      hint: 'At most 3 choices.',
    });
  });

  test('a list of objects has the fields of its object', () => {
    const automations = z.array(z.object({ title: z.string().min(3).max(80) })).min(2);
    expect(only(automations, { label: 'Automations', fields: { title: { label: 'Title' } } })).toMatchObject({
      widget: 'list',
      min: 2,
      fields: [
        { name: 'title', label: 'Title', widget: 'string', pattern: ['^[\\s\\S]{3,80}$', 'Must be 3–80 characters.'] },
      ],
    });
  });

  test('a day kept as text is picked on a calendar and kept as YYYY-MM-DD, in UTC', () => {
    expect(only(z.string().regex(/^\d{4}-\d{2}-\d{2}$/), { label: 'First day', widget: 'day' })).toEqual({
      name: 'field',
      label: 'First day',
      widget: 'datetime',
      format: 'YYYY-MM-DD',
      date_format: 'YYYY-MM-DD',
      time_format: false,
      picker_utc: true,
    });
  });

  test('a list of objects may say how each of its items is summed up', () => {
    const stretches = z.array(z.object({ from: z.string(), to: z.string() }));
    const spec = {
      label: 'Weekly hours',
      options: { summary: '{{fields.from}}–{{fields.to}}' },
      fields: { from: { label: 'From' }, to: { label: 'To' } },
    };
    expect(only(stretches, spec)).toMatchObject({ widget: 'list', summary: '{{fields.from}}–{{fields.to}}' });
  });
});

describe('drift between the schema and the CMS', () => {
  const problems = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      if (error instanceof SchemaDriftError) return error.problems;
      throw error;
    }
    return [];
  };

  test('a schema field without a CMS field is named, required or optional', () => {
    const schema = z.object({ title: z.string(), readingMinutes: z.number(), subtitle: z.string().optional() });
    expect(problems(() => cmsFields('blog', schema, { title: { label: 'Title' } }))).toEqual([
      'blog.readingMinutes: required in the content schema, missing from the CMS',
      'blog.subtitle: optional in the content schema, missing from the CMS',
    ]);
  });

  test('a CMS field the schema does not have is named', () => {
    const schema = z.object({ title: z.string() });
    expect(
      problems(() => cmsFields('blog', schema, { title: { label: 'Title' }, author: { label: 'Author' } })),
    ).toEqual(['blog.author: in the CMS, but not in the content schema']);
  });

  test('a field inside a list of objects is checked too', () => {
    const schema = z.object({ steps: z.array(z.object({ title: z.string(), text: z.string() })) });
    expect(
      problems(() =>
        cmsFields('sectors', schema, { steps: { label: 'Steps', fields: { title: { label: 'Title' } } } }),
      ),
    ).toEqual(['sectors.steps.text: required in the content schema, missing from the CMS']);
  });

  test('a relation that is not a reference, and a type with no widget, are named', () => {
    const schema = z.object({ sectors: z.array(z.string()), when: z.bigint() });
    expect(
      problems(() =>
        cmsFields('apps', schema, { sectors: { label: 'Sectors', widget: 'relation' }, when: { label: 'When' } }),
      ),
    ).toEqual([
      'apps.sectors: the CMS edits it as a relation, but the schema does not make it a reference()',
      'apps.when: its schema type (bigint) has no CMS widget here',
    ]);
  });
});
