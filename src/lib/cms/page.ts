/**
 * The CMS page at /admin/cms/ and what differs between the deployed CMS and the local one: pure,
 * so the unit tests read it (./config.ts, which reads the content schemas, cannot be).
 */
type Env = Record<string, string | undefined>;

/** Where the vendored bundle sits (scripts/cms/vendor-decap.ts puts it there). */
export const DECAP_SCRIPT = '/admin/cms/decap/decap-cms.js';

/** What differs between the deployed CMS and the local one. */
export interface CmsSettings {
  /** `owner/name` of the GitHub repository editors' changes go to. */
  repo: string;
  /** The branch the site is built from, which Publish merges into. */
  branch: string;
  /** The production site, for the CMS's "view live" links. */
  siteUrl: string;
  /** In `astro dev` (`npm run cms`): the port of decap-server, the local backend. */
  localBackendPort?: number;
}

/** The placeholder repository of a build that knows none: the CMS then works with the local backend only. */
export const UNKNOWN_REPO = 'OWNER/REPOSITORY';

/** `owner/name` from CMS_GITHUB_REPO, or from the repository URL Netlify gives its builds. */
export function githubRepo(env: Env): string {
  const explicit = env.CMS_GITHUB_REPO?.trim();
  if (explicit) return explicit;
  const match = /github\.com[/:]([\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/.exec(env.REPOSITORY_URL?.trim() ?? '');
  return match?.[1] ?? UNKNOWN_REPO;
}

export function cmsSettings(env: Env, dev: boolean, siteUrl: string): CmsSettings {
  const port = Number(env.CMS_BACKEND_PORT || 8081);
  return {
    repo: githubRepo(env),
    branch: env.CMS_GITHUB_BRANCH?.trim() || 'main',
    siteUrl,
    ...(dev ? { localBackendPort: port } : {}),
  };
}

/**
 * The CMS page's policy. Decap compiles its configuration's schema with `eval` (script-src
 * 'unsafe-eval') and styles its interface with injected style elements (style-src
 * 'unsafe-inline'); an upload is held as a blob: URL, shown from it (img-src) and read back from it
 * when the entry is saved (connect-src). Deployed, it talks to GitHub's
 * API (and GitHub's status page, to warn when GitHub is down) and shows GitHub avatars; locally,
 * to decap-server. Nothing else: the bundle and its chunks are the site's own files.
 */
export function cmsPolicy(settings: CmsSettings): string {
  const connect = settings.localBackendPort
    ? [`http://localhost:${settings.localBackendPort}`]
    : ['https://api.github.com', 'https://www.githubstatus.com'];
  const images = settings.localBackendPort ? [] : ['https://avatars.githubusercontent.com'];
  return [
    "default-src 'self'",
    "script-src 'self' 'unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' blob:", ...images].join(' '),
    ["connect-src 'self' blob:", ...connect].join(' '),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}

/**
 * What the page says when the build has no bundle: `npm install` and a local `npm run build` go on
 * without it when the registry cannot give it (offline, a mirror without decap-cms), and a page
 * loading a missing script would be blank. A Netlify build stops instead (scripts/cms/vendor-decap.ts).
 */
const MISSING_BUNDLE = `<main>
      <h1>The content manager is not installed here</h1>
      <p>Its editing screen (the browser bundle of Decap CMS) was not fetched when the site's packages were installed: the package registry could not be reached, or it has no <code>decap-cms</code> package.</p>
      <p>On your machine, run <code>npm run cms:vendor</code>, then <code>npm run build</code> again; under <code>npm run cms</code>, reload this page once it has run. On Netlify, each build fetches it, and a build that cannot stops there with the reason in its deploy log, so a deploy never ships without it.</p>
    </main>`;

/**
 * The CMS page: Decap's bundle, then the site's additions (preview templates, a save rule); Decap
 * reads ./config.yml by itself. Without the bundle (`bundled` false), a page saying how to fetch it.
 */
export function cmsPage(settings: CmsSettings, brand: string, bundled = true): string {
  const title = `Content manager · ${brand}`.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
  const body = bundled
    ? `<script src="${DECAP_SCRIPT}"></script>
    <script src="/admin/cms/extensions.js"></script>`
    : MISSING_BUNDLE;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="robots" content="noindex, nofollow">
    <meta http-equiv="content-security-policy" content="${cmsPolicy(settings)}">
    <title>${title}</title>${bundled ? '' : '\n    <style>body { font: 1rem/1.5 system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; }</style>'}
  </head>
  <body>
    ${body}
  </body>
</html>
`;
}
