import type { ClientDirective } from 'astro';

/** What shows that a person reaches for a form: a pointer over it, a touch, a focus or a key inside it. */
const REACHING = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;

/** How near the screen a form starts loading its script: a fast scroll's reach. */
const NEAR_MARGIN = '400px';

/** How long a held send waits for the island to take it: a slow phone's load and more. */
const HELD_SEND_MS = 15_000;

/**
 * `client:form` hydrates a form's island as it comes within 400 px of the screen, or as a person
 * reaches for it, whichever comes first; `client:form="reach"` only as a person reaches for it,
 * for a form in view on pages most readers only read (a form's script is about 110 KB).
 *
 * The form's button is live from the start. A send the island has not handled when it reaches the
 * document (asked for before the island ran, or while React was still hydrating it) would be the
 * browser's own, a reload of the page with the fields in its address: it is held instead, the
 * island brought at once, and the send made again, a frame at a time, until the island takes it.
 * So the first press shows the form's messages or sends it. A hydration that fails (the script
 * could not be fetched) is tried again at the next reach or send.
 */
const formDirective: ClientDirective = (load, options, element) => {
  let hydrating: Promise<void> | undefined;
  let observer: IntersectionObserver | undefined;

  function start() {
    hydrating ??= (async () => {
      const hydrate = await load();
      await hydrate();
      // Astro's loader reports a script it could not fetch and hands back a hydration that does
      // nothing; the island then keeps its `ssr` mark, which hydrating removes.
      if (element.hasAttribute('ssr')) {
        hydrating = undefined;
        return;
      }
      observer?.disconnect();
      for (const name of REACHING) element.removeEventListener(name, start);
    })();
    return hydrating;
  }

  // On the document, after the island's own listeners: a send that reaches it unprevented is one
  // the island did not handle.
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (event.defaultPrevented || !(form instanceof HTMLFormElement) || !element.contains(form)) return;
    event.preventDefault();
    const submitter = event.submitter instanceof HTMLButtonElement ? event.submitter : null;
    const since = (event as SubmitEvent & { heldSince?: number }).heldSince ?? Date.now();
    void start()?.then(() =>
      requestAnimationFrame(() => {
        if (!form.isConnected || Date.now() - since > HELD_SEND_MS) return;
        const again = new SubmitEvent('submit', { bubbles: true, cancelable: true, submitter });
        Object.assign(again, { heldSince: since });
        form.dispatchEvent(again);
      }),
    );
  });

  for (const name of REACHING) element.addEventListener(name, start, { passive: true });
  if (options.value !== 'reach') {
    observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void start();
      },
      { rootMargin: NEAR_MARGIN },
    );
    // An island's root is `display: contents`: its children are what is laid out.
    for (const child of element.children) observer.observe(child);
  }
  if (element.contains(document.activeElement) || element.querySelector(':hover')) void start();
};

export default formDirective;
