import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { svgProblems } from '../../src/integrations/svg-guard';
import { contextHeaders } from '../../src/integrations/deploy-context-headers';

describe('svgProblems', () => {
  test.each([
    ['<svg><script>alert(1)</script></svg>', 'a <script> element'],
    ['<svg onload="alert(1)"></svg>', 'an event handler attribute (on…=)'],
    ['<svg><rect ONCLICK = "x()"/></svg>', 'an event handler attribute (on…=)'],
    ['<svg><a href="javascript:alert(1)"><text>x</text></a></svg>', 'a javascript: link'],
    ['<svg><foreignObject><div/></foreignObject></svg>', 'a <foreignObject> element'],
    ['<svg><iframe src="https://example.com"/></svg>', 'an embedded document'],
  ])('%s is refused', (svg, reason) => {
    expect(svgProblems(svg)).toContain(reason);
  });

  test('the illustrations in content/ are plain pictures', () => {
    const folder = new URL('../../content/images/', import.meta.url);
    const files = readdirSync(folder, { recursive: true })
      .map(String)
      .filter((name) => name.endsWith('.svg'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(svgProblems(readFileSync(new URL(file, folder), 'utf8')), file).toEqual([]);
  });
});

describe('contextHeaders', () => {
  test.each(['branch-deploy', 'deploy-preview'])('a %s build says noindex for every path', (context) => {
    expect(contextHeaders(context)).toMatch(/^\/\*\n {2}X-Robots-Tag: noindex, nofollow$/m);
  });

  test.each([undefined, '', 'production', 'dev'])('a %s build writes nothing', (context) => {
    expect(contextHeaders(context)).toBeUndefined();
  });
});
