/// <reference types="astro/client" />

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate when this event is first dispatched on window. */
    'client:event'?: string;
  }
}
