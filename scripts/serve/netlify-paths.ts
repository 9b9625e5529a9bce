/**
 * How Netlify's CDN maps a request path onto the files of a deploy (its "pretty URLs"), as
 * measured on a real deploy:
 *
 *   files present            /x                    /x/
 *   x.html                   200 from x.html       301 → /x
 *   x/index.html             301 → /x/             200 from x/index.html
 *   both                     200 from x.html       200 from x/index.html
 *
 * A path naming a file exactly (/x.html, /favicon.ico) is that file. The local server follows
 * this table, and the URL build test proves every link of the site lands on a file without a
 * redirect, so the two cannot drift apart. Pure: the caller says which files exist.
 */

export type Resolution =
  /** Served with 200 from this file, relative to the publish folder (`sectors/saas.html`). */
  | { kind: 'file'; file: string }
  /** Answered with a 301 to this path (still percent-encoded as it came; the query is the caller's). */
  | { kind: 'redirect'; location: string }
  /** No file: redirect rules, then the 404 page, decide. */
  | { kind: 'missing' }
  /** A percent-escape that does not decode (`%E0%A4%A`): no file can have that name. */
  | { kind: 'malformed' };

/** `relative` is a path inside the publish folder, without a leading slash; true when it is a file. */
export type IsFile = (relative: string) => boolean;

function decodePath(pathname: string): string | undefined {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
}

export function resolveStaticPath(pathname: string, isFile: IsFile): Resolution {
  const decoded = decodePath(pathname);
  if (decoded === undefined) return { kind: 'malformed' };
  // An encoded dot segment or NUL never names a file of the deploy (and must not leave the folder).
  if (
    !decoded.startsWith('/') ||
    decoded.includes('\0') ||
    decoded.split('/').some((segment) => segment === '..' || segment === '.')
  ) {
    return { kind: 'missing' };
  }
  const relative = decoded.slice(1);

  if (decoded.endsWith('/')) {
    const folder = relative.replace(/\/$/, '');
    if (isFile(folder ? `${folder}/index.html` : 'index.html'))
      return { kind: 'file', file: folder ? `${folder}/index.html` : 'index.html' };
    if (folder && isFile(`${folder}.html`)) return { kind: 'redirect', location: pathname.replace(/\/+$/, '') };
    return { kind: 'missing' };
  }
  if (isFile(relative)) return { kind: 'file', file: relative };
  if (isFile(`${relative}.html`)) return { kind: 'file', file: `${relative}.html` };
  if (isFile(`${relative}/index.html`)) return { kind: 'redirect', location: `${pathname}/` };
  return { kind: 'missing' };
}

/**
 * The origin a request's Host header names, or undefined when it names no host: user info
 * (`localhost:4321@evil.example`), a port past 65535, an unclosed `[`, a path. Such a request
 * reaches no site on Netlify; locally it answers 400 rather than fail on the URL it cannot make.
 */
export function hostOrigin(host: string): string | undefined {
  try {
    const url = new URL(`http://${host}`);
    const bare = !url.username && !url.password && url.pathname === '/' && !url.search && !url.hash;
    return bare && !/[/?#@\\]/.test(host) ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
