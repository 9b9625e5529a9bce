import { describe, expect, test } from 'vitest';
import { firstTouch, parseVisit, referringHost, sitePath, visitOf } from '../../src/lib/attribution';
import { Attribution, LeadRequest } from '../../src/shared/schemas';

const SITE = 'https://acme.example';
const url = (path: string) => new URL(path, SITE);

describe('firstTouch', () => {
  test('a campaign link from another site: the landing page, the referring host and every UTM parameter', () => {
    const touch = firstTouch(
      url(
        '/zoho?utm_source=linkedin&utm_medium=social&utm_campaign=autumn-2026&utm_term=zoho%20crm&utm_content=carousel',
      ),
      'https://www.linkedin.com/feed/update/123',
    );
    expect(touch).toEqual({
      landingPage:
        '/zoho?utm_source=linkedin&utm_medium=social&utm_campaign=autumn-2026&utm_term=zoho%20crm&utm_content=carousel',
      referrer: 'www.linkedin.com',
      utm_source: 'linkedin',
      utm_medium: 'social',
      utm_campaign: 'autumn-2026',
      utm_term: 'zoho crm',
      utm_content: 'carousel',
    });
  });

  test('a direct visit has the landing page only', () => {
    expect(firstTouch(url('/blog/what-to-automate-first'), '')).toEqual({
      landingPage: '/blog/what-to-automate-first',
    });
  });

  test('empty UTM parameters are left out and long ones cut to 200 characters (the server keeps 100)', () => {
    const touch = firstTouch(url(`/?utm_source=&utm_medium=%20%20&utm_campaign=${'x'.repeat(300)}`), '');
    expect(touch.utm_source).toBeUndefined();
    expect(touch.utm_medium).toBeUndefined();
    expect(touch.utm_campaign).toHaveLength(200);
  });

  test('what it computes passes the server schema unchanged', () => {
    const touch = firstTouch(url('/contact?utm_source=newsletter&utm_campaign=nov'), 'https://news.example.org/');
    expect(Attribution.parse(touch)).toEqual(touch);
  });
});

describe('Attribution', () => {
  const UTM = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
  const every = (value: string) => Object.fromEntries(UTM.map((name) => [name, value]));

  test.each([
    ['200 letters', 'x'.repeat(200), 'x'.repeat(100)],
    ['a 5,000-character value', 'y'.repeat(5000), 'y'.repeat(100)],
    ['150 emoji, cut between code points', '🚀'.repeat(150), '🚀'.repeat(100)],
    ['a value that ends in a space once cut', `${'z'.repeat(99)} and more`, 'z'.repeat(99)],
  ])('keeps the first 100 characters of each utm_* value: %s', (_label, value, kept) => {
    expect(Attribution.parse(every(value))).toEqual(every(kept));
  });

  test('keeps shorter values and the referrer as they are', () => {
    const touch = { ...every('autumn-2026'), referrer: `${'a'.repeat(180)}.example` };
    expect(Attribution.parse(touch)).toEqual(touch);
  });

  test('a lead with long utm_* values is taken, its values cut', () => {
    const lead = { name: 'Ada', email: 'ada@example.com', source: 'contact_form' };
    const parsed = LeadRequest.safeParse({ ...lead, attribution: every('q'.repeat(300)) });
    expect(parsed.success && parsed.data.attribution).toEqual(every('q'.repeat(100)));
  });
});

describe('referringHost', () => {
  test.each([
    ['https://www.google.com/', 'www.google.com'],
    ['http://news.example.org/a?b=c', 'news.example.org'],
    ['', undefined],
    ['not a url', undefined],
    ['android-app://com.slack/', undefined],
    // The site's own pages, with or without www, are not a referrer.
    [`${SITE}/blog`, undefined],
    ['https://www.acme.example/sectors', undefined],
  ])('%j → %j', (referrer, expected) => {
    expect(referringHost(referrer, url('/'))).toBe(expected);
  });
});

describe('sitePath', () => {
  test('keeps the path and query of a page', () => {
    expect(sitePath(url('/sectors/saas?utm_source=x&b=%20y'))).toBe('/sectors/saas?utm_source=x&b=%20y');
  });

  test("drops an e-mailed link's token, which belongs to its subscriber", () => {
    expect(sitePath(url('/newsletter/confirm?token=abc.def.ghi'))).toBe('/newsletter/confirm');
    expect(sitePath(url('/newsletter/unsubscribe?token=abc&utm_source=mail'))).toBe(
      '/newsletter/unsubscribe?utm_source=mail',
    );
  });

  test('keeps the path alone when path and query exceed what the server accepts', () => {
    const path = sitePath(url(`/zoho?q=${'a'.repeat(600)}`));
    expect(path).toBe('/zoho');
    expect(LeadRequest.shape.page.parse(path)).toBe(path);
  });
});

describe('visitOf: what a view keeps for its forms', () => {
  const stored = JSON.stringify({
    page: '/zoho?utm_source=linkedin',
    attribution: { landingPage: '/zoho?utm_source=linkedin', referrer: 'www.linkedin.com', utm_source: 'linkedin' },
  });

  test('the first view of a session: its page, and its own first touch', () => {
    expect(visitOf(null, url('/zoho?utm_source=linkedin'), 'https://www.linkedin.com/')).toEqual({
      page: '/zoho?utm_source=linkedin',
      attribution: { landingPage: '/zoho?utm_source=linkedin', referrer: 'www.linkedin.com', utm_source: 'linkedin' },
    });
  });

  test('a later view: its own page, and the first touch unchanged, even with a new campaign in its URL', () => {
    expect(visitOf(stored, url('/contact?utm_source=google'), 'https://www.google.com/')).toEqual({
      page: '/contact?utm_source=google',
      attribution: { landingPage: '/zoho?utm_source=linkedin', referrer: 'www.linkedin.com', utm_source: 'linkedin' },
    });
  });

  test.each(['', 'not json', '[1,2]', 'null', '"text"', '{"page":"/x"}'])(
    'an unreadable or incomplete stored value (%j) counts as a first view',
    (value) => {
      expect(visitOf(value, url('/blog'), '')).toEqual({ page: '/blog', attribution: { landingPage: '/blog' } });
    },
  );

  test('parseVisit reads back what was stored', () => {
    expect(parseVisit(stored)?.attribution?.referrer).toBe('www.linkedin.com');
    expect(parseVisit(null)).toBeUndefined();
  });
});
