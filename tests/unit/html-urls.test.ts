/** Rendered HTML leaving its page for an e-mail: every address in it becomes absolute. */
import { describe, expect, test } from 'vitest';
import { withAbsoluteUrls } from '../../src/lib/html-urls';

const PAGE = 'https://www.example.com/newsletter/an-issue';

describe('withAbsoluteUrls', () => {
  test.each([
    ['a path from the root', '<a href="/blog/a-post">', '<a href="https://www.example.com/blog/a-post">'],
    ['a path from the page', '<a href="../contact">', '<a href="https://www.example.com/contact">'],
    ['a fragment', '<a href="#part-two">', `<a href="${PAGE}#part-two">`],
    ['an image', '<img src="/_astro/x.png" alt="">', '<img src="https://www.example.com/_astro/x.png" alt="">'],
    [
      'a srcset, size by size',
      '<img srcset="/a.png 480w, /b.png 800w" src="/b.png">',
      '<img srcset="https://www.example.com/a.png 480w, https://www.example.com/b.png 800w" src="https://www.example.com/b.png">',
    ],
    ['an address of another site', '<a href="https://zoho.com/crm">', '<a href="https://zoho.com/crm">'],
    ['an e-mail address', '<a href="mailto:hello@example.com">', '<a href="mailto:hello@example.com">'],
  ])('makes %s absolute, or leaves it when it already is', (_name, html, expected) => {
    expect(withAbsoluteUrls(html, PAGE)).toBe(expected);
  });

  test('reads only tags: text that looks like an attribute is left alone, a `>` inside a value is no end', () => {
    const text = '<p>Write <code>&lt;a href="/x"&gt;</code> in your template.</p>';
    expect(withAbsoluteUrls(text, PAGE)).toBe(text);
    expect(withAbsoluteUrls('<img alt="before > after" src="/x.png">', PAGE)).toBe(
      '<img alt="before > after" src="https://www.example.com/x.png">',
    );
  });

  test('says which address is not one', () => {
    expect(() => withAbsoluteUrls('<a href="https://[broken">', PAGE)).toThrow(
      '"https://[broken" is not a link or image address.',
    );
  });
});
