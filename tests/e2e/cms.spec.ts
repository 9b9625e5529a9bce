/**
 * The CMS, end to end: an editor works in Decap CMS at /admin/cms/ on a throw-away copy of the
 * site served as `npm run cms` serves it (astro dev and decap-server, here in its git mode so the
 * editorial workflow runs: Save makes a draft branch, Publish merges it); the pages of what was
 * published are read back from astro dev and from a production build of the copy. The CMS page
 * must raise no Content-Security-Policy violation throughout.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { startCmsCopy, type CmsCopy } from '../../scripts/harness/cms-copy';
import { writeFileWhole } from '../../scripts/harness/whole-file';
import { solidPng } from '../support/png';

// The editor's journey starts a copy and its servers, edits through the UI, then builds the copy.
test.describe.configure({ timeout: 300_000 });

let cms: CmsCopy | undefined;
test.afterEach(async () => {
  await cms?.stop();
  cms?.remove();
  cms = undefined;
});

/** Opens the CMS logged in to the local backend, collecting every CSP violation the page reports. */
async function openCms(page: Page, copy: CmsCopy): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  // Publishing asks for confirmation; a dismissed dialog would skip it silently.
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(copy.cmsUrl);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('link', { name: 'Workflow' })).toBeVisible();
  return violations;
}

/** Saves the open entry as a draft, marks it ready and publishes it, as an editor does. */
async function saveAndPublish(page: Page) {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  // Saved: the entry is now a draft of the workflow, with a status to set.
  await expect(page.getByRole('button', { name: 'Status: Draft' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Status: Draft' }).click();
  await page.getByRole('menuitem', { name: 'Ready' }).click();
  await expect(page.getByRole('button', { name: 'Status: Ready' })).toBeVisible();
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Publish now' }).click();
  await expect(page.getByRole('button', { name: 'Published', exact: true })).toBeVisible({ timeout: 30_000 });
}

test('the site beside the CMS shows a draft as it is saved, an editor publishes a new post and a renamed sector, and the site renders what was published', async ({
  page,
  request,
}) => {
  // One copy for the three: starting it is most of the time.
  const stale = '<!doctype html><title>Blog · stale build output</title>';
  cms = await startCmsCopy((site) => {
    // What `npm start` or `npm run build` left behind.
    mkdirSync(site.file('dist/blog'), { recursive: true });
    writeFileSync(site.file('dist/blog.html'), stale);
    writeFileSync(site.file('dist/blog/404.html'), '<!doctype html><title>Blog Post Not Found</title>');
  });
  const copy = cms;
  const violations = await openCms(page, copy);
  const post = {
    title: 'Ten minutes a day to a tidier inbox',
    slug: 'ten-minutes-a-day-to-a-tidier-inbox',
    alt: 'A teal card standing for a tidy inbox',
  };
  const sectorName = 'Software and B2B Services';

  await test.step('the site beside the CMS shows a draft as it is saved, not the last build', async () => {
    const origin = new URL(copy.cmsUrl).origin;
    const title = 'A draft saved after the last build';
    // Written whole: astro dev watches content/, and would otherwise read the file half-written.
    writeFileWhole(
      copy.file('content/blog/saved-after-the-build.md'),
      [
        '---',
        `title: "${title}"`,
        'summary: "A post written while the site runs, to see it before it is published: the preview of a draft."',
        'image: ../images/blog/what-to-automate-first.svg',
        'imageAlt: "A checklist"',
        'publishedDate: 2026-01-15',
        'draft: true',
        '---',
        '',
        'Seen as it is saved.',
        '',
      ].join('\n'),
    );
    // astro dev reads the new file when its watcher reports it, which on a busy machine takes seconds.
    await expect
      .poll(async () => (await (await request.get(`${origin}/blog`)).text()).includes(title), { timeout: 30_000 })
      .toBe(true);
    const draft = await request.get(`${origin}/blog/saved-after-the-build`);
    expect(draft.status()).toBe(200);
    expect(await draft.text()).toContain(title);
    expect(await (await request.get(`${origin}/blog`)).text()).not.toContain('stale build output');
    // Nothing it starts fails, offline included (the site has no edge functions, whose runtime is a
    // download). Read before the editor publishes: in its git mode, decap-server checks branches out
    // in the working tree, and astro dev rightly reports the files that vanish meanwhile.
    expect(copy.log()).not.toContain('[ERROR]');
  });

  await test.step('an editor creates a blog post with a cover, saves it as a draft and publishes it', async () => {
    await page.getByRole('link', { name: 'Blog posts' }).click();
    await page.getByRole('link', { name: 'Create entry of type Blog post' }).click();
    await page.getByLabel('Title', { exact: true }).fill(post.title);
    await page
      .getByLabel('Summary', { exact: true })
      .fill('A short routine that sorts the morning mail into three piles, so nothing waits more than a day.');
    await page.getByRole('button', { name: 'Choose an image' }).click();
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'inbox-cover.png', mimeType: 'image/png', buffer: solidPng(1200, 630, [20, 120, 110]) });
    await page.getByRole('button', { name: 'Choose selected' }).click();
    await page.getByLabel('Cover description (alt text)').fill(post.alt);
    await page.getByLabel('Publication date').fill('2026-01-15');
    // An optional date set and then cleared is left out of the file, not saved empty.
    await page.getByRole('button', { name: 'Set updatedDate to now' }).click();
    await page.getByRole('button', { name: 'Clear' }).nth(1).click();

    await page.locator('[data-slate-editor="true"]').click();
    await page.keyboard.type('Every morning the inbox decides the day. Here is how to take that back.');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Headings' }).click();
    await page.getByRole('menuitem', { name: 'Heading 2' }).click();
    await page.keyboard.type('Three piles');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Bulleted List' }).click();
    for (const [index, item] of ['Answer now', 'Delegate', 'Archive'].entries()) {
      if (index > 0) await page.keyboard.press('Enter');
      await page.keyboard.type(item);
    }

    // The preview pane draws the post with the site's own stylesheet, from what the editor holds:
    // once the list shows there, the whole body is in the entry that Save will store.
    const preview = page.frameLocator('iframe').first();
    await expect(preview.locator('link[href="/admin/cms/preview.css"]')).toHaveCount(1);
    await expect(preview.getByRole('heading', { level: 1, name: post.title })).toHaveCSS('font-weight', '800');
    await expect(preview.getByRole('listitem')).toHaveText(['Answer now', 'Delegate', 'Archive']);

    await saveAndPublish(page);

    // Publish merged the draft's branch: the post and its cover are on the main branch's files.
    const postFile = copy.file('content/blog', `${post.slug}.md`);
    await expect.poll(() => existsSync(postFile)).toBe(true);
    expect(copy.git('rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
    const markdown = readFileSync(postFile, 'utf8');
    expect(markdown).toContain(`title: ${post.title}`);
    expect(markdown).toContain(`image: ../images/blog/${post.slug}/inbox-cover.png`);
    expect(markdown).toContain(`imageAlt: ${post.alt}`);
    expect(markdown).toContain('publishedDate: 2026-01-15');
    expect(markdown).not.toContain('updatedDate');
    expect(markdown).toMatch(/^## Three piles$/m);
    expect(markdown).toMatch(/^[*-] Answer now$/m);
    expect(existsSync(copy.file('content/images/blog', post.slug, 'inbox-cover.png'))).toBe(true);
  });

  await test.step('an editor renames a sector and publishes it', async () => {
    // Back from the post's editor to its collection, whose side bar lists the others.
    await page.getByRole('link', { name: /^← Writing in Blog posts collection/ }).click();
    await page.getByRole('link', { name: 'Sectors' }).click();
    await page.getByRole('link', { name: 'SaaS/B2B' }).click();
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('SaaS/B2B');
    await page.getByLabel('Name', { exact: true }).fill(sectorName);
    await saveAndPublish(page);
    await expect
      .poll(() => readFileSync(copy.file('content/sectors/saas.md'), 'utf8'))
      .toContain(`name: ${sectorName}`);
  });

  await test.step('the site beside the CMS renders the published post, and the build renders it and the renamed sector', async () => {
    const origin = new URL(copy.cmsUrl).origin;
    const read = async (route: string) => (await request.get(`${origin}${route}`)).text();
    // astro dev takes the published files when its watcher reports them, seconds later on a busy
    // machine: the post's page is read until it has what was published, then checked whole.
    const title = new RegExp(`<h1[^>]*>${post.title}</h1>`);
    await expect.poll(() => read(`/blog/${post.slug}`), { timeout: 30_000 }).toMatch(title);
    const html = await read(`/blog/${post.slug}`);
    // The cover, in the folder Decap made for the post, is found and converted as a build does.
    expect(html).toMatch(/<img src="\/_image\?href=[^"]*inbox-cover\.png[^"]*f=webp/);
    expect(html).toContain(`alt="${post.alt}"`);
    expect(html).toMatch(/<h2[^>]*>Three piles<\/h2>/);
    expect(html).toMatch(/<li>Answer now<\/li>/);
    // The post is in the /api with its fields: its date read as the date written.
    const api = JSON.parse(await read('/api-data.json')) as {
      posts: { slug: string; title: string; publishedDate: string }[];
    };
    expect(api.posts).toContainEqual(
      expect.objectContaining({ slug: post.slug, title: post.title, publishedDate: '2026-01-15' }),
    );
    expect(violations).toEqual([]);
    // The files as Decap wrote them, built for production (drafts left out: scheduled-posts.test.ts).
    // The renamed sector is read from the build: in its git mode decap-server switches the working
    // tree between branches at each save and publish, and twice in clean-clone runs astro dev still
    // served the old name 30 s after the merge. In `npm run cms` Decap writes the files in place.
    await copy.stop();
    const { status, output } = copy.build();
    expect(status, output).toBe(0);
    const sector = readFileSync(copy.file('dist/sectors/saas.html'), 'utf8');
    expect(sector).toMatch(new RegExp(`<h1[^>]*>${sectorName}</h1>`));
    expect(sector).not.toContain('SaaS/B2B');
  });
});

test('the production build serves the CMS at /admin/cms/, unindexed and uncached, logging in through GitHub', async ({
  page,
  request,
}) => {
  // The main e2e server: the production build as Netlify serves it.
  const redirect = await request.get('/admin/cms', { maxRedirects: 0 });
  expect(redirect.status()).toBe(301);
  expect(redirect.headers()['location']).toMatch(/\/admin\/cms\/$/);
  const headers = (await request.get('/admin/cms/')).headers();
  expect(headers['x-robots-tag']).toContain('noindex');
  expect(headers['cache-control']).toBe('no-store');
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");

  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto('/admin/cms/');
  await expect(page.getByRole('button', { name: 'Login with GitHub' })).toBeVisible();
  expect(violations).toEqual([]);
});
