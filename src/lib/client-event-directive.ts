import type { ClientDirective } from 'astro';

/**
 * `client:event="name"` hydrates an island the first time `name` is dispatched on window,
 * so a component nobody needs yet (the toaster) costs no JavaScript until it is needed.
 */
const eventDirective: ClientDirective = (load, options) => {
  const name = typeof options.value === 'string' && options.value ? options.value : 'hydrate';
  window.addEventListener(
    name,
    async () => {
      const hydrate = await load();
      await hydrate();
    },
    { once: true },
  );
};

export default eventDirective;
