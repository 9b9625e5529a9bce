/**
 * Decap CMS's configuration, built from the environment of the build (or of `astro dev`) and the
 * content schemas (./collections.ts).
 */
import { cmsCollections } from './collections';
import type { CmsSettings } from './page';

/** Decap's `config.yml`, as an object. */
export function decapConfig(settings: CmsSettings) {
  return {
    backend: {
      name: 'github',
      repo: settings.repo,
      branch: settings.branch,
      // Login goes through Netlify's OAuth provider for GitHub (docs/editors.md: "Turning the CMS on").
      base_url: 'https://api.netlify.com',
      auth_endpoint: 'auth',
      squash_merges: true,
    },
    // Each saved draft is a branch and pull request with its own deploy preview; Publish merges it.
    publish_mode: 'editorial_workflow',
    ...(settings.localBackendPort
      ? { local_backend: { url: `http://localhost:${settings.localBackendPort}/api/v1` } }
      : {}),
    site_url: settings.siteUrl,
    display_url: settings.siteUrl,
    // Collections and fields say where their uploads go; this is the fallback.
    media_folder: 'content/images',
    public_folder: '../images',
    slug: { encoding: 'ascii', clean_accents: true, sanitize_replacement: '-' },
    collections: cmsCollections(),
  };
}
