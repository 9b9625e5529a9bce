import type { ClientDirective } from 'astro';

/** What shows that a person reaches for an island: a pointer over it, a touch, a focus or typing inside it. */
const REACHING = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown', 'input'] as const;

/** How long a send asked for before the island ran is kept for it: a slow phone's load and more. */
const HELD_SEND_MS = 15_000;

/**
 * Keeps a send a person asks for before the island has run: a tap or click on the submit button
 * (disabled until then, so the browser itself drops it) or Enter in one of the fields. `release`
 * waits for the island to make its button live and then sends it, as if asked for then, so that
 * the first tap shows the form's messages or sends it rather than doing nothing. A press on a
 * button already live is the browser's to send, and is left alone.
 */
function holdSend(element: HTMLElement) {
  let held: HTMLButtonElement | undefined;
  const hold = (button: HTMLButtonElement | null | undefined) => {
    if (button?.disabled) held = button;
  };
  // A disabled button takes no pointer events (`pointer-events: none`): the press lands on what
  // is under it, so the button is found by where the press was.
  const onPointerUp = (event: PointerEvent) => {
    if (event.button !== 0) return;
    const pressed = [...element.querySelectorAll<HTMLButtonElement>('button[type="submit"]')].find((button) => {
      const box = button.getBoundingClientRect();
      return (
        box.left <= event.clientX &&
        event.clientX <= box.right &&
        box.top <= event.clientY &&
        event.clientY <= box.bottom
      );
    });
    hold(pressed);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const field = event.target;
    if (event.key === 'Enter' && field instanceof HTMLInputElement && field.form)
      hold(field.form.querySelector<HTMLButtonElement>('button[type="submit"]'));
  };
  element.addEventListener('pointerup', onPointerUp);
  element.addEventListener('keydown', onKeyDown);

  return async function release() {
    // The island renders after hydrate() returns; its first render enables the button.
    const button = element.querySelector<HTMLButtonElement>('button[type="submit"]');
    const since = Date.now();
    await new Promise<void>((resolve) => {
      const check = () => {
        if (!button?.isConnected || !button.disabled || Date.now() - since > HELD_SEND_MS) resolve();
        else requestAnimationFrame(check);
      };
      check();
    });
    element.removeEventListener('pointerup', onPointerUp);
    element.removeEventListener('keydown', onKeyDown);
    if (held?.isConnected && !held.disabled) held.form?.requestSubmit(held);
  };
}

/**
 * `client:interaction` hydrates an island the first time a person reaches for it. Its server-
 * rendered markup shows at once; its JavaScript (a form's, about 110 KB) loads only for someone
 * about to use it, not for every reader of a page where the form is merely in view. The
 * directive itself arrives after the first paint: someone already in the form, or over it, by
 * then has reached for it. A send asked for while the island loads is made once it has run.
 */
const interactionDirective: ClientDirective = (load, _options, element) => {
  const release = holdSend(element);
  const start = async () => {
    for (const name of REACHING) element.removeEventListener(name, start);
    const hydrate = await load();
    await hydrate();
    await release();
  };
  if (element.contains(document.activeElement) || element.querySelector(':hover')) {
    void start();
    return;
  }
  for (const name of REACHING) element.addEventListener(name, start, { passive: true });
};

export default interactionDirective;
