/// <reference types="astro/client" />

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate when this event is first dispatched on window (`name`), or its `key` is first pressed. */
    'client:event'?: string | { name: string; key?: string };
    /**
     * A form: hydrate within 400 px of the screen or when a person reaches for it (`"reach"`: only
     * then), holding a send asked for before then until the island has run.
     */
    'client:form'?: boolean | 'reach';
  }
}

// A module file, so the declaration above extends Astro's types instead of replacing them.
export {};
