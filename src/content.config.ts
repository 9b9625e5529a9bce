/**
 * Content collections: the one source of truth for pages, feeds and the /api.
 * Editors change files under content/; these schemas check them at build time
 * and name the file and field when something is wrong.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { defineCollection, reference, type SchemaContext } from 'astro:content';
import { glob, type Loader } from 'astro/loaders';
import { z } from 'astro/zod';
import { BookingHours, HOURS_MISSING } from './shared/booking';
import { SCHEMA_CONTEXT } from './lib/cms/fields';
import { checkedBefore, withKnownFields } from './lib/content-fields';
import { withSafeMarkdown } from './lib/safe-markdown';

/** Icons a mini-app can show; without one it shows `default`, and any other name fails the build. */
export const MINI_APP_ICONS = [
  'invoice',
  'calendar',
  'robot',
  'document',
  'chart',
  'inventory',
  'link',
  'book',
  'map',
  'users',
  'scale',
  'default',
] as const;

/**
 * What is wrong with the date fields of a markdown file's front matter, one line per field, as the
 * editor wrote them. The YAML reader turns `2026-02-30` into 2 March and `2026-13-45` into a day of
 * 2027 before any schema sees it, so a post would move, or vanish as scheduled, without a word; and
 * the schema's coerce.date() calls a value that is no date at all ("next week") an object.
 */
function wrongDates(text: string, data: Record<string, unknown>, fields: readonly string[]): string[] {
  const frontMatter = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
  return fields.flatMap((field) => {
    // A missing date is the schema's to report.
    const value = data[field];
    if (value === undefined || value === null || value === '') return [];
    const written = new RegExp(`^${field}:[ \\t]*['"]?(\\d{4})-(\\d{2})-(\\d{2})\\b`, 'm').exec(frontMatter);
    if (written) {
      const [year, month, day] = written.slice(1).map(Number) as [number, number, number];
      const date = new Date(Date.UTC(year, month - 1, day));
      const real = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
      if (!real) return [`${field}: ${written.slice(1).join('-')} is not a day of the calendar`];
    }
    // Only YYYY-MM-DD is a date here: Date() would also read 10/11/2026, as 11 October.
    const date = value instanceof Date ? value : written ? new Date(String(value)) : undefined;
    if (date && !Number.isNaN(date.getTime())) return [];
    return [`${field}: ${typeof value === 'string' ? value : JSON.stringify(value)} is not a date`];
  });
}

/** A glob loader whose files' date fields must be dates, YYYY-MM-DD, and days of the calendar: the build fails naming the file and the field. */
function withCalendarDates(loader: Loader, fields: readonly string[]): Loader {
  return checkedBefore(loader, (entry, root) => {
    const file = entry.filePath && path.resolve(root, entry.filePath);
    const wrong = file ? wrongDates(readFileSync(file, 'utf8'), entry.data, fields) : [];
    if (file && wrong.length > 0)
      throw new Error(`${path.relative(root, file)}: ${wrong.join('; ')}; write the date as YYYY-MM-DD`);
    // An empty date (`updatedDate:` with nothing after it, or "") is no date: the schema would
    // read it as 1 January 1970. Left out, an optional one is absent and a required one missing.
    return Object.fromEntries(
      Object.entries(entry.data).filter(
        ([field, value]) => !fields.includes(field) || (value !== null && value !== ''),
      ),
    );
  });
}

/**
 * A glob loader whose image fields must name files, each field with the folder of content/ its
 * images go in. Astro looks for them only when it bundles the pages, and then names neither the
 * file nor the field. The path is looked up as image() does: from the markdown file's folder, or
 * from the site's root when it starts with `/`; an address (`https://…`) is left to image().
 */
function withImageFiles(loader: Loader, folders: Readonly<Record<string, string>>): Loader {
  return checkedBefore(loader, (entry, root) => {
    const fromRoot = (to: string) => path.relative(root, to) || '.';
    const file = entry.filePath && path.resolve(root, entry.filePath);
    for (const [field, folder] of Object.entries(folders)) {
      const written = entry.data[field];
      if (!file || typeof written !== 'string' || written.includes('://')) continue;
      const here = path.dirname(file);
      const found = written.startsWith('/') ? path.join(root, written) : path.resolve(here, written);
      if (statSync(found, { throwIfNoEntry: false })?.isFile()) continue;
      const example = path.join(path.relative(here, path.join(root, folder)), `<name>${path.extname(written)}`);
      throw new Error(
        `${fromRoot(file)}: ${field}: ${written} is not a file in ${fromRoot(path.dirname(found))}; write the path relative to the markdown file, e.g. ${example}`,
      );
    }
    return entry.data;
  });
}

/** A short text used as meta description and card text: search engines show up to about 160 characters. */
const seoSummary = z.string().trim().min(50).max(180);

const listItem = z.string().trim().min(3).max(200);

/** A sector's front matter; the markdown body is its page's main text. */
export const sectorSchema = ({ image }: SchemaContext) =>
  z.object({
    /** Display name, exactly as the sector is known across the site and the API. */
    name: z.string().trim().min(2).max(60),
    /** Position in lists; the home page shows the first three. */
    order: z.number().int().min(0),
    /** One or two sentences for cards, meta descriptions and link previews. */
    summary: seoSummary,
    /** Illustration, relative to the YAML file. */
    image: image(),
    /** Text alternative for the illustration; empty only if it is purely decorative. */
    imageAlt: z.string().trim().max(200),
    /** Concrete automations for this sector, shown as a list on its page. */
    automations: z
      .array(z.object({ title: z.string().trim().min(3).max(80), text: z.string().trim().min(20).max(300) }))
      .min(2)
      .max(8),
  });

const sectors = defineCollection({
  // The markdown body is the sector page's main text: what the firm automates for this kind of business.
  loader: withKnownFields(
    withImageFiles(withSafeMarkdown(glob({ pattern: '*.md', base: './content/sectors' })), {
      image: 'content/images/sectors',
    }),
    sectorSchema(SCHEMA_CONTEXT),
    ['image'],
  ),
  schema: sectorSchema,
});

/** A mini-app: the whole YAML file. */
export const miniAppSchema = z.object({
  /** Display name. */
  name: z.string().trim().min(2).max(60),
  /** Position in lists; the home page shows the first three. */
  order: z.number().int().min(0),
  /** One or two sentences for cards, meta descriptions and link previews. */
  summary: seoSummary,
  /** The overview on the mini-app's page: plain text, paragraphs separated by a blank line. */
  description: z.string().trim().min(120),
  /** Which icon the cards show. */
  icon: z.enum(MINI_APP_ICONS).default('default'),
  /** Sectors it serves: file names (slugs) of entries in content/sectors. */
  sectors: z.array(reference('sectors')).min(1),
  /** Who it suits best. */
  best_for: z.array(listItem).min(2).max(8),
  /** What it changes for the business. */
  key_benefits: z.array(listItem).min(2).max(8),
});

const miniApps = defineCollection({
  loader: withKnownFields(glob({ pattern: '*.{yaml,yml}', base: './content/mini-apps' }), miniAppSchema, ['sectors']),
  schema: miniAppSchema,
});

/** A blog post's front matter; the markdown body is the article. */
export const blogSchema = ({ image }: SchemaContext) =>
  z.object({
    /** Headline; also the page title. */
    title: z.string().trim().min(10).max(90),
    /** Shown on the blog list, in feeds and as the meta description. */
    summary: seoSummary,
    /** Cover illustration, relative to the markdown file. */
    image: image(),
    /** Text alternative for the cover. */
    imageAlt: z.string().trim().max(200),
    /** Publication date, YYYY-MM-DD. */
    publishedDate: z.coerce.date(),
    /** Date of the last meaningful change, if any. */
    updatedDate: z.coerce.date().optional(),
    /** Drafts are built in `astro dev` only, never in production. */
    draft: z.boolean().default(false),
  });

const blog = defineCollection({
  loader: withKnownFields(
    withImageFiles(
      withCalendarDates(withSafeMarkdown(glob({ pattern: '**/*.md', base: './content/blog' })), [
        'publishedDate',
        'updatedDate',
      ]),
      { image: 'content/images/blog' },
    ),
    blogSchema(SCHEMA_CONTEXT),
    ['image'],
  ),
  schema: blogSchema,
});

/** The blog posts an issue may feature: a few cards under the letter, never a second blog list. */
const FEATURED_POSTS_MAX = 3;

/** A newsletter issue's front matter; the markdown body is the letter itself. */
export const newsletterSchema = z.object({
  /** The e-mail's subject line; also the issue page's heading and title. */
  subject: z.string().trim().min(10).max(90),
  /** One line for the list of issues, the meta description and the e-mail's preview text. */
  summary: seoSummary,
  /** Publication date, YYYY-MM-DD: an issue dated after the build day is scheduled, as a post is. */
  publishedDate: z.coerce.date(),
  /** Drafts are built in `astro dev` only, never in production. */
  draft: z.boolean().default(false),
  /**
   * Blog posts the issue features, drawn as cards under the letter: file names (slugs) of entries
   * in content/blog, each published no later than the issue.
   */
  posts: z.array(reference('blog')).max(FEATURED_POSTS_MAX).optional(),
});

const newsletter = defineCollection({
  // Published issues have a page at /newsletter/<file name>; sending one is the owner's act.
  loader: withKnownFields(
    withCalendarDates(withSafeMarkdown(glob({ pattern: '*.md', base: './content/newsletter' })), ['publishedDate']),
    newsletterSchema,
    ['posts'],
  ),
  schema: newsletterSchema,
});

/** A legal page's front matter (the privacy policy); the markdown body is its text. */
export const legalSchema = z.object({
  /** Page heading and title. */
  title: z.string().trim().min(3).max(90),
  /** Meta description. */
  summary: seoSummary,
  /** When the text last changed, YYYY-MM-DD. */
  updatedDate: z.coerce.date(),
});

const legal = defineCollection({
  loader: withKnownFields(
    withCalendarDates(withSafeMarkdown(glob({ pattern: '*.md', base: './content/legal' })), ['updatedDate']),
    legalSchema,
  ),
  schema: legalSchema,
});

/** A guide's front matter; the markdown body is the guide itself. */
export const guideSchema = z.object({
  /** The guide's heading, page title and the link text of the e-mail that sends it. */
  title: z.string().trim().min(10).max(90),
  /** What the reader gets from it, under the title and as the meta description. */
  summary: seoSummary,
  /** Who it is written for, shown under the summary. */
  audience: z.string().trim().min(10).max(160),
  /** When the guide was last checked against the products it describes, YYYY-MM-DD; shown, and printed. */
  updatedDate: z.coerce.date(),
});

const guides = defineCollection({
  // Guides are unlisted pages at /guides/<file name>, sent by e-mail to the people who ask for
  // them (src/shared/pages.ts GUIDE_PATHS) and made to print.
  loader: withKnownFields(
    withCalendarDates(withSafeMarkdown(glob({ pattern: '*.md', base: './content/guides' })), ['updatedDate']),
    guideSchema,
  ),
  schema: guideSchema,
});

/** Whether a YYYY-MM-DD day is one of the calendar. */
function isCalendarDay(day: string): boolean {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
}

/**
 * A glob loader whose days off are written YYYY-MM-DD and are days of the calendar. The YAML
 * reader makes an unquoted 2026-12-24 (as the CMS writes it) a date, which the schema's day is
 * not, and an unquoted 2026-02-30 the 2nd of March: the first is turned back into the day as
 * written, the second fails the build naming the file and the day.
 */
function withDaysOff(loader: Loader): Loader {
  return checkedBefore(loader, (entry, root) => {
    const file = entry.filePath && path.resolve(root, entry.filePath);
    const written = file ? [...readFileSync(file, 'utf8').matchAll(/\b\d{4}-\d{2}-\d{2}\b/g)].map(([day]) => day) : [];
    const unreal = written.find((day) => !isCalendarDay(day));
    if (file && unreal)
      throw new Error(
        `${path.relative(root, file)}: daysOff: ${unreal} is not a day of the calendar; write the day as YYYY-MM-DD`,
      );
    const { daysOff } = entry.data;
    if (!Array.isArray(daysOff)) return entry.data;
    const asWritten = (value: unknown) => (value instanceof Date ? value.toISOString().slice(0, 10) : value);
    return {
      ...entry.data,
      daysOff: daysOff.map((days: unknown) =>
        typeof days === 'object' && days !== null
          ? Object.fromEntries(Object.entries(days).map(([field, value]) => [field, asWritten(value)]))
          : days,
      ),
    };
  });
}

/** A loader that stops the content sync when its folder lacks the entry `id`: before any page is built. */
function requiring(loader: Loader, id: string, message: string): Loader {
  return {
    ...loader,
    load: async (context) => {
      await loader.load(context);
      if (!context.store.has(id)) throw new Error(message);
    },
  };
}

const booking = defineCollection({
  // The owner's hours and the rules of a booking: the one file content/booking/hours.yaml, checked
  // with the schema the functions read its build copy with (src/shared/booking.ts).
  loader: requiring(
    withKnownFields(withDaysOff(glob({ pattern: '*.{yaml,yml}', base: './content/booking' })), BookingHours),
    'hours',
    HOURS_MISSING,
  ),
  schema: BookingHours,
});

export const collections = { sectors, miniApps, blog, newsletter, legal, guides, booking };
