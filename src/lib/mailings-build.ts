/**
 * dist/mailings.json: what the newsletter's sender needs of each published issue and post, built
 * from the same queries as the pages, so an e-mail never announces a page the site does not have.
 */
import { getImage } from 'astro:assets';
import type { IssueMailing, Mailings, PostMailing } from '../shared/mailing-types';
import { site } from '../site.config';
import { getPublishedIssues, getPublishedPosts, type Issue } from './content';
import { isoDate } from './format';
import { withAbsoluteUrls } from './html-urls';
import { absoluteUrl } from './seo';

/** An issue's letter as HTML for an e-mail (getPublishedIssues has refused a local image in it). */
function letterHtml(issue: Issue, pageUrl: string): string {
  const html = issue.rendered?.html;
  if (html === undefined) throw new Error(`${issue.filePath ?? issue.id}: the letter was not rendered.`);
  try {
    return withAbsoluteUrls(html, pageUrl);
  } catch (error) {
    throw new Error(`${issue.filePath ?? issue.id}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

/** An issue's letter as text for an e-mail: its markdown, each link to a page of the site made absolute. */
function letterText(issue: Issue, pageUrl: string): string {
  return (issue.body ?? '')
    .trim()
    .replaceAll(/\]\((\/[^)\s]*)\)/g, (_link: string, target: string) => `](${new URL(target, pageUrl).href})`);
}

export async function buildMailings(): Promise<Mailings> {
  const issues: IssueMailing[] = (await getPublishedIssues()).map((issue) => {
    const url = absoluteUrl(site, `/newsletter/${issue.id}`);
    return {
      kind: 'issue',
      slug: issue.id,
      subject: issue.data.subject,
      summary: issue.data.summary,
      url,
      publishedDate: isoDate(issue.data.publishedDate),
      html: letterHtml(issue, url),
      text: letterText(issue, url),
      posts: (issue.data.posts ?? []).map((ref) => ref.id),
    };
  });
  const posts: PostMailing[] = await Promise.all(
    (await getPublishedPosts()).map(async (post): Promise<PostMailing> => {
      // The link preview's PNG (the Seo component makes the same one): no extra file in the build.
      const cover = await getImage({ src: post.data.image, format: 'png', width: 1200, height: 630 });
      return {
        kind: 'post',
        slug: post.id,
        subject: post.data.title,
        summary: post.data.summary,
        url: absoluteUrl(site, `/blog/${post.id}`),
        publishedDate: isoDate(post.data.publishedDate),
        imageUrl: absoluteUrl(site, cover.src),
        imageAlt: post.data.imageAlt,
      };
    }),
  );
  return { mailings: [...issues, ...posts] };
}
