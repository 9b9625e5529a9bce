import { describe, expect, test } from 'vitest';
import {
  countedPath,
  countedView,
  deviceOf,
  keyedHash,
  notCounted,
  sourceOf,
} from '../../functions/_lib/visits/counting-rules';
import { addDays, dayCount, dayIn, daysFrom, LONGEST_RANGE_DAYS } from '../../functions/_lib/visits/calendar-days';
import { COUNTED_VALUE_MAX, countedValue } from '../../functions/_lib/visits/counted-values';
import { touchOf } from '../../functions/_lib/visits/range-report';
import { OTHER_VALUE } from '../../functions/_lib/store/visits';
import { countedPaths, servedPath } from '../../src/integrations/write-counted-pages';
import { reportsView, viewOf } from '../../src/lib/visits-beacon';
import { VisitsRequest } from '../../src/shared/schemas';

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
    [{ path: '/', utm_source: 'newsletter', referrer: 'www.google.com' }, 'E-mail'],
    [{ path: '/', utm_source: 'spring-offer-mailing' }, 'spring-offer-mailing'],
    [{ path: '/', referrer: 'www.LinkedIn.com' }, 'LinkedIn'],
    [{ path: '/', referrer: 'lnkd.in' }, 'LinkedIn'],
    [{ path: '/', referrer: 'www.google.co.uk' }, 'Google'],
    [{ path: '/', utm_source: 'google' }, 'Google'],
    [{ path: '/', referrer: 'www.Partner.example' }, 'partner.example'],
    [{ path: '/', referrer: 'www.loopwork.example' }, 'Direct'],
    [{ path: '/' }, 'Direct'],
    [{ path: '/', utm_source: 'Visit https://evil.example/login to fix your site' }, OTHER_VALUE],
    [{ path: '/', referrer: `${'a'.repeat(60)}.example` }, OTHER_VALUE],
  ])('%o comes from %s', (view, source) => expect(sourceOf(view, 'loopwork.example')).toBe(source));
});

describe('countedValue', () => {
  test.each([
    ['autumn-offer', 'autumn-offer'],
    ['Black Friday 2026', 'Black Friday 2026'],
    ['q4_launch.v2', 'q4_launch.v2'],
    ['rentrée', 'rentrée'],
    ['rentre\u0301e', 'rentrée'],
    ['x'.repeat(COUNTED_VALUE_MAX), 'x'.repeat(COUNTED_VALUE_MAX)],
    ['x'.repeat(COUNTED_VALUE_MAX + 1), OTHER_VALUE],
    ['Visit https://evil.example/login to fix your site', OTHER_VALUE],
    ['evil.example/login', OTHER_VALUE],
    ['call +44 20 7946 0000', OTHER_VALUE],
    ['<b>sale</b>', OTHER_VALUE],
    ['ops@evil.example', OTHER_VALUE],
    ['(other)', OTHER_VALUE],
    ['-', OTHER_VALUE],
  ])('%s is counted as %s', (value, counted) => expect(countedValue(value)).toBe(counted));
});

describe("a lead's first touch and a view are named alike", () => {
  const pages = new Set(['/', '/zoho']);
  test.each([
    [{ referrer: 'www.google.co.uk' }, 'Google', undefined],
    [{ referrer: 'lnkd.in', utm_campaign: 'autumn-offer' }, 'LinkedIn', 'autumn-offer'],
    [{ utm_source: 'Newsletter', utm_campaign: 'Join https://evil.example now' }, 'E-mail', OTHER_VALUE],
    [{ utm_source: 'Visit https://evil.example/login to fix your site' }, OTHER_VALUE, undefined],
  ])('%o: %s, campaign %s', (touch, source, campaign) => {
    const view: VisitsRequest = { path: '/zoho', ...touch };
    const counted = countedView(view, {
      day: '2026-11-30',
      salt: 'salt',
      client: '203.0.113.7',
      agent: 'Mozilla/5.0',
      siteHost: 'loopwork.example',
      pages,
    });
    expect({ source: counted.source, campaign: counted.campaign }).toEqual({ source, campaign });
    expect(touchOf({ landingPage: '/zoho?utm_source=x', ...touch }, 'loopwork.example', pages)).toEqual({
      page: '/zoho',
      source,
      campaign,
    });
  });
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
  const site = 'https://loopwork.example';
  const agent = { 'user-agent': browser };
  test.each([
    ['a browser', agent, '/', undefined],
    ['Sec-GPC: 1', { ...agent, 'sec-gpc': '1' }, '/', 'privacy-signal'],
    ['DNT: 1', { ...agent, dnt: '1' }, '/', 'privacy-signal'],
    // A field sent twice reaches the function joined with ", ".
    ['Sec-GPC: 1, 1', { ...agent, 'sec-gpc': '1, 1' }, '/', 'privacy-signal'],
    ['Sec-GPC: 1,1', { ...agent, 'sec-gpc': '1,1' }, '/', 'privacy-signal'],
    ['DNT: 1, 1', { ...agent, dnt: '1, 1' }, '/', 'privacy-signal'],
    ['DNT: 0, 1', { ...agent, dnt: '0, 1' }, '/', 'privacy-signal'],
    ['Sec-GPC: 0', { ...agent, 'sec-gpc': '0' }, '/', undefined],
    ['DNT: 0', { ...agent, dnt: '0' }, '/', undefined],
    ['DNT: 0, 0', { ...agent, dnt: '0, 0' }, '/', undefined],
    ['its own page', { ...agent, origin: site, 'sec-fetch-site': 'same-origin' }, '/', undefined],
    ["another site's Origin", { ...agent, origin: 'https://elsewhere.example' }, '/', 'other-site'],
    ['its own host over http', { ...agent, origin: 'http://loopwork.example' }, '/', 'other-site'],
    ['Origin: null', { ...agent, origin: 'null' }, '/', 'other-site'],
    ['Sec-Fetch-Site: cross-site', { ...agent, 'sec-fetch-site': 'cross-site' }, '/', 'other-site'],
    ['Sec-Fetch-Site: same-site', { ...agent, 'sec-fetch-site': 'same-site' }, '/', 'other-site'],
    ['its Origin but cross-site', { ...agent, origin: site, 'sec-fetch-site': 'cross-site' }, '/', 'other-site'],
    ['no user agent', {}, '/', 'no-browser'],
    ['a library', { 'user-agent': 'python-requests/2.32' }, '/', 'no-browser'],
    ['a crawler', { 'user-agent': 'Mozilla/5.0 (compatible; bingbot/2.0)' }, '/', 'bot'],
    ['an admin page', agent, '/admin/insights', 'admin-page'],
  ])('%s', (_case, headers, path, reason) => expect(notCounted(new Headers(headers), path, site)).toBe(reason));

  test('a field repeated in the request is read whole', () => {
    const headers = new Headers({ 'user-agent': browser });
    headers.append('sec-gpc', '1');
    headers.append('sec-gpc', '1');
    expect(notCounted(headers, '/', site)).toBe('privacy-signal');
  });
});

describe("the page's script", () => {
  const reader = { webdriver: false, doNotTrack: null };
  const site = 'https://loopwork.example';
  const browser = new Headers({
    'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/142.0 Safari/537.36',
  });

  test.each(['/', '/admin', '/admin/', '/admin/insights', '/administration', '/admins', '/blog/admin'])(
    'reports a view from %s exactly when the function would count it',
    (path) => expect(reportsView(path, reader)).toBe(notCounted(browser, path, site) === undefined),
  );

  test.each([
    ['Global Privacy Control', false, { ...reader, globalPrivacyControl: true }],
    ['Do Not Track', false, { ...reader, doNotTrack: '1' }],
    ['a browser driven by a tool', false, { ...reader, webdriver: true }],
    ['neither signal', true, { ...reader, globalPrivacyControl: false, doNotTrack: '0' }],
  ])('%s: reports a view: %s', (_case, reports, signals) => expect(reportsView('/', signals)).toBe(reports));

  test('sends only what the function takes, and no utm_medium, which the figures do not keep', () => {
    const url = new URL(`${site}/zoho?utm_source=newsletter&utm_medium=email&utm_campaign=autumn&utm_term=zoho`);
    const view = viewOf(url, 'https://www.linkedin.com/feed/');
    expect(view).toEqual({
      path: '/zoho',
      referrer: 'www.linkedin.com',
      utm_source: 'newsletter',
      utm_campaign: 'autumn',
    });
    expect(VisitsRequest.safeParse(JSON.parse(JSON.stringify(view))).success).toBe(true);
  });
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
    expect(daysFrom('2026-11-02', '2026-11-01')).toEqual([]);
  });
  test('the last days a date can be end a range: its walk stops at its count, not at year 10,000', () => {
    const days = daysFrom('9999-12-01', '9999-12-31');
    expect(days).toHaveLength(31);
    expect(days.at(-1)).toBe('9999-12-31');
  });
  test('a walk longer than the longest range, or between days that are not dates, is refused', () => {
    expect(daysFrom('2028-01-01', '2028-12-31')).toHaveLength(LONGEST_RANGE_DAYS);
    expect(() => daysFrom('2026-01-01', '9999-12-31')).toThrow(RangeError);
    expect(() => daysFrom('2026-01-01', '+010000-01-01')).toThrow(RangeError);
    expect(() => daysFrom('2026-01-01', 'someday')).toThrow(RangeError);
  });
});
