/**
 * The page's view, reported for the Visits figures (POST /api/visits): once the page has loaded
 * and its largest paint is on screen, one beacon with the path, the referring site and the
 * campaign in the address; nothing at all when the reader asked not to be followed. Nothing is
 * kept in the browser; the server counts the view under a hash it cannot turn back into a person.
 */
import { UNCOUNTED_PATH, VISITS_PATH } from '../shared/pages';
import type { VisitsRequest } from '../shared/schemas';
import { firstTouch } from './attribution';

/** What the script reads of the browser: Navigator, plus Global Privacy Control, which TypeScript's DOM types lack. */
export type Reader = Pick<Navigator, 'webdriver' | 'doNotTrack'> & { globalPrivacyControl?: boolean };

/**
 * Whether the page at `path` reports its view: not the owner's pages (UNCOUNTED_PATH, the
 * function's own rule), not a browser a tool drives (WebDriver), and nothing at all when the reader
 * asked not to be followed (Global Privacy Control, Do Not Track): the server would not count it,
 * and sending it would already be the following they declined.
 */
export function reportsView(path: string, reader: Reader): boolean {
  if (reader.globalPrivacyControl === true || reader.doNotTrack === '1') return false;
  return !reader.webdriver && !UNCOUNTED_PATH.test(path);
}

/**
 * The view as POST /api/visits takes it (`VisitsRequest`, which refuses any other field): the path,
 * the referring site and the campaign; no `utm_medium`, which the Visits figures do not keep.
 */
export function viewOf(url: URL, referrer: string): VisitsRequest {
  const touch = firstTouch(url, referrer);
  return {
    path: url.pathname,
    referrer: touch.referrer,
    utm_source: touch.utm_source,
    utm_campaign: touch.utm_campaign,
  };
}

function send(): void {
  const body = JSON.stringify(viewOf(new URL(location.href), document.referrer));
  // A string goes as text/plain: no preflight. A browser that queues no beacon sends nothing.
  navigator.sendBeacon?.(VISITS_PATH, body);
}

/**
 * Once the page's largest paint so far is on screen (the browser reports it after presenting it;
 * on a fast connection that can be after the load event), or, where the browser reports no such
 * paint, after the next frame. A tab opened in the background paints, and so reports, once shown.
 */
function afterPaint(): void {
  if (!PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')) {
    requestAnimationFrame(() => setTimeout(send));
    return;
  }
  const observer = new PerformanceObserver(() => {
    observer.disconnect();
    setTimeout(send);
  });
  observer.observe({ type: 'largest-contentful-paint', buffered: true });
}

export function sendVisitsBeacon(): void {
  if (!reportsView(location.pathname, navigator)) return;
  if (document.readyState === 'complete') afterPaint();
  else addEventListener('load', afterPaint, { once: true });
}
