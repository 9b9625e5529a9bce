/**
 * What an editor sees when content is wrong: each mistake fails the build, naming the file, the
 * field and what to write. Each test changes a throw-away copy of the site with one mistake. The
 * first builds it whole; where the build stops at the content sync, the others run that sync
 * alone (`checkContent`), and only mistakes found later in the build build the copy.
 * (tests/build/content-build.test.ts builds copies whose content is right.)
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { copySite, type SiteCopy } from '../../scripts/harness/site-copy';
import { edit } from '../support/site-edit';

let site: SiteCopy | undefined;
afterEach(() => site?.remove());

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

  test('a guide without its summary fails the build, naming the file and the field', async () => {
    site = copySite();
    edit(site, 'content/guides/zoho-google-workspace.md', (text) => text.replace(/^summary: .*$/m, ''));
    const error = await site.checkContent();
    expect(error).toContain('content/guides/zoho-google-workspace.md');
    expect(error).toMatch(/summary/);
  });

  test.each([
    ['"next week"', 'next week'],
    ['20/11/2026', '20/11/2026'],
  ])(
    'a date that is not a date (publishedDate: %s) fails the build, naming the file and the field and the format',
    async (written, shown) => {
      site = copySite();
      edit(site, 'content/blog/what-to-automate-first.md', (text) =>
        text.replace(/^publishedDate: .*$/m, `publishedDate: ${written}`),
      );
      expect(await site.checkContent()).toContain(
        `content/blog/what-to-automate-first.md: publishedDate: ${shown} is not a date; write the date as YYYY-MM-DD`,
      );
    },
  );

  test('an empty publishedDate is no date: the build fails, naming the file and the field', async () => {
    // The schema alone reads an empty date as 1 January 1970.
    site = copySite();
    edit(site, 'content/blog/what-to-automate-first.md', (text) =>
      text.replace(/^publishedDate: .*$/m, 'publishedDate:'),
    );
    const error = await site.checkContent();
    expect(error).toContain('content/blog/what-to-automate-first.md');
    expect(error).toMatch(/publishedDate/);
  });

  test('a post with a misspelt field, a missing date, a flag in words and a short title: each named, with what to write', async () => {
    // Alone, Astro drops `Draft`, publishing the draft, and calls the missing date an object.
    site = copySite();
    edit(site, 'content/blog/what-to-automate-first.md', (text) =>
      text.replace(/^publishedDate: .*$/m, 'Draft: true\ndraft: yes').replace(/^title: .*$/m, 'title: "Short one"'),
    );
    expect(await site.checkContent()).toContain(
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
    [
      'content/booking/hours.yaml',
      /^meetingMinutes: 30$/m,
      'meetingMinutes: 32\nbufferMinute: 15',
      'content/booking/hours.yaml: meetingMinutes: write a multiple of 5 minutes; bufferMinute: is not a field here; did you mean bufferMinutes?',
    ],
    [
      'content/booking/hours.yaml',
      /^ {2}- \{ day: monday, from: "09:00", to: "12:30" \}$/m,
      '  - { day: monday, from: "9:00", to: "12:30" }',
      'content/booking/hours.yaml: weeklyHours.0.from: write the time as HH:MM on a 24-hour clock, such as 09:30 or 17:00',
    ],
    [
      'content/booking/hours.yaml',
      /^ {2}- \{ from: "2027-01-01" \}$/m,
      // Unquoted, as the CMS writes a day: the YAML reader alone would make it 2 March.
      '  - { from: 2027-02-30 }',
      'content/booking/hours.yaml: daysOff: 2027-02-30 is not a day of the calendar; write the day as YYYY-MM-DD',
    ],
  ])('%s with a wrong field fails the build, naming it', async (file, line, written, message) => {
    site = copySite();
    edit(site, file, (text) => text.replace(line, written));
    expect(await site.checkContent()).toContain(message);
  });

  test('without the owner’s hours the build fails, naming the file', async () => {
    site = copySite();
    rmSync(site.file('content/booking/hours.yaml'));
    expect(await site.checkContent()).toContain('content/booking/hours.yaml is missing');
  });

  test('a date that is not a day of the calendar fails the build, naming the file and the field', async () => {
    // The YAML reader alone would make it 2 March, and the post would move without a word.
    site = copySite();
    edit(site, 'content/blog/what-to-automate-first.md', (text) =>
      text.replace(/^publishedDate: .*$/m, 'publishedDate: 2026-02-30'),
    );
    expect(await site.checkContent()).toContain(
      'content/blog/what-to-automate-first.md: publishedDate: 2026-02-30 is not a day of the calendar',
    );
  });
});

describe('content written as the CMS writes it', () => {
  // One build of one copy for both: an empty optional date, and days off without quotes.
  let written: SiteCopy;
  beforeAll(() => {
    written = copySite();
    edit(written, 'content/blog/what-to-automate-first.md', (text) =>
      text.replace(/^publishedDate: .*$/m, (line) => `${line}\nupdatedDate:`),
    );
    edit(written, 'content/booking/hours.yaml', (text) => text.replaceAll(/"(\d{4}-\d{2}-\d{2})"/g, '$1'));
    const { status, output } = written.build();
    expect(status, output).toBe(0);
  });
  afterAll(() => written?.remove());

  test('an empty updatedDate is no date: the post has none, where the schema alone would say 1 January 1970', () => {
    const page = readFileSync(written.file('dist/blog/what-to-automate-first.html'), 'utf8');
    expect(page).toContain('"dateModified":"2026-11-10T00:00:00.000Z"');
  });

  test('days off written without quotes are read as the days written', () => {
    const hours = JSON.parse(readFileSync(written.file('dist/booking-hours.json'), 'utf8')) as { daysOff: unknown };
    expect(hours.daysOff).toEqual([{ from: '2026-12-24', to: '2026-12-26' }, { from: '2027-01-01' }]);
  });
});

describe('newsletter issues at build time', () => {
  const ISSUE = 'content/newsletter/three-automations-before-the-new-year.md';

  test('an issue without its subject fails the build, naming the file and the field', async () => {
    site = copySite();
    edit(site, ISSUE, (text) => text.replace(/^subject: .*$/m, ''));
    const error = await site.checkContent();
    expect(error).toContain(ISSUE);
    expect(error).toMatch(/subject/);
  });

  test('featured posts that do not exist or come later, a taken file name and a letter showing an image from content/ fail the build, each named', () => {
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
    edit(site, ISSUE, (text) => `${text}\n![A checklist](../images/blog/what-to-automate-first.svg)\n`);
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
    expect(output).toContain(
      `${ISSUE}: the letter shows an image stored in content/, which the newsletter's e-mail cannot carry`,
    );
  });
});
