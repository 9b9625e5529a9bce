/**
 * The admin's preview of an e-mail takes the styles out of its HTML as a string, so that the
 * frame's document, under the page's Content-Security-Policy, has no inline style to refuse; the
 * page puts them back through the CSSOM once the frame has loaded. What is taken out must be the
 * styles and nothing else.
 */
import { describe, expect, test } from 'vitest';
import { renderMail } from '../../functions/_lib/delivery/mail-layout';
import { STYLE_ATTRIBUTE, takeStylesOut } from '../../src/components/islands/admin/mail-frame';

describe('takeStylesOut', () => {
  test.each([
    ['double quotes', '<p style="color:red">Hi</p>', `<p ${STYLE_ATTRIBUTE}="color:red">Hi</p>`],
    ['single quotes', "<p style='color:red'>Hi</p>", `<p ${STYLE_ATTRIBUTE}='color:red'>Hi</p>`],
    ['no quotes', '<p style=color:red>Hi</p>', `<p ${STYLE_ATTRIBUTE}=color:red>Hi</p>`],
    ['upper case', '<P STYLE="color:red">Hi</P>', `<P ${STYLE_ATTRIBUTE}="color:red">Hi</P>`],
    [
      'among other attributes',
      '<a href="https://example.com/?a=1&amp;b=2" style="color:#0f766e" target=_blank>Go</a>',
      `<a href="https://example.com/?a=1&amp;b=2" ${STYLE_ATTRIBUTE}="color:#0f766e" target=_blank>Go</a>`,
    ],
    ['a self-closing tag', '<hr style="border:0"/>', `<hr ${STYLE_ATTRIBUTE}="border:0"/>`],
  ])('renames a style attribute in %s', (_case, html, expected) => {
    expect(takeStylesOut(html)).toEqual({ html: expected, sheets: [] });
  });

  test.each([
    ['text', '<p>Set style="color:red" on it</p>'],
    ['another attribute’s value', '<p title="a style=&quot;x&quot;" data-note=\'style="y"\'>Hi</p>'],
    ['an attribute merely ending in style', '<p data-style="x" mystyle="y">Hi</p>'],
    ['a comment', '<!--[if mso]><table style="width:600px"><tr><td><![endif]--><p>Hi</p>'],
  ])('leaves "style" in %s alone', (_case, html) => {
    expect(takeStylesOut(html)).toEqual({ html, sheets: [] });
  });

  test('takes <style> elements out, in order, as the sheets to adopt', () => {
    const html =
      '<html><head><style>p { margin: 0 }</style><STYLE media="screen">\n@media (max-width: 600px) { .x { width: 100% } }\n</STYLE></head><body><p>Hi</p></body></html>';
    expect(takeStylesOut(html)).toEqual({
      html: '<html><head></head><body><p>Hi</p></body></html>',
      sheets: ['p { margin: 0 }', '\n@media (max-width: 600px) { .x { width: 100% } }\n'],
    });
  });

  test('leaves an e-mail of the one layout with no style attribute, its text and links unchanged', () => {
    const { html } = renderMail(
      'https://example.com',
      'A subject with "quotes" & <brackets>',
      [
        { kind: 'paragraph', text: 'Hello Ada,\nstyle="not an attribute"' },
        { kind: 'button', label: 'Read it on the site', url: 'https://example.com/newsletter/x?utm=a&b=c' },
      ],
      [{ kind: 'small', text: 'Unsubscribe: https://example.com/newsletter/unsubscribe?token=abc' }],
    );
    const out = takeStylesOut(html);
    expect(html).toMatch(/\sstyle="/);
    expect(out.html).not.toMatch(/\sstyle=/i);
    expect(out.html.replaceAll(` ${STYLE_ATTRIBUTE}=`, ' style=')).toBe(html);
    expect(out.sheets).toEqual([]);
  });
});
