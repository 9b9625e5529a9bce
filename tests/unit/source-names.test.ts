/**
 * One site, one source: the maintained list (functions/_lib/visits/source-names.ts) names the
 * referring hosts and `utm_source` spellings of each site it knows, and leaves others alone.
 */
import { describe, expect, test } from 'vitest';
import { KNOWN_SOURCES, knownSource } from '../../functions/_lib/visits/source-names';

describe('knownSource', () => {
  test.each([
    ['google', 'Google'],
    ['Google', 'Google'],
    ['google.com', 'Google'],
    ['www.google.com', 'Google'],
    ['www.google.co.uk', 'Google'],
    ['google.de', 'Google'],
    ['www.google.com.au', 'Google'],
    ['bing.com', 'Bing'],
    ['www.bing.com', 'Bing'],
    ['duckduckgo.com', 'DuckDuckGo'],
    ['linkedin', 'LinkedIn'],
    ['linkedin.com', 'LinkedIn'],
    ['www.linkedin.com', 'LinkedIn'],
    ['lnkd.in', 'LinkedIn'],
    ['l.facebook.com', 'Facebook'],
    ['m.facebook.com', 'Facebook'],
    ['fb', 'Facebook'],
    ['t.co', 'X'],
    ['twitter', 'X'],
    ['x.com', 'X'],
    ['instagram.com', 'Instagram'],
    ['youtu.be', 'YouTube'],
    ['m.youtube.com', 'YouTube'],
    ['old.reddit.com', 'Reddit'],
    ['news.ycombinator.com', 'Hacker News'],
    ['hacker-news', 'Hacker News'],
    ['hacker_news', 'Hacker News'],
    ['chatgpt.com', 'ChatGPT'],
    ['chat.openai.com', 'ChatGPT'],
    ['www.perplexity.ai', 'Perplexity'],
    ['claude.ai', 'Claude'],
    ['gemini.google.com', 'Gemini'],
    ['copilot.microsoft.com', 'Copilot'],
    ['newsletter', 'E-mail'],
    ['email', 'E-mail'],
    ['e-mail', 'E-mail'],
    ['Mailchimp', 'E-mail'],
    ['mail.google.com', 'E-mail'],
    ['outlook.live.com', 'E-mail'],
  ])('%s is %s', (value, name) => expect(knownSource(value)).toBe(name));

  test.each([
    'example.org',
    'notgoogle.com',
    'google.evil.example',
    'googleusercontent.example',
    'mylinkedin.com',
    'newsletter-december',
    'spring-sale',
  ])('%s is not a site the list knows', (value) => expect(knownSource(value)).toBeUndefined());
});

describe('the list', () => {
  // A host listed under one name but matched first by another's pattern (Gemini's under Google's
  // `google.*`) would be counted under the wrong name: the list's order must say otherwise.
  test.each(KNOWN_SOURCES.flatMap((site) => site.hosts.map((host) => [host.replace('.*', '.com'), site.name])))(
    'names its host %s %s',
    (host, name) => expect(knownSource(host)).toBe(name),
  );

  test.each(KNOWN_SOURCES.flatMap((site) => [site.name, ...site.spellings].map((spelling) => [spelling, site.name])))(
    'names its spelling %s %s',
    (spelling, name) => expect(knownSource(spelling)).toBe(name),
  );

  test('gives each site one name', () => {
    const names = KNOWN_SOURCES.map((site) => site.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
