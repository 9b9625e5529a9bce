import type { ClientDirective } from 'astro';

/** What shows that a person reaches for an island: a pointer over it, a touch, a focus or typing inside it. */
const REACHING = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown', 'input'] as const;

/**
 * `client:interaction` hydrates an island the first time a person reaches for it. Its server-
 * rendered markup shows at once; its JavaScript (a form's, about 110 KB) loads only for someone
 * about to use it, not for every reader of a page where the form is merely in view. The
 * directive itself arrives after the first paint: someone already in the form, or over it, by
 * then has reached for it.
 */
const interactionDirective: ClientDirective = (load, _options, element) => {
  const start = async () => {
    for (const name of REACHING) element.removeEventListener(name, start);
    const hydrate = await load();
    await hydrate();
  };
  if (element.contains(document.activeElement) || element.querySelector(':hover')) {
    void start();
    return;
  }
  for (const name of REACHING) element.addEventListener(name, start, { passive: true });
};

export default interactionDirective;
