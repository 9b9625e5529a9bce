/**
 * The CMS as the build makes it: its page (unlisted, with a policy of its own), its configuration
 * generated from the content schemas, and the build stopping when a schema gains a field the CMS
 * does not describe. Reads dist/, which `npm test` builds first, and builds a copy of its own.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { copySite, type SiteCopy } from '../../scripts/harness/site-copy';
import { CMS_PAGE, DIST, pagePolicy } from '../support/dist';

const read = (file: string) => readFileSync(path.join(DIST, file), 'utf8');

interface Field {
  name: string;
  widget: string;
  required?: boolean;
  pattern?: [string, string];
  hint?: string;
  [option: string]: unknown;
}
interface Collection {
  name: string;
  folder?: string;
  preview_path?: string;
  media_folder?: string;
  public_folder?: string;
  fields?: Field[];
  files?: { name: string; file: string; preview_path: string; fields: Field[] }[];
}
const config = JSON.parse(read('admin/cms/config.yml').replace(/^#.*\n/, '')) as {
  backend: { name: string; base_url: string };
  publish_mode: string;
  local_backend?: unknown;
  collections: Collection[];
};
const collection = (name: string) => config.collections.find((entry) => entry.name === name);
const field = (collectionName: string, name: string) =>
  collection(collectionName)?.fields?.find((entry) => entry.name === name);

describe('the CMS page', () => {
  const html = read(CMS_PAGE);

  test('is noindex, absent from the sitemap and under the robots.txt Disallow', () => {
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(read('sitemap-0.xml')).not.toContain('/admin');
    expect(read('robots.txt')).toMatch(/^Disallow: \/admin$/m);
  });

  test('has its own policy: what Decap needs, GitHub deployed, nothing local', () => {
    expect(pagePolicy(html)).toEqual({
      'default-src': ["'self'"],
      'script-src': ["'self'", "'unsafe-eval'"],
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': ["'self'", 'blob:', 'https://avatars.githubusercontent.com'],
      'connect-src': ["'self'", 'blob:', 'https://api.github.com', 'https://www.githubstatus.com'],
      'object-src': ["'none'"],
      'base-uri': ["'self'"],
      'form-action': ["'self'"],
    });
    expect(config.local_backend).toBeUndefined();
  });

  test('loads Decap and the preview templates from the site itself', () => {
    const scripts = [...html.matchAll(/<script src="([^"]+)"><\/script>/g)].map(([, src]) => src);
    expect(scripts).toEqual(['/admin/cms/decap/decap-cms.js', '/admin/cms/extensions.js']);
    for (const src of scripts) expect(existsSync(path.join(DIST, src ?? '')), src).toBe(true);
    expect(read('admin/cms/preview.css')).toContain('--color-brand-700');
  });

  test('no public page refers to the CMS', () => {
    for (const page of ['index.html', 'blog.html', 'sectors/saas.html']) expect(read(page)).not.toContain('/admin/cms');
  });
});

describe('the CMS configuration', () => {
  test('drafts become pull requests, logged in through Netlify to GitHub', () => {
    expect(config.backend).toMatchObject({ name: 'github', base_url: 'https://api.netlify.com' });
    expect(config.publish_mode).toBe('editorial_workflow');
  });

  test.each([
    ['blog', 'content/blog', 'blog/{{slug}}'],
    ['newsletter', 'content/newsletter', 'newsletter/{{slug}}'],
    ['sectors', 'content/sectors', 'sectors/{{slug}}'],
    ['miniApps', 'content/mini-apps', 'mini-apps/{{slug}}'],
    ['guides', 'content/guides', 'guides/{{slug}}'],
  ])('%s edits %s and previews at %s', (name, folder, previewPath) => {
    expect(collection(name)).toMatchObject({ folder, preview_path: previewPath });
  });

  test('the privacy policy is a single file, previewed at its page', () => {
    expect(collection('legal')?.files).toEqual([
      expect.objectContaining({
        name: 'privacy-policy',
        file: 'content/legal/privacy-policy.md',
        preview_path: 'privacy-policy',
      }),
    ]);
  });

  test('the owner’s hours are one file: its zone, weekly hours with breaks as gaps, the rules, and days off on a calendar', () => {
    const files = collection('booking')?.files ?? [];
    expect(files.map(({ name, file }) => [name, file])).toEqual([['hours', 'content/booking/hours.yaml']]);
    const fields = files[0]?.fields ?? [];
    expect(fields.map(({ name, widget }) => [name, widget])).toEqual([
      ['timeZone', 'string'],
      ['weeklyHours', 'list'],
      ['meetingMinutes', 'number'],
      ['bufferMinutes', 'number'],
      ['minimumNoticeHours', 'number'],
      ['bookingWindowDays', 'number'],
      ['slotIntervalMinutes', 'number'],
      ['dailyCap', 'number'],
      ['daysOff', 'list'],
    ]);
    const weekly = fields.find(({ name }) => name === 'weeklyHours');
    expect(weekly).toMatchObject({ label: 'Weekly hours', summary: '{{fields.day}} {{fields.from}}–{{fields.to}}' });
    expect(weekly?.hint).toContain('A break is the gap between two lines of the same day');
    expect(fields.find(({ name }) => name === 'dailyCap')).toMatchObject({ required: false, min: 1 });
    expect(fields.find(({ name }) => name === 'daysOff')?.fields).toEqual([
      expect.objectContaining({ name: 'from', widget: 'datetime', format: 'YYYY-MM-DD', picker_utc: true }),
      expect.objectContaining({ name: 'to', widget: 'datetime', format: 'YYYY-MM-DD', required: false }),
    ]);
  });

  test('covers are uploaded to a folder of content/images named after the entry, linked as the schema expects', () => {
    expect(collection('blog')).toMatchObject({
      media_folder: '/content/images/blog/{{slug}}',
      public_folder: '../images/blog/{{slug}}',
    });
    expect(field('blog', 'image')).toMatchObject({ widget: 'image', choose_url: false });
    expect(field('blog', 'imageAlt')?.widget).toBe('string');
  });

  test('an issue is written like a post: its subject, summary, date, draft flag and letter, in that order', () => {
    expect(collection('newsletter')?.fields?.map((entry) => [entry.name, entry.widget])).toEqual([
      ['subject', 'string'],
      ['summary', 'text'],
      ['publishedDate', 'datetime'],
      ['draft', 'boolean'],
      ['posts', 'relation'],
      ['body', 'markdown'],
    ]);
  });

  test("an issue's featured posts are chosen among the blog posts, by title, at most three, none required", () => {
    expect(field('newsletter', 'posts')).toMatchObject({
      widget: 'relation',
      collection: 'blog',
      value_field: '{{slug}}',
      display_fields: ['title'],
      multiple: true,
      max: 3,
      required: false,
    });
  });

  test('limits and types come from the schemas', () => {
    expect(field('blog', 'title')?.pattern?.[0]).toBe('^[\\s\\S]{10,90}$');
    expect(field('blog', 'summary')).toMatchObject({
      widget: 'text',
      pattern: ['^[\\s\\S]{50,180}$', expect.any(String)],
    });
    expect(field('blog', 'publishedDate')).toMatchObject({ widget: 'datetime', format: 'YYYY-MM-DD' });
    expect(field('blog', 'publishedDate')?.hint).toContain('A future date schedules the post');
    expect(field('blog', 'updatedDate')?.required).toBe(false);
    expect(field('blog', 'draft')).toMatchObject({ widget: 'boolean', required: false, default: false });
    expect(field('miniApps', 'icon')).toMatchObject({ widget: 'select', default: 'default' });
    expect(field('miniApps', 'sectors')).toMatchObject({
      widget: 'relation',
      collection: 'sectors',
      multiple: true,
      min: 1,
    });
    expect(field('sectors', 'automations')).toMatchObject({ widget: 'list', min: 2, max: 8 });
    expect(field('newsletter', 'subject')?.pattern?.[0]).toBe('^[\\s\\S]{10,90}$');
    expect(field('newsletter', 'summary')).toMatchObject({
      widget: 'text',
      pattern: ['^[\\s\\S]{50,180}$', expect.any(String)],
    });
    expect(field('newsletter', 'publishedDate')).toMatchObject({ widget: 'datetime', format: 'YYYY-MM-DD' });
    expect(field('newsletter', 'publishedDate')?.hint).toContain('A future date schedules the issue');
    expect(field('newsletter', 'draft')).toMatchObject({ widget: 'boolean', required: false, default: false });
    expect(field('sectors', 'order')).toMatchObject({ widget: 'number', value_type: 'int', min: 0 });
  });
});

describe('schema drift', () => {
  let site: SiteCopy | undefined;
  afterAll(() => site?.remove());

  // One copy with both drifts: the CMS's check lists every mismatch in one error.
  test('a required field added to a content schema and not to the CMS, and a new content collection without a CMS collection, stop the build, each named', () => {
    site = copySite();
    // The content has the new field (or the content check would stop the build first); the CMS does not.
    for (const post of readdirSync(site.file('content/blog'))) {
      const postFile = site.file('content/blog', post);
      writeFileSync(postFile, readFileSync(postFile, 'utf8').replace(/^---\n/, '---\nreadingMinutes: 5\n'));
    }
    const file = site.file('src/content.config.ts');
    const schemas = readFileSync(file, 'utf8');
    const changed = schemas
      .replace(
        '/** Headline; also the page title. */',
        '/** Minutes it takes to read. */\n    readingMinutes: z.number().int().min(1),\n    /** Headline; also the page title. */',
      )
      .replace(
        'export const collections = {',
        "const faq = defineCollection({\n  loader: glob({ pattern: '*.md', base: './content/faq' }),\n  schema: z.object({ question: z.string() }),\n});\n\nexport const collections = {\n  faq,",
      );
    expect(changed).toContain('readingMinutes');
    expect(changed).toContain('faq,');
    writeFileSync(file, changed);
    const { status, output } = site.build();
    expect(status).not.toBe(0);
    expect(output).toContain(
      'The CMS fields (src/lib/cms/collections.ts) do not match the content schemas (src/content.config.ts):',
    );
    expect(output).toContain('blog.readingMinutes: required in the content schema, missing from the CMS');
    expect(output).toContain('faq: a content collection, missing from the CMS');
  });
});
