/**
 * The CMS page: which repository it commits to, and its Content-Security-Policy, deployed and
 * under `npm run cms`.
 */
import { describe, expect, test } from 'vitest';
import { cmsPage, cmsPolicy, cmsSettings, githubRepo, UNKNOWN_REPO } from '../../src/lib/cms/page';

describe('the repository the CMS commits to', () => {
  test.each([
    [{ REPOSITORY_URL: 'https://github.com/loopwork/site' }, 'loopwork/site'],
    [{ REPOSITORY_URL: 'https://github.com/loopwork/site.git' }, 'loopwork/site'],
    [{ REPOSITORY_URL: 'git@github.com:loopwork/site.git' }, 'loopwork/site'],
    [{ REPOSITORY_URL: 'https://github.com/loopwork/site', CMS_GITHUB_REPO: 'other/repo' }, 'other/repo'],
    [{ REPOSITORY_URL: 'https://gitlab.com/loopwork/site' }, UNKNOWN_REPO],
    [{}, UNKNOWN_REPO],
  ])('%j → %s', (env, repo) => {
    expect(githubRepo(env)).toBe(repo);
  });
});

describe('the CMS page', () => {
  const deployed = cmsSettings({}, false, 'https://www.example.com');
  const local = cmsSettings({ CMS_BACKEND_PORT: '8090' }, true, 'http://localhost:4321');

  test('deployed, its policy reaches GitHub and nothing local', () => {
    const policy = cmsPolicy(deployed);
    expect(policy).toContain("connect-src 'self' blob: https://api.github.com https://www.githubstatus.com");
    expect(policy).toContain("img-src 'self' blob: https://avatars.githubusercontent.com");
    expect(policy).not.toContain('localhost');
  });

  test('under npm run cms, its policy reaches the local backend and not GitHub', () => {
    const policy = cmsPolicy(local);
    expect(policy).toContain("connect-src 'self' blob: http://localhost:8090");
    expect(policy).not.toContain('github');
  });

  test('it never allows inline scripts, other pages in frames or plugins', () => {
    for (const settings of [deployed, local]) {
      const policy = cmsPolicy(settings);
      expect(policy).toContain("script-src 'self' 'unsafe-eval';");
      expect(policy).toContain("object-src 'none'");
      expect(policy).toContain("base-uri 'self'");
    }
  });

  test('with the bundle, it loads Decap and the site additions', () => {
    const html = cmsPage(deployed, 'Loopwork', true);
    expect(html).toContain('<script src="/admin/cms/decap/decap-cms.js"></script>');
    expect(html).toContain('<script src="/admin/cms/extensions.js"></script>');
  });

  // `npm install` goes on without the bundle when the registry cannot give it: the page then
  // says how to fetch it, instead of a blank screen and a 404 in the console.
  test('without the bundle, it says how to fetch it and loads no script', () => {
    const html = cmsPage(deployed, 'Loopwork', false);
    expect(html).toContain('<h1>The content manager is not installed here</h1>');
    expect(html).toContain('<code>npm run cms:vendor</code>');
    expect(html).not.toContain('<script');
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
  });

  test('the page says noindex and escapes the brand in its title', () => {
    const html = cmsPage(deployed, 'Fish & <Chips>');
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).toContain('<title>Content manager · Fish &#38; &#60;Chips&#62;</title>');
  });
});
