/// <reference types="astro/client" />

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate when this event is first dispatched on window. */
    'client:event'?: string;
  }
}

// A module file, so the declaration above extends Astro's types instead of replacing them.
export {};
