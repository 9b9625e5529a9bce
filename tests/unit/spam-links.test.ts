import { describe, expect, test } from 'vitest';
import { linkReason } from '../../functions/_lib/forms/spam';

const LEAD = { name: 'Nia Okafor', email: 'nia@example.com' };

describe('the link rule of a lead', () => {
  test.each([
    ['three links in the message', { content: 'https://a.example www.b.example https://c.example' }, undefined],
    [
      'four links in the message',
      { content: 'https://a.example www.b.example https://c.example [url=d]' },
      '4 links in the message (at most 3 allowed)',
    ],
    [
      'links spread over the name, company and a campaign',
      {
        name: 'www.a.example',
        company: 'https://b.example',
        attribution: { utm_campaign: 'https://c.example www.d.example' },
      },
      '4 links in the name, company and utm_campaign (at most 3 allowed)',
    ],
    [
      'a referrer that is a host, as the pages send it, with three links in the message',
      { content: 'https://a.example https://b.example https://c.example', attribution: { referrer: 'www.google.com' } },
      undefined,
    ],
    [
      'a referrer that is a URL',
      {
        content: 'https://a.example https://b.example https://c.example',
        attribution: { referrer: 'https://x.example/' },
      },
      '4 links in the message and referrer (at most 3 allowed)',
    ],
    [
      'two addresses with a scheme and www, each one link',
      { content: 'Our sites: https://www.a.example and https://www.b.example/shop' },
      undefined,
    ],
    [
      'forum and HTML link markup, each one link',
      { content: '[url=https://a.example]a[/url] <a href="https://b.example">b</a>' },
      undefined,
    ],
    [
      'disguised schemes',
      { content: 'xhttps://a.example hxxps://b.example hxxp://c.example www.d.example' },
      '4 links in the message (at most 3 allowed)',
    ],
    [
      'hosts with a path, as mail clients link them',
      { content: 'bit.ly/a bit.ly/b', company: 'cheap.example/x', attribution: { utm_term: 'go.example/y' } },
      '4 links in the message, company and utm_term (at most 3 allowed)',
    ],
    [
      'tools named by their host, which are not links',
      {
        content:
          'We use Booking.com, Vue.js/Nuxt, Node.js/Express, Next.js/React and Nest.ts/Prisma, e.g. 1.5kg/day and/or more.',
      },
      undefined,
    ],
    [
      'links strung together without spaces, each one link',
      { content: 'https://a.example,https://b.example;www.c.example|bit.ly/d' },
      '4 links in the message (at most 3 allowed)',
    ],
    [
      'markup whose text is its address, each one link',
      { content: '[url]https://a.example[/url] <a href="https://b.example">https://b.example</a> https://c.example' },
      undefined,
    ],
  ])('%s', (_label, fields, expected) => {
    expect(linkReason({ ...LEAD, ...fields }, 3)).toBe(expected);
  });
});
