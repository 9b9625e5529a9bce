/**
 * The files `astro build` writes into dist/ for the functions, made without a build, so the store
 * tests that read them run before `astro build` (on a fresh clone with no dist/): the counted pages
 * by the build integration's own function, the mailings as a small fixture of the build's shape.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { countedPaths } from '../../src/integrations/write-counted-pages';
import { MAILINGS_FILE, type Mailings } from '../../src/shared/mailing-types';
import { COUNTED_PAGES_FILE } from '../../src/shared/pages';

const ORIGIN = 'http://localhost:4321';

/** dist/counted-pages.json of a site with these pages (as Astro names them to the integration). */
export const COUNTED_PAGES = countedPaths([
  '',
  'blog/',
  'sectors/',
  'zoho/',
  'contact/',
  'admin/',
  'admin/insights/',
  '404/',
]);

/** dist/mailings.json of a site with one issue and the two posts it features, each newest first. */
export const MAILINGS = {
  mailings: [
    {
      kind: 'issue',
      slug: 'three-automations-before-the-new-year',
      subject: 'Three small automations to set up before the new year',
      summary: 'Year-end is when loose ends cost the most: three automations that tie them up.',
      url: `${ORIGIN}/newsletter/three-automations-before-the-new-year`,
      publishedDate: '2026-11-24',
      html:
        '<p>Hello,</p>\n<p>December is a strange month for a small business. Clients slow down, the ' +
        'invoices of the year pile up and January’s bookings start to arrive all at once. Here are three ' +
        `small automations that help: <a href="${ORIGIN}/blog/automate-invoicing-small-business">invoices ` +
        `that send themselves</a> and <a href="${ORIGIN}/blog/automated-appointment-scheduling">a booking ` +
        'page</a>.</p>',
      text:
        'Hello,\n\nDecember is a strange month for a small business. Here are three small automations that ' +
        `help: [invoices that send themselves](${ORIGIN}/blog/automate-invoicing-small-business).`,
      posts: ['automated-appointment-scheduling', 'automate-invoicing-small-business'],
    },
    {
      kind: 'post',
      slug: 'automated-appointment-scheduling',
      subject: 'Automated Appointment Scheduling: Fewer Phone Calls, Fewer No-Shows',
      summary: 'How to set up booking pages, calendar sync, reminders, buffers and deposits.',
      url: `${ORIGIN}/blog/automated-appointment-scheduling`,
      publishedDate: '2026-07-21',
      imageUrl: `${ORIGIN}/_astro/automated-appointment-scheduling.png`,
      imageAlt: 'Illustration of a calendar grid with booked time slots and a clock.',
    },
    {
      kind: 'post',
      slug: 'automate-invoicing-small-business',
      subject: 'How to Automate Invoicing in a Small Business, From Quote to Paid',
      summary: 'A practical walk-through of automating invoices, from accepted quote to paid.',
      url: `${ORIGIN}/blog/automate-invoicing-small-business`,
      publishedDate: '2026-06-16',
      imageUrl: `${ORIGIN}/_astro/automate-invoicing-small-business.png`,
      imageAlt: 'Illustration of invoices flowing from a signed quote into an inbox.',
    },
  ],
} satisfies Mailings;

/**
 * Writes the build files (by default both above) into a project folder of the file's own, and
 * runs its tests from there: the functions look for dist/ beside the working directory first
 * (functions/_lib/platform/build-files.ts), so a dist/ the checkout may hold is never read.
 */
export function useBuildFiles(
  files: Record<string, unknown> = { [COUNTED_PAGES_FILE]: COUNTED_PAGES, [MAILINGS_FILE]: MAILINGS },
): void {
  let project = '';
  const previous = process.cwd();
  beforeAll(() => {
    project = mkdtempSync(path.join(tmpdir(), 'build-files-'));
    mkdirSync(path.join(project, 'dist'));
    for (const [name, value] of Object.entries(files))
      writeFileSync(path.join(project, 'dist', name), `${JSON.stringify(value)}\n`);
    process.chdir(project);
  });
  afterAll(() => {
    process.chdir(previous);
    rmSync(project, { recursive: true, force: true });
  });
}
