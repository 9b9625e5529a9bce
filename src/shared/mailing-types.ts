// src/shared holds what the pages and the functions both import, and ships to the browser: zod and this folder only.
// What an e-mail about published content needs: the build writes it to dist/mailings.json for the
// newsletter's sender in functions/, which sends nothing the site has not published.

/** The build file the sender reads, under dist/. */
export const MAILINGS_FILE = 'mailings.json';

interface MailingBase {
  /** The entry's file name in content/newsletter or content/blog, and the last part of its page's address. */
  slug: string;
  /** The e-mail's subject: an issue's subject, a post's title. */
  subject: string;
  /** One line: the e-mail's preview text. */
  summary: string;
  /** The absolute URL of its page on the production site. */
  url: string;
  /** Publication date, YYYY-MM-DD. */
  publishedDate: string;
}

/** A newsletter issue: the letter is the e-mail. */
export interface IssueMailing extends MailingBase {
  kind: 'issue';
  /** The letter as HTML, self-contained: every link and image is an absolute URL. */
  html: string;
  /** The letter as its markdown, with absolute links: the e-mail's plain-text part. */
  text: string;
  /** The posts it features, in its order: slugs of `post` mailings of the same file. */
  posts: string[];
}

/** A blog post: the e-mail announces it and links to it. */
export interface PostMailing extends MailingBase {
  kind: 'post';
  /** The absolute URL of its cover as a 1200×630 PNG: mail clients show neither SVG nor WebP reliably. */
  imageUrl: string;
  /** The cover's text alternative. */
  imageAlt: string;
}

export type Mailing = IssueMailing | PostMailing;

/** dist/mailings.json. */
export interface Mailings {
  /** Every published issue, then every published post, each newest first. */
  mailings: Mailing[];
}
