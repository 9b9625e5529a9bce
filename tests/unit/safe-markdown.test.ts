/** What markdown in content/ may hold: Markdown, a few inline tags without attributes, and links that go somewhere. */
import { describe, expect, test } from 'vitest';
import { unsafeMarkdown } from '../../src/lib/safe-markdown';

describe('unsafeMarkdown', () => {
  test('Markdown, code and a few inline tags pass', () => {
    const markdown = [
      '---',
      'title: "A <script> in the front matter is data, not markdown"',
      '---',
      '',
      '## A table, a list, links and emphasis',
      '',
      '| Step | What |',
      '|---|---|',
      '| *one* | [the form](/contact) |',
      '',
      '- **bold**, _italic_ and ~~struck~~',
      '- [write](mailto:hello@example.com), [call](tel:+441234567890), [read](https://example.com/a?b=c#d), <https://example.com>',
      '- ![a picture](../images/blog/x.svg) and [a part](#top)',
      '',
      'E = mc<sup>2</sup>, H<sub>2</sub>O, <kbd>Ctrl</kbd>, a break<br>and <br/> another.',
      '',
      'Code is text: `<script>alert(1)</script>` and',
      '',
      '    <iframe src="https://example.com"></iframe>',
    ].join('\n');
    expect(unsafeMarkdown(markdown)).toEqual([]);
  });

  test.each([
    [
      '<meta http-equiv="refresh" content="0;url=https://evil.example/">',
      '<meta http-equiv="refresh" content="0;url=https://evil.example/">: raw HTML',
    ],
    ['<style>p { display: none }</style>', '<style>p { display: none }</style>: raw HTML'],
    ['<!-- a note --><script>alert(1)</script>', '<!-- a note --><script>alert(1)</script>: raw HTML'],
    ['Look <img src="x" onerror="alert(1)">', '<img src="x" onerror="alert(1)">: raw HTML'],
    ['A <sup onclick="alert(1)">note</sup>', '<sup onclick="alert(1)">: raw HTML'],
    [
      '[Read](javascript:alert(1))',
      'javascript:alert(1): a link to an address that is no web page, e-mail or phone number',
    ],
    [
      '[Read](JavaScript&#x3A;alert(1))',
      'JavaScript:alert(1): a link to an address that is no web page, e-mail or phone number',
    ],
    [
      '![x](java&#x09;script:alert(1))',
      'java%09script:alert(1): a picture to an address that is no web page, e-mail or phone number',
    ],
    ['<javascript:alert(1)>', 'javascript:alert(1): a link to an address that is no web page, e-mail or phone number'],
    [
      '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
      'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+: a picture to an address that is no web page, e-mail or phone number',
    ],
  ])('%s is named, at its line', (construct, text) => {
    expect(unsafeMarkdown(`---\ntitle: x\n---\n\nA first paragraph.\n\n${construct}\n`)).toEqual([{ line: 7, text }]);
  });
});
