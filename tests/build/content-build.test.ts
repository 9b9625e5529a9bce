import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { solidPng } from '../support/png';
import { copySite, type SiteCopy } from '../../scripts/harness/site-copy';

let site: SiteCopy | undefined;
afterEach(() => site?.remove());

function edit(copy: SiteCopy, file: string, change: (text: string) => string) {
  const full = copy.file(file);
  const before = readFileSync(full, 'utf8');
  const after = change(before);
  expect(after, `the edit of ${file} changed nothing`).not.toBe(before);
  writeFileSync(full, after);
}

describe('content validation at build time', () => {
  test('a missing field fails the build, naming the file and the field', () => {
    site = copySite();
    edit(site, 'content/sectors/creative.md', (text) => text.replace(/^summary: .*$/m, ''));
    const { status, output } = site.build();
    expect(status).not.toBe(0);
    expect(output).toContain('content/sectors/creative.md');
    expect(output).toMatch(/summary/);
  });

  test('a reference to an unknown sector fails the build, naming the file and the field', () => {
    site = copySite();
    edit(site, 'content/mini-apps/glossary-builder.yaml', (text) =>
      text.replace(/^sectors: \[property,/m, 'sectors: [properties,'),
    );
    const { status, output } = site.build();
    expect(status).not.toBe(0);
    expect(output).toContain('content/mini-apps/glossary-builder.yaml');
    expect(output).toContain('sectors[0]');
    expect(output).toContain('"properties"');
  });

  test('a guide without its summary fails the build, naming the file and the field', () => {
    site = copySite();
    edit(site, 'content/guides/zoho-google-workspace.md', (text) => text.replace(/^summary: .*$/m, ''));
    const { status, output } = site.build();
    expect(status).not.toBe(0);
    expect(output).toContain('content/guides/zoho-google-workspace.md');
    expect(output).toMatch(/summary/);
  });

  test.each([
    ['"next week"', 'next week'],
    ['20/11/2026', '20/11/2026'],
  ])(
    'a date that is not a date (publishedDate: %s) fails the build, naming the file and the field and the format',
    (written, shown) => {
      site = copySite();
      edit(site, 'content/blog/what-to-automate-first.md', (text) =>
        text.replace(/^publishedDate: .*$/m, `publishedDate: ${written}`),
      );
      const { status, output } = site.build();
      expect(status).not.toBe(0);
      expect(output).toContain(
        `content/blog/what-to-automate-first.md: publishedDate: ${shown} is not a date; write the date as YYYY-MM-DD`,
      );
    },
  );

  test('an empty date is no date: an empty updatedDate is absent, an empty publishedDate missing', () => {
    // The schema alone reads an empty date as 1 January 1970.
    site = copySite();
    edit(site, 'content/blog/what-to-automate-first.md', (text) =>
      text.replace(/^publishedDate: .*$/m, (line) => `${line}\nupdatedDate:`),
    );
    expect(site.build().status).toBe(0);
    const page = readFileSync(site.file('dist/blog/what-to-automate-first.html'), 'utf8');
    expect(page).toContain('"dateModified":"2026-11-10T00:00:00.000Z"');

    edit(site, 'content/blog/what-to-automate-first.md', (text) =>
      text.replace(/^publishedDate: .*$/m, 'publishedDate:'),
    );
    const { status, output } = site.build();
    expect(status).not.toBe(0);
    expect(output).toContain('content/blog/what-to-automate-first.md');
    expect(output).toMatch(/publishedDate/);
  });

  test('a post with a misspelt field, a missing date, a flag in words and a short title: each named, with what to write', () => {
    // Alone, Astro drops `Draft`, publishing the draft, and calls the missing date an object.
    site = copySite();
    edit(site, 'content/blog/what-to-automate-first.md', (text) =>
      text.replace(/^publishedDate: .*$/m, 'Draft: true\ndraft: yes').replace(/^title: .*$/m, 'title: "Short one"'),
    );
    const { status, output } = site.build();
    expect(status).not.toBe(0);
    expect(output).toContain(
      [
        'content/blog/what-to-automate-first.md: title: is 9 characters; write at least 10',
        'publishedDate: is missing; write the date as YYYY-MM-DD',
        'draft: "yes" is not true or false; write true or false',
        'Draft: is not a field here; did you mean draft? The fields are title, summary, image, imageAlt, publishedDate, updatedDate, draft',
      ].join('; '),
    );
  });

  test.each([
    [
      'content/mini-apps/glossary-builder.yaml',
      /^icon: .*$/m,
      'icon: books',
      'content/mini-apps/glossary-builder.yaml: icon: "books" is not one of invoice, calendar, robot,',
    ],
    [
      'content/sectors/creative.md',
      // A position that is not a whole number, and an automation without its text.
      /^order: 2\n([\s\S]*?)^ {4}text: "When a deal is marked won.*\n/m,
      'order: 1.5\n$1',
      'content/sectors/creative.md: order: 1.5 is not a whole number; write a whole number; automations.0.text: is missing',
    ],
    [
      'content/newsletter/three-automations-before-the-new-year.md',
      /^posts:\n/m,
      'posts:\n  - chatbots-for-client-service\n  - what-to-automate-first\n',
      'content/newsletter/three-automations-before-the-new-year.md: posts: has 4; give at most 3',
    ],
    [
      'content/legal/privacy-policy.md',
      /^updatedDate: .*$/m,
      'updated: 2026-11-01',
      'content/legal/privacy-policy.md: updatedDate: is missing; write the date as YYYY-MM-DD; updated: is not a field here',
    ],
  ])('%s with a wrong field fails the build, naming it', (file, line, written, message) => {
    site = copySite();
    edit(site, file, (text) => text.replace(line, written));
    const { status, output } = site.build();
    expect(status).not.toBe(0);
    expect(output).toContain(message);
  });

  test('a date that is not a day of the calendar fails the build, naming the file and the field', () => {
    // The YAML reader alone would make it 2 March, and the post would move without a word.
    site = copySite();
    edit(site, 'content/blog/what-to-automate-first.md', (text) =>
      text.replace(/^publishedDate: .*$/m, 'publishedDate: 2026-02-30'),
    );
    const { status, output } = site.build();
    expect(status).not.toBe(0);
    expect(output).toContain(
      'content/blog/what-to-automate-first.md: publishedDate: 2026-02-30 is not a day of the calendar',
    );
  });
});

describe('newsletter issues at build time', () => {
  const ISSUE = 'content/newsletter/three-automations-before-the-new-year.md';

  test('an issue without its subject fails the build, naming the file and the field', () => {
    site = copySite();
    edit(site, ISSUE, (text) => text.replace(/^subject: .*$/m, ''));
    const { status, output } = site.build();
    expect(status).not.toBe(0);
    expect(output).toContain(ISSUE);
    expect(output).toMatch(/subject/);
  });

  test('featured posts that do not exist or come later, and a taken file name, fail the build, each named', () => {
    site = copySite();
    edit(site, 'content/blog/chatbots-for-client-service.md', (text) =>
      text.replace(/^publishedDate: .*$/m, (line) => `${line}\ndraft: true`),
    );
    edit(site, 'content/blog/connecting-google-workspace-and-zoho.md', (text) =>
      text.replace(/^publishedDate: .*$/m, 'publishedDate: 2099-01-01'),
    );
    edit(site, ISSUE, (text) =>
      text.replace(
        /^ {2}- automated-appointment-scheduling$/m,
        '  - automated-scheduling\n  - chatbots-for-client-service',
      ),
    );
    // Dated before the posts it features (2026-11-10, and one scheduled), and named like the unsubscribe page.
    const ISSUE_TEXT = readFileSync(site.file(ISSUE), 'utf8');
    writeFileSync(
      site.file('content/newsletter/unsubscribe.md'),
      ISSUE_TEXT.replace(/^publishedDate: .*$/m, 'publishedDate: 2026-11-01').replace(
        /^posts:\n(?: {2}- .+\n)+/m,
        'posts:\n  - automate-invoicing-small-business\n  - what-to-automate-first\n  - connecting-google-workspace-and-zoho\n',
      ),
    );
    const { status, output } = site.build();
    expect(status).not.toBe(0);
    expect(output).toContain(
      `${ISSUE}: field posts[1] refers to the blog post "automated-scheduling", which does not exist`,
    );
    expect(output).toContain(
      `${ISSUE}: field posts[2] refers to the blog post "chatbots-for-client-service", which is a draft: publish it first`,
    );
    expect(output).toContain(
      'content/newsletter/unsubscribe.md: field posts[2] refers to the blog post "connecting-google-workspace-and-zoho", scheduled for 2099-01-01, after the issue (2026-11-01)',
    );
    expect(output).toContain(
      'content/newsletter/unsubscribe.md: field posts[1] refers to the blog post "what-to-automate-first", published on 2026-11-10, after the issue (2026-11-01)',
    );
    expect(output).toContain(
      'content/newsletter/unsubscribe.md: the file name "unsubscribe" is taken by another page under /newsletter',
    );
  });

  test('a letter that shows an image from content/ fails the build, naming the file', () => {
    site = copySite();
    edit(site, ISSUE, (text) => `${text}\n![A checklist](../images/blog/what-to-automate-first.svg)\n`);
    const { status, output } = site.build();
    expect(status).not.toBe(0);
    expect(output).toContain(
      `${ISSUE}: the letter shows an image stored in content/, which the newsletter's e-mail cannot carry`,
    );
  });
});

describe('blog publishing', () => {
  test('drafts, posts and issues alike, are left out of production builds', () => {
    const copy = copySite();
    site = copy;
    const issue = 'three-automations-before-the-new-year';
    edit(site, 'content/blog/what-to-automate-first.md', (text) => text.replace(/^---\n/, '---\ndraft: true\n'));
    edit(site, `content/newsletter/${issue}.md`, (text) => text.replace(/^---\n/, '---\ndraft: true\n'));
    const { status, output } = site.build();
    expect(status, output).toBe(0);
    const read = (file: string) => readFileSync(copy.file('dist', file), 'utf8');
    expect(readdirSync(site.file('dist/blog'))).not.toContain('what-to-automate-first.html');
    expect(read('blog.html')).not.toContain('/blog/what-to-automate-first');
    expect(read('rss.xml')).not.toContain('what-to-automate-first');
    expect(read('sitemap-0.xml')).not.toContain('what-to-automate-first');
    expect(readdirSync(site.file('dist/newsletter'))).not.toContain(`${issue}.html`);
    expect(read('newsletter.html')).not.toContain(`/newsletter/${issue}`);
    expect(read('sitemap-0.xml')).not.toContain(issue);
    expect(read('mailings.json')).not.toMatch(new RegExp(`what-to-automate-first|${issue}`));
  });

  test('with no posts the blog shows its empty state, and with no issues the newsletter its own', () => {
    site = copySite();
    // Issues feature posts: without posts, none can be published.
    for (const folder of ['content/blog', 'content/newsletter']) {
      for (const file of readdirSync(site.file(folder))) rmSync(site.file(folder, file));
    }
    const { status, output } = site.build();
    expect(status, output).toBe(0);
    expect(readFileSync(site.file('dist/blog.html'), 'utf8')).toContain(
      'No blog posts available yet. Please check back soon!',
    );
    expect(readFileSync(site.file('dist/newsletter.html'), 'utf8')).toContain(
      'No issues published yet. Subscribe below to get the first one.',
    );
    expect(JSON.parse(readFileSync(site.file('dist/mailings.json'), 'utf8'))).toEqual({ mailings: [] });
  });
});

describe('illustrations', () => {
  test('a raster cover is resized into WebP copies; an SVG cover is drawn by its page; the first card of the list loads its cover at once, the later cards are lazy images', () => {
    site = copySite();
    writeFileSync(site.file('content/images/blog/what-to-automate-first.png'), solidPng(1200, 630, [11, 26, 51]));
    edit(site, 'content/blog/what-to-automate-first.md', (text) =>
      text.replace('what-to-automate-first.svg', 'what-to-automate-first.png'),
    );
    // Seven posts: the two oldest, last on the list, share one SVG cover.
    const post = readFileSync(site.file('content/blog/automated-appointment-scheduling.md'), 'utf8');
    for (const [slug, date] of [
      ['older-post', '2020-01-02'],
      ['oldest-post', '2020-01-01'],
    ])
      writeFileSync(
        site.file(`content/blog/${slug}.md`),
        post.replace(/^publishedDate: .*$/m, `publishedDate: ${date}`),
      );
    const { status, output } = site.build();
    expect(status, output).toBe(0);
    const raster = readFileSync(site.file('dist/blog/what-to-automate-first.html'), 'utf8');
    expect(raster).toMatch(
      /<img src="\/_astro\/what-to-automate-first\.[^"]+\.webp" srcset="[^"]+ 480w, [^"]+ 800w, [^"]+ 1200w"/,
    );
    const vector = readFileSync(site.file('dist/blog/automated-appointment-scheduling.html'), 'utf8');
    expect(vector).toMatch(/<svg viewBox="0 0 1200 630" width="1200" height="630" role="img" aria-label="[^"]+"/);
    expect(vector).not.toContain('automated-appointment-scheduling.svg');
    const list = readFileSync(site.file('dist/blog.html'), 'utf8');
    const cards = list.split('<article').slice(1);
    expect(cards).toHaveLength(7);
    // The first card, the one a phone shows with the page, loads its raster cover at once.
    expect(cards[0]).toMatch(/^[^]*?<img src="\/_astro\/what-to-automate-first\.[^"]+\.webp"[^>]*loading="eager"/);
    // The others are lazy images, in the HTML as served.
    for (const card of cards.slice(1)) expect(card).toMatch(/<img src="\/_astro\/[^"]+" [^>]*loading="lazy"/);
    expect(cards[6]).toMatch(
      /<img src="\/_astro\/automated-appointment-scheduling\.[\w-]+\.svg" width="1200" height="630" alt(?:="")? loading="lazy"/,
    );
  });

  const POST = 'content/blog/what-to-automate-first.md';
  test.each([
    // A file that is not there, written as README does, without its ../ and from the site's root.
    [POST, '../images/blog/nope.svg', 'content/images/blog', '../images/blog/<name>.svg'],
    [POST, 'images/blog/nope.svg', 'content/blog/images/blog', '../images/blog/<name>.svg'],
    [POST, '/images/blog/nope.svg', 'images/blog', '../images/blog/<name>.svg'],
    ['content/sectors/saas.md', '../images/sectors/nope.png', 'content/images/sectors', '../images/sectors/<name>.png'],
  ])(
    'a cover that is not a file (%s: image: %s) fails the build, naming the file, the field and the folder it looked in',
    (file, written, folder, example) => {
      site = copySite();
      edit(site, file, (text) => text.replace(/^image: .*$/m, `image: ${written}`));
      const { status, output } = site.build();
      expect(status).not.toBe(0);
      expect(output).toContain(
        `${file}: image: ${written} is not a file in ${folder}; write the path relative to the markdown file, e.g. ${example}`,
      );
    },
  );

  test('an SVG that carries a script fails the build, naming the file', () => {
    site = copySite();
    edit(site, 'content/images/sectors/saas.svg', (text) => text.replace('<svg ', '<svg onload="alert(1)" '));
    const { status, output } = site.build();
    expect(status).not.toBe(0);
    expect(output).toContain('content/images/sectors/saas.svg: contains an event handler attribute');
  });
});

describe('deploy contexts', () => {
  test('a branch deploy tells search engines to stay away from every file; a production build does not', () => {
    site = copySite();
    const branch = site.build({ CONTEXT: 'branch-deploy' });
    expect(branch.status, branch.output).toBe(0);
    expect(readFileSync(site.file('dist/_headers'), 'utf8')).toMatch(/^\/\*\n {2}X-Robots-Tag: noindex, nofollow$/m);

    const production = site.build({ CONTEXT: 'production' });
    expect(production.status, production.output).toBe(0);
    expect(existsSync(site.file('dist/_headers'))).toBe(false);
    // Two whole builds: 20 s on a quiet machine, past the default 30 s under a full test run.
  }, 120_000);
});
