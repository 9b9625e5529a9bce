/**
 * Queries over the content collections. Pages, feeds and the /api read content
 * through these functions only, so they always agree.
 */
import { getCollection, getEntry, type CollectionEntry } from 'astro:content';
import { NEWSLETTER_PATHS } from '../shared/pages';
import { buildDay } from './build-day';
import { isoDate } from './format';

export type Sector = CollectionEntry<'sectors'>;
export type MiniApp = CollectionEntry<'miniApps'>;
export type Post = CollectionEntry<'blog'>;
export type Issue = CollectionEntry<'newsletter'>;

const byOrder = (a: { data: { order: number } }, b: { data: { order: number } }) => a.data.order - b.data.order;

/** All sectors in display order. */
export async function getSectors(): Promise<Sector[]> {
  return (await getCollection('sectors')).sort(byOrder);
}

/**
 * All mini-apps in display order. Astro only logs a reference to a missing sector,
 * so this check turns it into a build error that names the file and the field.
 */
export async function getMiniApps(): Promise<MiniApp[]> {
  const [apps, sectors] = await Promise.all([getCollection('miniApps'), getCollection('sectors')]);
  const sectorIds = new Set(sectors.map((sector) => sector.id));
  for (const app of apps) {
    app.data.sectors.forEach((ref, index) => {
      if (!sectorIds.has(ref.id)) {
        throw new Error(
          `${app.filePath ?? `mini-app "${app.id}"`}: field sectors[${index}] refers to the sector "${ref.id}", which does not exist. ` +
            `Use the file name (without extension) of an entry in content/sectors: ${[...sectorIds].join(', ')}.`,
        );
      }
    });
  }
  return apps.sort(byOrder);
}

/** Mini-apps that serve the given sector, in display order. */
export async function getMiniAppsForSector(sectorId: string): Promise<MiniApp[]> {
  return (await getMiniApps()).filter((app) => app.data.sectors.some((ref) => ref.id === sectorId));
}

/** The sectors a mini-app serves, in display order. */
export async function getSectorsOfMiniApp(app: MiniApp): Promise<Sector[]> {
  const ids = new Set(app.data.sectors.map((ref) => ref.id));
  return (await getSectors()).filter((sector) => ids.has(sector.id));
}

/** Whether drafts are shown: in `astro dev` only. */
const SHOW_DRAFTS = import.meta.env.DEV;

/**
 * Whether posts and issues dated after the build day are shown: in `astro dev`, and on a deploy
 * preview, so that the CMS's "View preview" of a scheduled one opens its page (previews are noindex).
 */
const SHOW_SCHEDULED = import.meta.env.DEV || process.env.CONTEXT === 'deploy-preview';

/** Whether a post or an issue is in this build: not a draft, and not dated after the build day (outside dev and previews). */
function isPublished(data: { draft: boolean; publishedDate: Date }, today: string): boolean {
  return (SHOW_DRAFTS || !data.draft) && (SHOW_SCHEDULED || isoDate(data.publishedDate) <= today);
}

/** The collections whose scheduled entries this build has named in its log. */
const announced = new Set<'blog' | 'newsletter'>();

/**
 * Names, once per build, each post or issue it leaves out because it is scheduled, so an editor
 * who looks for one learns why it is not there and when it will be.
 */
async function announceScheduled(collection: 'blog' | 'newsletter', today: string): Promise<void> {
  if (announced.has(collection) || SHOW_SCHEDULED) return;
  announced.add(collection);
  const scheduled = await getCollection(collection, ({ data }) => !data.draft && isoDate(data.publishedDate) > today);
  for (const entry of scheduled) {
    console.info(
      `[content] ${entry.filePath ?? entry.id}: scheduled for ${isoDate(entry.data.publishedDate)}, so not in this build (${today}); ` +
        'it appears with the first build on that day',
    );
  }
}

const newestFirst = (a: Post | Issue, b: Post | Issue) =>
  b.data.publishedDate.getTime() - a.data.publishedDate.getTime() || a.id.localeCompare(b.id);

/** Published posts, newest first: drafts and posts dated after the build day are left out of production builds. */
export async function getPublishedPosts(): Promise<Post[]> {
  const today = buildDay();
  await announceScheduled('blog', today);
  return (await getCollection('blog', ({ data }) => isPublished(data, today))).sort(newestFirst);
}

/** File names an issue cannot have: its page would take the place of another page under /newsletter. */
const RESERVED_ISSUE_NAMES = new Set(['404', ...Object.values(NEWSLETTER_PATHS).map((path) => path.split('/').pop())]);

/**
 * What is wrong with a published issue: a taken file name, a local image its e-mail cannot carry,
 * a featured post that cannot be featured. `written` holds every post in content/blog, drafts and
 * scheduled ones too, to say why one is not published.
 */
function issueProblems(issue: Issue, postsById: Map<string, Post>, written: Map<string, Post>): string[] {
  const file = issue.filePath ?? `newsletter issue "${issue.id}"`;
  const problems: string[] = [];
  if (RESERVED_ISSUE_NAMES.has(issue.id)) {
    problems.push(`${file}: the file name "${issue.id}" is taken by another page under /newsletter; rename the file.`);
  }
  // A local image in the markdown is resolved when a page renders it, never in the letter's HTML.
  if (issue.rendered?.html.includes('__ASTRO_IMAGE_')) {
    problems.push(
      `${file}: the letter shows an image stored in content/, which the newsletter's e-mail cannot carry; ` +
        'leave it out of the letter (an image at a full https:// address is fine).',
    );
  }
  issue.data.posts?.forEach((ref, index) => {
    // A post this build leaves out is a draft or scheduled; a scheduled one is dated after the
    // issue, which this build publishes, so the date check below says so.
    const published = postsById.get(ref.id);
    const post = published ?? written.get(ref.id);
    if (!post) {
      problems.push(
        `${file}: field posts[${index}] refers to the blog post "${ref.id}", which does not exist. ` +
          `Use the file name (without extension) of a published post in content/blog: ${[...postsById.keys()].join(', ')}.`,
      );
    } else if (!published && post.data.draft) {
      problems.push(
        `${file}: field posts[${index}] refers to the blog post "${ref.id}", which is a draft: publish it first (remove draft: true), or feature another post.`,
      );
    } else if (post.data.publishedDate > issue.data.publishedDate) {
      problems.push(
        `${file}: field posts[${index}] refers to the blog post "${ref.id}", ${published ? 'published on' : 'scheduled for'} ${isoDate(post.data.publishedDate)}, ` +
          `after the issue (${isoDate(issue.data.publishedDate)}): an issue can only feature posts already out on its date.`,
      );
    }
  });
  return problems;
}

/**
 * Published issues, newest first, under the same rules as posts (drafts, scheduled dates). Each
 * featured post must be a post this build publishes, dated on or before the issue: Astro only
 * logs a reference to a missing entry, and a card must never link to a page that is not there.
 * Every such mistake, and a letter showing an image its e-mail cannot carry, stops the build: all
 * of them in one error naming each file and field.
 */
export async function getPublishedIssues(): Promise<Issue[]> {
  const today = buildDay();
  await announceScheduled('newsletter', today);
  const [issues, posts] = await Promise.all([
    getCollection('newsletter', ({ data }) => isPublished(data, today)),
    getPublishedPosts(),
  ]);
  const postsById = new Map(posts.map((post) => [post.id, post]));
  const written = new Map((await getCollection('blog')).map((post) => [post.id, post]));
  const problems = issues.flatMap((issue) => issueProblems(issue, postsById, written));
  if (problems.length > 0)
    throw new Error(`Newsletter issues that cannot be published:\n  - ${problems.join('\n  - ')}`);
  return issues.sort(newestFirst);
}

/** The published posts an issue features, in the order it lists them (getPublishedIssues has checked them). */
export async function getFeaturedPosts(issue: Issue): Promise<Post[]> {
  const posts = new Map((await getPublishedPosts()).map((post) => [post.id, post]));
  return (issue.data.posts ?? []).flatMap((ref) => posts.get(ref.id) ?? []);
}

export type Guide = CollectionEntry<'guides'>;

/** Every guide, by file name. */
export async function getGuides(): Promise<Guide[]> {
  return (await getCollection('guides')).sort((a, b) => a.id.localeCompare(b.id));
}

/** The privacy policy entry; its absence is a build error. */
export async function getPrivacyPolicy(): Promise<CollectionEntry<'legal'>> {
  const entry = await getEntry('legal', 'privacy-policy');
  if (!entry) throw new Error('content/legal/privacy-policy.md is missing: the privacy policy page needs it.');
  return entry;
}
