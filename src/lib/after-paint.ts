/**
 * Calls `then` once the page has shown: when the browser reports its first contentful paint, or,
 * where it reports no paints, after the next frame. A tab opened in the background paints only
 * when shown, so three seconds after the page has been read `then` runs anyway.
 *
 * It sets a timer rather than waiting for the load event: a page that listens for load runs that
 * listener in the task that lays the page out for its first paint (nothing else is loading), and a
 * first call of a function on a phone's cold page costs milliseconds.
 *
 * The first paint is awaited as reported, not a frame after the parse: a paint is reported some
 * milliseconds after its frame, and a request that ended before it would still be counted against
 * the page's largest paint.
 */
function afterFirstPaint(then: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    then();
  };
  if (typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      setTimeout(once);
    }).observe({ type: 'paint', buffered: true });
    setTimeout(once, 3000);
  } else {
    requestAnimationFrame(() => setTimeout(once));
  }
}

/**
 * Holds a press on a button the page's scripts bring to life (Get Started, the menu), made before
 * those scripts have come: the last one is pressed again once they have run, so that it is not
 * lost. Links and submit buttons work without them, and are left alone.
 */
function holdEarlyPresses(): () => void {
  let pressed: HTMLButtonElement | undefined;
  const hold = (event: MouseEvent) => {
    const button = event.target instanceof Element ? event.target.closest('button') : null;
    if (!button || button.type !== 'button' || button.disabled) return;
    event.preventDefault();
    event.stopPropagation();
    pressed = button;
  };
  document.addEventListener('click', hold, true);
  return () => {
    document.removeEventListener('click', hold, true);
    if (pressed?.isConnected) pressed.click();
  };
}

/** Settles when each element has loaded or failed to. */
const loadedAll = (elements: Element[]) =>
  Promise.all(
    elements.map(
      (element) =>
        new Promise((settle) => {
          element.addEventListener('load', settle, { once: true });
          element.addEventListener('error', settle, { once: true });
        }),
    ),
  );

/** Where the build held back markup below the first screen (src/integrations/first-screen.ts). */
const HELD = 'noscript[data-later]';

/**
 * Settles once the browser has drawn its next frame, so that what is added then is styled and laid
 * out in a frame of its own; after a tenth of a second at the latest, as a tab in the background
 * draws no frames.
 */
const nextFrame = () =>
  new Promise<void>((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve));
    setTimeout(resolve, 100);
  });

/**
 * Keeps the reader's place across a reload or a return to the page (back, forward): the browser
 * restores it while the page loads, when the held markup has not come yet and the page is too
 * short to reach it. Gives that place once the markup has come, unless the reader has moved since.
 */
function placeToRestore(): () => number | undefined {
  const key = `scroll:${location.pathname}${location.search}`;
  let moved = false;
  for (const type of ['wheel', 'touchstart', 'keydown'])
    addEventListener(type, () => (moved = true), { once: true, passive: true });
  addEventListener('pagehide', () => {
    try {
      sessionStorage.setItem(key, String(Math.round(scrollY)));
    } catch {
      // Storage refused (a private window may): the browser's own restoring is all there is.
    }
  });
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  const returned = navigation?.type === 'reload' || navigation?.type === 'back_forward';
  return () => {
    if (!returned || moved) return undefined;
    try {
      const place = Number(sessionStorage.getItem(key));
      return place > 0 ? place : undefined;
    } catch {
      return undefined;
    }
  };
}

/**
 * Adds the markup the build held back below the first screen (src/integrations/first-screen.ts),
 * which the browser has kept as the text of each `<noscript data-later>`, as the markup it is, in
 * its place: each run in a frame of its own, after the frame that restyles the page with the whole
 * stylesheet, so that no one task holds the main thread long enough to make a tap wait. Then the
 * reader is taken where the browser could not take them before it came: back to their place on a
 * page they return to, or to the element the address's #fragment names, if they have not scrolled.
 */
async function addHeldMarkup(restore: () => number | undefined): Promise<void> {
  for (const held of document.querySelectorAll(HELD)) {
    await nextFrame();
    const range = document.createRange();
    range.selectNode(held);
    held.replaceWith(range.createContextualFragment(held.textContent ?? ''));
  }
  const place = restore();
  if (place !== undefined) return scrollTo(0, place);
  if (!location.hash || scrollY !== 0) return;
  let id = location.hash.slice(1);
  try {
    id = decodeURIComponent(id);
  } catch {
    // Not percent-encoded text: the fragment is looked up as it is.
  }
  document.getElementById(id)?.scrollIntoView();
}

/**
 * Adds what waits for the page to show, once it has, after `alsoThen` (what else the page does
 * then): the pictures not shown at load
 * (`<template data-after-paint>`), then what waits in `<template id="after-paint">`
 * (src/integrations/first-paint.ts): the whole stylesheet where the page carries the CSS of its
 * own markup, then, once that stylesheet is in, the markup held back below the first screen,
 * whose rules it brings, and the page's scripts, so that no island draws a state of its own
 * before the rules for it have come. Once they have run, `<html>` carries `data-scripts-ran`: the
 * page then answers every key and click.
 *
 * Before the first paint it only starts holding early presses and waits: the page's one script
 * runs as its parsing ends, in the task that lays it out for that paint, so all it does there
 * delays the paint (seen: about 2 ms on this site's pages, more on a phone). The reader's place is
 * looked for once the page has shown; it is only needed when the held markup comes, after that.
 */
export function loadAfterFirstPaint(alsoThen: () => void): void {
  const later = document.querySelector<HTMLTemplateElement>('template#after-paint');
  const release = later ? holdEarlyPresses() : undefined;
  afterFirstPaint(() => {
    alsoThen();
    const restore = document.querySelector(HELD) ? placeToRestore() : () => undefined;
    const addHeld = () => addHeldMarkup(restore);
    // Pictures not shown at load, each in the box kept for it (Illustration.astro).
    for (const picture of document.querySelectorAll<HTMLTemplateElement>('template[data-after-paint]'))
      picture.replaceWith(document.importNode(picture.content, true));
    const ran = () => document.documentElement.toggleAttribute('data-scripts-ran', true);
    if (!later) {
      void addHeld().finally(ran);
      return;
    }
    const content = document.importNode(later.content, true);
    const stylesheets = [...content.querySelectorAll('link[rel="stylesheet"]')];
    const scripts = [...content.querySelectorAll('script')];
    // Added by a script, a script runs as soon as it arrives; these run in their order in the
    // page, as they did written into it (Astro's island runtime reads what its directives set).
    for (const script of scripts) script.async = false;
    const styled = loadedAll(stylesheets);
    document.head.append(...stylesheets);
    // The scripts come even if adding the held markup failed, for what the page shows above it.
    void styled.then(addHeld).finally(() => {
      const loaded = loadedAll(scripts);
      document.head.append(content);
      void loaded.then(() => {
        release?.();
        ran();
      });
    });
  });
}
