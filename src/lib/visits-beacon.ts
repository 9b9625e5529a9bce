/**
 * The page's view, reported for the Visits figures (POST /api/visits): once the page has loaded
 * and its largest paint is on screen, one beacon with the path, the referring site and the
 * campaign in the address. Nothing is kept in the browser; the server counts the view under a
 * hash it cannot turn back into a person.
 */
import { VISITS_PATH } from '../shared/pages';
import { firstTouch } from './attribution';

/** Pages the owner reads, never counted; tools that drive the browser (WebDriver) are not people. */
const skipped = () => location.pathname.startsWith('/admin') || navigator.webdriver;

function send(): void {
  const touch = firstTouch(new URL(location.href), document.referrer);
  const body = JSON.stringify({
    path: location.pathname,
    referrer: touch.referrer,
    utm_source: touch.utm_source,
    utm_medium: touch.utm_medium,
    utm_campaign: touch.utm_campaign,
  });
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
  if (skipped()) return;
  if (document.readyState === 'complete') afterPaint();
  else addEventListener('load', afterPaint, { once: true });
}
