import type { ImageMetadata } from 'astro';

// The same files seen two ways: as the images the build emits (for their URLs) and as text.
const IMAGES = import.meta.glob<ImageMetadata>('/content/images/**/*.svg', { import: 'default', eager: true });
const TEXTS = import.meta.glob<string>('/content/images/**/*.svg', { query: '?raw', import: 'default', eager: true });

const TEXT_BY_URL = new Map(
  Object.entries(IMAGES).flatMap(([file, image]) => {
    const text = TEXTS[file];
    return text === undefined ? [] : [[image.src, text] as const];
  }),
);

/** SVG text as a `data:` URL, to write an image into the page that shows it. */
export function svgDataUrlOf(text: string): string {
  return `data:image/svg+xml,${encodeURIComponent(text.trim())}`;
}

/**
 * An illustration of content/ as a `data:` URL, for the one image a page shows first: written
 * into the page, it paints with the text instead of a round trip later (a kilobyte or two, and
 * that page's own picture, so nothing is lost to caching). Undefined for any other image.
 */
export function svgDataUrl(image: ImageMetadata): string | undefined {
  const text = TEXT_BY_URL.get(image.src);
  return text === undefined ? undefined : svgDataUrlOf(text);
}
