import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/** What an illustration must not contain: it is served from the site's own origin, as it is. */
const ACTIVE_CONTENT: [RegExp, string][] = [
  [/<script\b/i, 'a <script> element'],
  [/<foreignObject\b/i, 'a <foreignObject> element'],
  [/\son[a-z]+\s*=/i, 'an event handler attribute (on…=)'],
  [/(?:href|src)\s*=\s*["']?\s*javascript:/i, 'a javascript: link'],
  [/<(?:iframe|embed|object)\b/i, 'an embedded document'],
];

/** The reasons an SVG file's text is unsafe to serve; empty when it is a plain picture. */
export function svgProblems(svg: string): string[] {
  return ACTIVE_CONTENT.filter(([pattern]) => pattern.test(svg)).map(([, reason]) => reason);
}

function svgFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.toLowerCase().endsWith('.svg'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * Stops the build when an SVG in content/ or src/assets/ carries scripts or links that run:
 * illustrations are served from the site's origin, where a script would run with its rights.
 */
export function svgGuard(folders: string[]): AstroIntegration {
  return {
    name: 'svg-guard',
    hooks: {
      'astro:config:setup': ({ config }) => {
        const root = fileURLToPath(config.root);
        const failures = folders
          .flatMap((folder) => svgFiles(path.join(root, folder)))
          .flatMap((file) =>
            svgProblems(readFileSync(file, 'utf8')).map((reason) => `${path.relative(root, file)}: contains ${reason}`),
          );
        if (failures.length > 0)
          throw new Error(
            `Unsafe SVG illustrations (remove the scripting and save again):\n- ${failures.join('\n- ')}`,
          );
      },
    },
  };
}
