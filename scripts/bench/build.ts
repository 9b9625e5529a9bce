/**
 * How the build scales with the blog: a temporary copy of the site is built with 10, 100 and
 * 1,000 generated posts (about 700 words each, all sharing one cover image), and the build time
 * and time per page are printed. Nothing in this project is changed.
 *
 *   npm run bench:build
 */
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { copySite } from '../harness/site-copy.ts';

const SIZES = (process.env.BENCH_POSTS ?? '10,100,1000').split(',').map(Number);

const PARAGRAPH =
  'Small teams lose hours every week to work that follows the same steps each time: copying an order into the accounting tool, chasing a signature, reminding a client about an appointment. Automating one of these flows rarely needs new software; it needs the tools you already pay for to pass information along at the right moment, with a person stepping in only where judgement matters.';

function post(index: number): string {
  const day = String((index % 28) + 1).padStart(2, '0');
  const sections = Array.from(
    { length: 5 },
    (_, section) =>
      `## Step ${section + 1} for case ${index}\n\n${PARAGRAPH}\n\n- A concrete task to list\n- The time it takes each week\n- What an error costs\n\n${PARAGRAPH}`,
  );
  return `---
title: "Generated article number ${index} about automation"
summary: "A generated article used to measure how the build scales with the number of blog posts on the site."
image: ../images/blog/what-to-automate-first.svg
imageAlt: "Illustration of a checklist with priority bars"
publishedDate: 2026-10-${day}
---

${PARAGRAPH}

${sections.join('\n\n')}
`;
}

const rows = [];
for (const size of SIZES) {
  const site = copySite();
  try {
    const blog = site.file('content', 'blog');
    for (const file of readdirSync(blog)) rmSync(site.file('content', 'blog', file));
    // A newsletter issue names the posts it features, which are gone: the issues go too.
    const issues = site.file('content', 'newsletter');
    for (const file of readdirSync(issues)) rmSync(site.file('content', 'newsletter', file));
    for (let index = 0; index < size; index += 1)
      writeFileSync(site.file('content', 'blog', `generated-${index}.md`), post(index));
    const started = performance.now();
    const { status, output } = site.build();
    const seconds = (performance.now() - started) / 1000;
    if (status !== 0) throw new Error(`build with ${size} posts failed:\n${output}`);
    const pages = Number(/(\d+) page\(s\) built/.exec(output)?.[1] ?? 0);
    rows.push({
      posts: size,
      pages,
      'build s': seconds.toFixed(1),
      'ms per page': ((seconds * 1000) / pages).toFixed(1),
    });
  } finally {
    site.remove();
  }
}
console.log('\nBuild time by number of blog posts (a fresh copy each time, content cache cold)\n');
console.table(rows);
