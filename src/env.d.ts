/// <reference types="astro/client" />

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate when this event is first dispatched on window (`name`), or its `key` is first pressed. */
    'client:event'?: string | { name: string; key?: string };
    /** Hydrate when a person first reaches for the island: a pointer over it, a touch, a focus or typing inside it. */
    'client:interaction'?: boolean;
  }
}

// A module file, so the declaration above extends Astro's types instead of replacing them.
export {};
