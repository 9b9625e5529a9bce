import { writeFileSync } from 'node:fs';
import type { AstroIntegration } from 'astro';

/**
 * The `_headers` file a Netlify deploy context needs beyond netlify.toml, or nothing. netlify.toml
 * headers apply to every context alike; Netlify marks deploy previews noindex by itself but not
 * branch deploys, so any build that is not production (or local) says noindex for every file.
 */
export function contextHeaders(context: string | undefined): string | undefined {
  if (!context || context === 'production' || context === 'dev') return undefined;
  return `# Written by the build for the "${context}" deploy context: only production is for search engines.\n/*\n  X-Robots-Tag: noindex, nofollow\n`;
}

/** Writes `_headers` into the build from Netlify's CONTEXT variable. */
export function deployContextHeaders(context = process.env.CONTEXT): AstroIntegration {
  return {
    name: 'deploy-context-headers',
    hooks: {
      'astro:build:done': ({ dir, logger }) => {
        const headers = contextHeaders(context);
        if (!headers) return;
        writeFileSync(new URL('_headers', dir), headers);
        logger.info(`${context} build: every response says X-Robots-Tag: noindex`);
      },
    },
  };
}
