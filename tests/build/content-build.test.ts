import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { solidPng } from '../support/png';
import { copySite, type SiteCopy } from '../../scripts/harness/site-copy';
import { edit } from '../support/site-edit';

let site: SiteCopy | undefined;
afterEach(() => site?.remove());

describe('a branch deploy of a site with no posts and no issues', () => {
  // Drafts left out of production builds: scheduled-posts.test.ts, in its build of the day before,
  // which also checks that a production build writes no _headers. The two checks here are
  // independent: one build serves both.
  let branch: SiteCopy | undefined;
  beforeAll(() => {
    branch = copySite();
    // Issues feature posts: without posts, none can be published.
    for (const folder of ['content/blog', 'content/newsletter']) {
      for (const file of readdirSync(branch.file(folder))) rmSync(branch.file(folder, file));
    }
    const { status, output } = branch.build({ CONTEXT: 'branch-deploy' });
    expect(status, output).toBe(0);
  });
  afterAll(() => branch?.remove());
  const built = (file: string) => readFileSync(branch?.file('dist', file) ?? '', 'utf8');

  test('the blog shows its empty state, and the newsletter its own', () => {
    expect(built('blog.html')).toContain('No blog posts available yet. Please check back soon!');
    expect(built('newsletter.html')).toContain('No issues published yet. Subscribe below to get the first one.');
    expect(JSON.parse(built('mailings.json'))).toEqual({ mailings: [] });
  });

  test('search engines are told to stay away from every file', () => {
    expect(built('_headers')).toMatch(/^\/\*\n {2}X-Robots-Tag: noindex, nofollow$/m);
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
    async (file, written, folder, example) => {
      site = copySite();
      edit(site, file, (text) => text.replace(/^image: .*$/m, `image: ${written}`));
      // The content sync the build starts with, alone (scripts/harness/site-copy.ts).
      expect(await site.checkContent()).toContain(
        `${file}: image: ${written} is not a file in ${folder}; write the path relative to the markdown file, e.g. ${example}`,
      );
    },
  );

  test('an SVG that carries a script fails the build, naming the file', async () => {
    site = copySite();
    edit(site, 'content/images/sectors/saas.svg', (text) => text.replace('<svg ', '<svg onload="alert(1)" '));
    expect(await site.checkContent()).toContain('content/images/sectors/saas.svg: contains an event handler attribute');
  });
});
