/**
 * The site's additions to Decap CMS: a rule for saving, and the preview pane drawn like the site.
 *
 * The preview pane is drawn like the site: the site's own stylesheet (built from
 * src/styles/global.css at /admin/cms/preview.css) and the markup of its pages, with the classes
 * those pages use. Decap runs these with its own React: `h` is React.createElement.
 * The real page is one click away: "View preview" opens the draft's deploy preview.
 */
/* global CMS, h */

/**
 * An optional field emptied in the editor (an "Updated on" date set, then cleared) would be
 * saved as an empty string, which the content schema refuses (it is not a date): it is left out
 * of the file instead, which is what the schema's optional means.
 */
CMS.registerEventListener({
  name: 'preSave',
  handler: ({ entry }) => entry.get('data').filter((value) => value !== ''),
});

CMS.registerPreviewStyle('/admin/cms/preview.css');

const dateFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** A front-matter date as the pages show it; nothing while the field is empty or half typed. */
function formatDate(value) {
  const date = value instanceof Date ? value : new Date(String(value ?? ''));
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date);
}

/** The URL the preview can show an image field at (an upload not yet saved is a blob: URL). */
function assetUrl(props, path) {
  return path ? String(props.getAsset(path) ?? '') : '';
}

/** A list field's items as plain values (Decap hands over an Immutable list). */
function items(entry, name) {
  const list = entry.getIn(['data', name]);
  return list && typeof list.toJS === 'function' ? list.toJS() : [];
}

function Illustration({ src, alt, className }) {
  return src ? h('img', { src, alt: alt ?? '', className, width: 1200, height: 630 }) : null;
}

function Hero({ eyebrow, title, lead, aside }) {
  return h(
    'section',
    { className: 'relative overflow-hidden bg-ink-900 text-white' },
    h(
      'div',
      { className: 'relative mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 lg:grid-cols-2 lg:px-8' },
      h(
        'div',
        null,
        eyebrow && h('p', { className: 'text-sm font-semibold tracking-wide text-brand-300 uppercase' }, eyebrow),
        h('h1', { className: 'mt-3 text-4xl font-extrabold tracking-tight text-white sm:text-5xl' }, title),
        lead && h('p', { className: 'mt-5 max-w-xl text-lg leading-relaxed text-ink-200' }, lead),
      ),
      aside,
    ),
  );
}

function BlogPostPreview(props) {
  const { entry, widgetFor } = props;
  const data = (name) => entry.getIn(['data', name]);
  return h(
    'article',
    null,
    h(
      'header',
      { className: 'bg-ink-50' },
      h(
        'div',
        { className: 'mx-auto max-w-4xl px-4 pt-12 pb-10 sm:px-6 lg:px-8' },
        h('h1', { className: 'mt-6 text-4xl font-extrabold tracking-tight sm:text-5xl' }, data('title')),
        h('p', { className: 'mt-5 text-xl leading-relaxed text-ink-600' }, data('summary')),
        h('p', { className: 'mt-6 flex flex-wrap items-center gap-3 text-sm text-ink-600' }, `Published ${formatDate(data('publishedDate'))}`),
      ),
    ),
    h(
      'div',
      { className: 'mx-auto max-w-5xl px-4 sm:px-6 lg:px-8' },
      h(Illustration, {
        src: assetUrl(props, data('image')),
        alt: data('imageAlt'),
        className: '-mt-2 aspect-[1200/630] h-auto w-full rounded-(--radius-card) shadow-(--shadow-card)',
      }),
    ),
    h(
      'div',
      { className: 'mx-auto max-w-4xl px-4 py-12 sm:px-6 lg:px-8' },
      h('div', { className: 'prose mx-auto' }, widgetFor('body')),
    ),
  );
}

function SectorPreview(props) {
  const { entry, widgetFor } = props;
  const data = (name) => entry.getIn(['data', name]);
  return h(
    'div',
    null,
    h(Hero, {
      eyebrow: 'Sector',
      title: data('name'),
      lead: data('summary'),
      aside: h(Illustration, {
        src: assetUrl(props, data('image')),
        alt: data('imageAlt'),
        className: 'aspect-[1200/630] h-auto w-full rounded-(--radius-card) shadow-2xl ring-1 ring-white/10',
      }),
    }),
    h(
      'section',
      { className: 'mx-auto grid max-w-7xl gap-12 px-4 py-16 sm:px-6 lg:grid-cols-5 lg:px-8' },
      h(
        'div',
        { className: 'lg:col-span-3' },
        h('h2', { className: 'text-3xl font-extrabold tracking-tight' }, `What we automate in ${data('name') ?? ''}`),
        h('div', { className: 'prose mt-6' }, widgetFor('body')),
      ),
      h(
        'aside',
        { className: 'lg:col-span-2' },
        h(
          'div',
          { className: 'rounded-(--radius-card) bg-ink-50 p-7 ring-1 ring-ink-100' },
          h('h2', { className: 'text-lg font-bold' }, 'Typical automations'),
          h(
            'ul',
            { className: 'mt-5 space-y-5' },
            items(entry, 'automations').map((item, index) =>
              h(
                'li',
                { key: index, className: 'flex gap-3' },
                h('div', null, h('h3', { className: 'font-semibold' }, item.title), h('p', { className: 'mt-1 text-sm text-ink-600' }, item.text)),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

function MiniAppPreview({ entry }) {
  const data = (name) => entry.getIn(['data', name]);
  const paragraphs = String(data('description') ?? '')
    .split(/\n\s*\n/)
    .map((part) => part.trim())
    .filter(Boolean);
  const bullets = (name) =>
    items(entry, name).map((text, index) =>
      h('li', { key: index, className: 'flex gap-3 text-ink-700' }, h('span', { 'aria-hidden': 'true', className: 'mt-2 size-2 shrink-0 rounded-full bg-brand-500' }), h('span', null, text)),
    );
  return h(
    'div',
    null,
    h(Hero, { eyebrow: 'Mini-app', title: data('name'), lead: data('summary') }),
    h(
      'div',
      { className: 'mx-auto grid max-w-7xl gap-12 px-4 py-16 sm:px-6 lg:grid-cols-5 lg:px-8' },
      h(
        'section',
        { className: 'lg:col-span-3' },
        h('h2', { className: 'text-3xl font-extrabold tracking-tight' }, 'Overview'),
        h('div', { className: 'prose mt-6' }, paragraphs.map((text, index) => h('p', { key: index }, text))),
        h('h2', { className: 'mt-12 text-2xl font-extrabold tracking-tight' }, 'Key benefits'),
        h('ul', { className: 'mt-6 grid gap-4 sm:grid-cols-2' }, bullets('key_benefits')),
      ),
      h(
        'aside',
        { className: 'space-y-8 lg:col-span-2' },
        h(
          'div',
          { className: 'rounded-(--radius-card) bg-white p-7 shadow-(--shadow-card) ring-1 ring-ink-100' },
          h('h2', { className: 'text-lg font-bold' }, 'Best for'),
          h('ul', { className: 'mt-4 space-y-3' }, bullets('best_for')),
        ),
      ),
    ),
  );
}

/**
 * A newsletter issue: the subject, summary and date over the letter, as its page draws them, then
 * the featured posts by title (by file name until the relation has loaded their titles).
 */
function NewsletterIssuePreview({ entry, widgetFor, fieldsMetaData }) {
  const data = (name) => entry.getIn(['data', name]);
  const titleOf = (slug) => (fieldsMetaData && fieldsMetaData.getIn(['posts', 'blog', slug, 'title'])) || slug;
  const posts = items(entry, 'posts');
  return h(
    'article',
    null,
    h(
      'header',
      { className: 'bg-ink-50' },
      h(
        'div',
        { className: 'mx-auto max-w-4xl px-4 pt-12 pb-10 sm:px-6 lg:px-8' },
        h('p', { className: 'text-sm font-semibold tracking-wide text-brand-700 uppercase' }, 'Newsletter'),
        h('h1', { className: 'mt-3 text-4xl font-extrabold tracking-tight sm:text-5xl' }, data('subject')),
        h('p', { className: 'mt-5 text-xl leading-relaxed text-ink-600' }, data('summary')),
        h('p', { className: 'mt-6 text-sm text-ink-600' }, `Sent ${formatDate(data('publishedDate'))}`),
      ),
    ),
    h(
      'div',
      { className: 'mx-auto max-w-4xl px-4 py-12 sm:px-6 lg:px-8' },
      h('div', { className: 'prose mx-auto' }, widgetFor('body')),
      posts.length > 0 &&
        h(
          'section',
          { className: 'mx-auto mt-12 max-w-[68ch] border-t border-ink-100 pt-8' },
          h('h2', { className: 'text-2xl font-extrabold tracking-tight sm:text-3xl' }, 'Featured in this issue'),
          h(
            'ul',
            { className: 'mt-6 space-y-3' },
            posts.map((slug) => h('li', { key: slug, className: 'font-semibold text-brand-700' }, titleOf(slug))),
          ),
        ),
    ),
  );
}

/** The privacy policy and the guides: a heading, a line under it, and the text. */
function ProsePagePreview({ entry, widgetFor }) {
  const data = (name) => entry.getIn(['data', name]);
  const updated = formatDate(data('updatedDate'));
  return h(
    'div',
    null,
    h(Hero, { eyebrow: data('audience') ? 'Guide' : 'Legal', title: data('title'), lead: data('summary') }),
    h(
      'div',
      { className: 'mx-auto max-w-4xl px-4 py-16 sm:px-6 lg:px-8' },
      updated && h('p', { className: 'text-sm text-ink-600' }, `Last updated ${updated}`),
      h('div', { className: 'prose mt-6' }, widgetFor('body')),
    ),
  );
}

CMS.registerPreviewTemplate('blog', BlogPostPreview);
CMS.registerPreviewTemplate('newsletter', NewsletterIssuePreview);
CMS.registerPreviewTemplate('guides', ProsePagePreview);
// A file collection's template is named after its file.
CMS.registerPreviewTemplate('privacy-policy', ProsePagePreview);
CMS.registerPreviewTemplate('sectors', SectorPreview);
CMS.registerPreviewTemplate('miniApps', MiniAppPreview);
