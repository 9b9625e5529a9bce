/**
 * The CMS's collections: what editors own in content/, described for Decap CMS. Field types,
 * limits, options and defaults come from the content schemas (./fields.ts); here are only the
 * labels, hints and choices a person makes. Adding a field to a schema in src/content.config.ts
 * without adding it here stops the build, naming the collection and the field.
 */
import {
  blogSchema,
  collections,
  guideSchema,
  legalSchema,
  miniAppSchema,
  newsletterSchema,
  sectorSchema,
} from '../../content.config';
import { BookingHours } from '../../shared/booking';
import { cmsFields, SCHEMA_CONTEXT, SchemaDriftError, type DecapField, type FieldSpecs } from './fields';

/** The markdown body of an entry: not in its schema, it is the text below the front matter. */
function body(label: string, hint: string): DecapField {
  return {
    name: 'body',
    label,
    widget: 'markdown',
    hint,
    // The page's title is its only level-one heading, and posts carry no raw HTML.
    buttons: ['bold', 'italic', 'link', 'heading-two', 'heading-three', 'quote', 'bulleted-list', 'numbered-list'],
    editor_components: [],
    sanitize_preview: true,
  };
}

/**
 * Uploads for an entry go to a folder of content/images named after the entry (Decap keeps an
 * upload's own file name), and the front matter names them relative to the markdown file, as the
 * schema's image() expects. Set on the collection, so the preview pane finds them too.
 */
function imageFolders(section: string) {
  return { media_folder: `/content/images/${section}/{{slug}}`, public_folder: `../images/${section}/{{slug}}` };
}

const BLOG: FieldSpecs = {
  title: { label: 'Title', hint: 'The headline, also the page title in search results.' },
  summary: {
    label: 'Summary',
    widget: 'text',
    hint: 'One or two sentences for the blog list, the RSS feed and search results.',
  },
  image: {
    label: 'Cover image',
    hint: 'An illustration, ideally 1200×630 (SVG, PNG, JPG or WebP). It is stored in a folder named after the post.',
  },
  imageAlt: { label: 'Cover description (alt text)', hint: 'What the cover shows, for people who cannot see it.' },
  publishedDate: {
    label: 'Publication date',
    hint: 'A future date schedules the post: it stays off the site until that day, then goes live by itself early that morning (UTC).',
  },
  updatedDate: { label: 'Updated on', hint: 'Only after a meaningful change; leave empty otherwise.' },
  draft: {
    label: 'Draft',
    hint: 'A draft is never published, even once this change is merged; it shows only in local development.',
  },
};

const NEWSLETTER: FieldSpecs = {
  subject: { label: 'Subject', hint: 'The e-mail’s subject line, also the heading of the issue’s page.' },
  summary: {
    label: 'Summary',
    widget: 'text',
    hint: 'One line for the list of past issues and search results; mail apps show it beside the subject.',
  },
  publishedDate: {
    label: 'Publication date',
    hint: 'A future date schedules the issue: its page stays off the site until that day, then goes live by itself early that morning (UTC).',
  },
  draft: {
    label: 'Draft',
    hint: 'A draft is never published, even once this change is merged; it shows only in local development.',
  },
  posts: {
    label: 'Featured posts',
    widget: 'relation',
    hint: 'Blog posts shown as cards under the letter, in this order; each must be published on or before the issue’s date.',
    options: { collection: 'blog', value_field: '{{slug}}', search_fields: ['title'], display_fields: ['title'] },
  },
};

const SECTORS: FieldSpecs = {
  name: { label: 'Name', hint: 'As the sector is known across the site and the API.' },
  order: { label: 'Position', hint: 'Lower comes first; the home page shows the first three.' },
  summary: { label: 'Summary', widget: 'text', hint: 'One or two sentences for cards and search results.' },
  image: {
    label: 'Illustration',
    hint: 'Ideally 1200×630 (SVG, PNG, JPG or WebP). It is stored in a folder named after the sector.',
  },
  imageAlt: { label: 'Illustration description (alt text)', hint: 'What the illustration shows.' },
  automations: {
    label: 'Automations',
    hint: 'Concrete automations for this sector, listed on its page.',
    fields: {
      title: { label: 'Title' },
      text: { label: 'Text', widget: 'text' },
    },
  },
};

const MINI_APPS: FieldSpecs = {
  name: { label: 'Name' },
  order: { label: 'Position', hint: 'Lower comes first; the home page shows the first three.' },
  summary: { label: 'Summary', widget: 'text', hint: 'One or two sentences for cards and search results.' },
  description: {
    label: 'Description',
    widget: 'text',
    hint: 'The overview on the mini-app’s page: plain text, paragraphs separated by a blank line.',
  },
  icon: { label: 'Icon' },
  sectors: {
    label: 'Sectors',
    widget: 'relation',
    hint: 'The sectors it serves.',
    options: {
      collection: 'sectors',
      value_field: '{{slug}}',
      search_fields: ['name'],
      display_fields: ['name'],
    },
  },
  best_for: { label: 'Best for', hint: 'Who it suits best.' },
  key_benefits: { label: 'Key benefits', hint: 'What it changes for the business.' },
};

const GUIDES: FieldSpecs = {
  title: { label: 'Title', hint: 'The guide’s heading, and the link text of the e-mail that sends it.' },
  summary: { label: 'Summary', widget: 'text', hint: 'What the reader gets from it, shown under the title.' },
  audience: { label: 'Written for', hint: 'Who it is written for, shown under the summary.' },
  updatedDate: { label: 'Last checked', hint: 'When the guide was last checked against the products it describes.' },
};

const LEGAL: FieldSpecs = {
  title: { label: 'Title' },
  summary: { label: 'Summary', widget: 'text', hint: 'The description in search results.' },
  updatedDate: { label: 'Last updated', hint: 'Change it with every change of the text.' },
};

const BOOKING: FieldSpecs = {
  timeZone: {
    label: 'Time zone',
    hint: 'Yours, as a name such as Europe/London, Europe/Paris or America/New_York: the hours below are read in it. Visitors see the times in their own zone.',
  },
  weeklyHours: {
    label: 'Weekly hours',
    hint: 'One line per stretch of time calls may be booked in: a weekday, when it starts and when it ends. A break is the gap between two lines of the same day (09:00 to 12:30 and 13:30 to 17:00 leave lunch free); a day with no line is closed.',
    options: { summary: '{{fields.day}} {{fields.from}}–{{fields.to}}' },
    fields: {
      day: { label: 'Day' },
      from: { label: 'From', hint: 'On a 24-hour clock, HH:MM, such as 09:00.' },
      to: { label: 'To', hint: 'On a 24-hour clock, HH:MM, such as 17:00: the last call ends by then.' },
    },
  },
  meetingMinutes: { label: 'Length of a call (minutes)', hint: 'In minutes, a multiple of 5.' },
  bufferMinutes: {
    label: 'Free time after each call (minutes)',
    hint: 'Kept free after every call before the next call, or a meeting in your calendar, may start: in minutes, a multiple of 5.',
  },
  minimumNoticeHours: {
    label: 'Minimum notice (hours)',
    hint: 'A call can be booked at the latest this many hours before it starts.',
  },
  bookingWindowDays: { label: 'Days ahead', hint: 'How many days ahead a call can be booked.' },
  slotIntervalMinutes: {
    label: 'Offer a time every (minutes)',
    hint: 'How far apart the offered start times are, in minutes (a multiple of 5): 30 offers 9:00, 9:30, 10:00.',
  },
  dailyCap: { label: 'Most calls in a day', hint: 'Leave it empty for no limit.' },
  daysOff: {
    label: 'Days off',
    hint: 'Holidays and other days without calls.',
    options: { summary: '{{fields.from}} {{fields.to}}' },
    fields: {
      from: { label: 'First day', widget: 'day' },
      to: { label: 'Last day', widget: 'day', hint: 'For several days in a row; leave it empty for one day.' },
    },
  },
};

/** Decap's `collections`, generated from the schemas; throws one error listing every mismatch. */
export function cmsCollections(): Record<string, unknown>[] {
  const problems: string[] = [];
  const fields = (read: () => DecapField[]) => {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof SchemaDriftError)) throw error;
      problems.push(...error.problems);
      return [];
    }
  };
  const described = [
    {
      name: 'blog',
      label: 'Blog posts',
      label_singular: 'Blog post',
      description: 'Articles at /blog. A post dated in the future is published on its date.',
      folder: 'content/blog',
      create: true,
      extension: 'md',
      format: 'frontmatter',
      slug: '{{slug}}',
      identifier_field: 'title',
      summary: '{{title}} · {{publishedDate}}',
      sortable_fields: ['publishedDate', 'title'],
      preview_path: 'blog/{{slug}}',
      ...imageFolders('blog'),
      fields: [
        ...fields(() => cmsFields('blog', blogSchema(SCHEMA_CONTEXT), BLOG)),
        body('Article', 'Start with a paragraph; use “Heading 2” for sections and “Heading 3” under them.'),
      ],
    },
    {
      name: 'newsletter',
      label: 'Newsletter issues',
      label_singular: 'Newsletter issue',
      description:
        'Issues at /newsletter. An issue dated in the future is published on its date; sending it is done from the admin page.',
      folder: 'content/newsletter',
      create: true,
      extension: 'md',
      format: 'frontmatter',
      slug: '{{slug}}',
      identifier_field: 'subject',
      summary: '{{subject}} · {{publishedDate}}',
      sortable_fields: ['publishedDate', 'subject'],
      preview_path: 'newsletter/{{slug}}',
      fields: [
        ...fields(() => cmsFields('newsletter', newsletterSchema, NEWSLETTER)),
        body('Letter', 'Write to the reader; “Heading 2” for sections. Links to the site’s pages are fine.'),
      ],
    },
    {
      name: 'sectors',
      label: 'Sectors',
      label_singular: 'Sector',
      folder: 'content/sectors',
      create: true,
      extension: 'md',
      format: 'frontmatter',
      slug: '{{slug}}',
      identifier_field: 'name',
      summary: '{{name}}',
      sortable_fields: ['order', 'name'],
      preview_path: 'sectors/{{slug}}',
      ...imageFolders('sectors'),
      fields: [
        ...fields(() => cmsFields('sectors', sectorSchema(SCHEMA_CONTEXT), SECTORS)),
        body('Main text', 'What the firm automates for this kind of business; “Heading 2” for sections.'),
      ],
    },
    {
      name: 'miniApps',
      label: 'Mini-apps',
      label_singular: 'Mini-app',
      folder: 'content/mini-apps',
      create: true,
      extension: 'yaml',
      format: 'yaml',
      slug: '{{slug}}',
      identifier_field: 'name',
      summary: '{{name}}',
      sortable_fields: ['order', 'name'],
      preview_path: 'mini-apps/{{slug}}',
      fields: fields(() => cmsFields('miniApps', miniAppSchema, MINI_APPS)),
    },
    {
      name: 'guides',
      label: 'Guides',
      label_singular: 'Guide',
      description: 'Guides sent by e-mail to the people who ask for them, at /guides (unlisted).',
      folder: 'content/guides',
      create: true,
      extension: 'md',
      format: 'frontmatter',
      slug: '{{slug}}',
      identifier_field: 'title',
      summary: '{{title}}',
      preview_path: 'guides/{{slug}}',
      fields: [
        ...fields(() => cmsFields('guides', guideSchema, GUIDES)),
        body('Guide', '“Heading 2” for sections and “Heading 3” under them.'),
      ],
    },
    {
      name: 'legal',
      label: 'Legal pages',
      delete: false,
      files: [
        {
          name: 'privacy-policy',
          label: 'Privacy policy',
          file: 'content/legal/privacy-policy.md',
          preview_path: 'privacy-policy',
          fields: [...fields(() => cmsFields('legal', legalSchema, LEGAL)), body('Text', '“Heading 2” for sections.')],
        },
      ],
    },
    {
      name: 'booking',
      label: 'Booking',
      description: 'When prospects may book the free consultation on the site, and the rules of a booking.',
      delete: false,
      files: [
        {
          name: 'hours',
          label: 'Bookable hours',
          file: 'content/booking/hours.yaml',
          fields: fields(() => cmsFields('booking', BookingHours, BOOKING)),
        },
      ],
    },
  ];
  // Every content collection is edited here: a new one in src/content.config.ts needs its CMS collection too.
  const edited = new Set(described.map((collection) => collection.name));
  for (const name of Object.keys(collections)) {
    if (!edited.has(name)) problems.push(`${name}: a content collection, missing from the CMS`);
  }
  if (problems.length > 0) throw new SchemaDriftError(problems);
  return described;
}
