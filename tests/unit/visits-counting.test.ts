import { describe, expect, test } from 'vitest';
import { countedPath, deviceOf, keyedHash, notCounted, sourceOf } from '../../functions/_lib/visits/counting-rules';
import { addDays, dayCount, dayIn, daysFrom } from '../../functions/_lib/visits/calendar-days';
import { countedPaths, servedPath } from '../../src/integrations/write-counted-pages';

describe('deviceOf', () => {
  test.each([
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148', 'phone'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/142.0 Mobile Safari/537.36', 'phone'],
    ['Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 Chrome/142.0 Safari/537.36', 'tablet'],
    ['Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148', 'tablet'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/142.0 Safari/537.36', 'desktop'],
  ])('%s is a %s', (agent, device) => expect(deviceOf(agent)).toBe(device));
});

describe('sourceOf', () => {
  test.each([
    [{ path: '/', utm_source: 'newsletter', referrer: 'www.google.com' }, 'newsletter'],
    [{ path: '/', referrer: 'www.LinkedIn.com' }, 'linkedin.com'],
    [{ path: '/', referrer: 'www.loopwork.example' }, 'Direct'],
    [{ path: '/' }, 'Direct'],
  ])('%o comes from %s', (view, source) => expect(sourceOf(view, 'loopwork.example')).toBe(source));
});

test('a path counts under its own name only when it is a page of the build', () => {
  const pages = new Set(['/', '/sectors']);
  expect(countedPath('/sectors', pages)).toBe('/sectors');
  expect(countedPath('/sectors/', pages)).toBe('/sectors');
  expect(countedPath('/', pages)).toBe('/');
  expect(countedPath('/wp-login.php', pages)).toBe('other');
});

test('the build counts its pages by the path they are served at, without 404 pages or the admin', () => {
  expect(servedPath('index')).toBe('/');
  expect(servedPath('')).toBe('/');
  expect(servedPath('sectors/saas')).toBe('/sectors/saas');
  expect(countedPaths(['', 'sectors', '404', 'blog/404', 'admin/insights', 'admin/cms'])).toEqual(['/', '/sectors']);
});

describe('notCounted', () => {
  const browser = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/142.0 Safari/537.36';
  test.each([
    [{ 'user-agent': browser }, '/', undefined],
    [{ 'user-agent': browser, 'sec-gpc': '1' }, '/', 'privacy-signal'],
    [{ 'user-agent': browser, dnt: '1' }, '/', 'privacy-signal'],
    [{}, '/', 'no-browser'],
    [{ 'user-agent': 'python-requests/2.32' }, '/', 'no-browser'],
    [{ 'user-agent': 'Mozilla/5.0 (compatible; bingbot/2.0)' }, '/', 'bot'],
    [{ 'user-agent': browser }, '/admin/insights', 'admin-page'],
  ])('%o on %s: %s', (headers, path, reason) => expect(notCounted(new Headers(headers), path)).toBe(reason));
});

test('the visitor hash changes with the salt and hides its parts', () => {
  const hash = keyedHash('salt-a', '203.0.113.7', 'agent', 'loopwork.example');
  expect(hash).toMatch(/^[0-9a-f]{32}$/);
  expect(keyedHash('salt-b', '203.0.113.7', 'agent', 'loopwork.example')).not.toBe(hash);
  expect(hash).not.toContain('203');
});

describe('days in the site time zone', () => {
  test('a moment falls on the day of its zone', () => {
    const moment = new Date('2026-11-28T23:30:00Z');
    expect(dayIn(moment, 'UTC')).toBe('2026-11-28');
    expect(dayIn(moment, 'Europe/Paris')).toBe('2026-11-29');
    expect(dayIn(moment, 'America/New_York')).toBe('2026-11-28');
  });
  test('ranges count both ends and cross months', () => {
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(daysFrom('2026-12-30', '2027-01-02')).toEqual(['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02']);
    expect(dayCount('2026-01-01', '2026-12-31')).toBe(365);
  });
});
