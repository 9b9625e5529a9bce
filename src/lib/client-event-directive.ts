import type { ClientDirective } from 'astro';

/** `client:event="name"`, or `client:event={{ name, key }}` for an island that also answers a key. */
type EventOptions = string | { name?: string; key?: string };

/**
 * `client:event="name"` hydrates an island the first time `name` is dispatched on window, so a
 * component nobody needs yet (the toaster) costs no JavaScript until it is needed. With `key` (a
 * `KeyboardEvent.code`, such as `F8`), pressing that key before then hydrates it too, and the press
 * is made again once the island has rendered, so that the key does there what it is for (F8
 * reaches the notification area) rather than only bringing the island. A hydration that fails
 * (its script could not be fetched: the connection dropped) is tried again at the next event, so
 * the island comes once the connection is back.
 */
const eventDirective: ClientDirective = (load, options, element) => {
  const value = options.value as EventOptions;
  const { name = 'hydrate', key } = typeof value === 'string' ? { name: value || undefined } : (value ?? {});
  let hydrating: Promise<void> | undefined;
  let hydrated = false;
  const hydrateOnce = () =>
    (hydrating ??= (async () => {
      // Astro's loader reports a script that could not be fetched and hands back a hydration that
      // does nothing; the island then still carries its `ssr` mark, which hydrating removes.
      const hydrate = await load();
      await hydrate();
      if (element.hasAttribute('ssr')) hydrating = undefined;
      else hydrated = true;
    })());
  const onEvent = () => {
    void hydrateOnce().then(() => {
      if (hydrated) removeEventListener(name, onEvent);
    });
  };
  addEventListener(name, onEvent);
  if (!key) return;
  const onKey = (event: KeyboardEvent) => {
    if (event.code !== key) return;
    // There already: the island answered the key itself. Not yet, or on its way (a form brought
    // it): the press came before the island listened, so it is made again once it has rendered.
    if (hydrated) {
      removeEventListener('keydown', onKey);
      return;
    }
    void hydrateOnce().then(() => {
      if (!hydrated) return;
      removeEventListener('keydown', onKey);
      pressAgainOnceRendered(element, event);
    });
  };
  addEventListener('keydown', onKey);
};

/** Presses `event`'s key again once the island shows something, after its effects have run. */
function pressAgainOnceRendered(element: HTMLElement, event: KeyboardEvent) {
  const press = () =>
    requestAnimationFrame(() =>
      setTimeout(() =>
        document.dispatchEvent(new KeyboardEvent('keydown', { key: event.key, code: event.code, bubbles: true })),
      ),
    );
  if (element.firstElementChild) return press();
  const observer = new MutationObserver(() => {
    if (!element.firstElementChild) return;
    observer.disconnect();
    press();
  });
  observer.observe(element, { childList: true });
}

export default eventDirective;
