/**
 * A blog post and a newsletter issue featuring it, both dated after the day the build tests build
 * for (SITE_BUILD_DATE): what a scheduled publication looks like in content/.
 */
import { writeFileSync } from 'node:fs';
import type { SiteCopy } from '../../scripts/harness/site-copy';

export const SCHEDULED = {
  post: 'a-post-for-the-ides-of-march',
  issue: 'an-issue-for-the-ides-of-march',
  /** Their date. */
  day: '2031-03-15',
  dayBefore: '2031-03-14',
} as const;

const POST = `---
title: "A post scheduled for the Ides of March"
summary: "Written ahead of time and dated in the future, so that it goes live by itself on the morning of its day."
image: ../images/blog/what-to-automate-first.svg
imageAlt: "A checklist"
publishedDate: ${SCHEDULED.day}
---

Written ahead of time.
`;

const ISSUE = `---
subject: "Our letter for the Ides of March"
summary: "Scheduled with the post it features, so that the two go live together on the morning of their day."
publishedDate: ${SCHEDULED.day}
posts:
  - ${SCHEDULED.post}
---

Written ahead of time, too.
`;

/** Writes the scheduled post and issue into a copy of the site. */
export function addScheduled(site: SiteCopy): void {
  writeFileSync(site.file('content/blog', `${SCHEDULED.post}.md`), POST);
  writeFileSync(site.file('content/newsletter', `${SCHEDULED.issue}.md`), ISSUE);
}
