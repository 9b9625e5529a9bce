import type { ImageMetadata } from 'astro';
import { inlineSvg, type InlineSvg } from './inline-svg';

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
 * How many cards of a list draw their illustration with the page, written into it: the one a phone
 * shows on its first screen. The others are lazy images, fetched as they near the screen.
 */
export const CARDS_SHOWN_AT_LOAD = 1;

/** An id prefix of the file's own: its name in the build, as `saas-DaXhWcQ_`. */
function idPrefix(image: ImageMetadata): string {
  const name = image.src.split('?')[0]?.split('/').pop() ?? 'svg';
  return name.replace(/\.svg$/i, '').replace(/[^\w-]+/g, '-');
}

/**
 * An illustration of content/ as an `<svg>` to write into the page that shows it near the top:
 * it paints with the text instead of a round trip later, a kilobyte or two once compressed.
 * Undefined for any other image, or one that cannot sit inside a page (see inline-svg.ts).
 */
export function svgMarkup(image: ImageMetadata): InlineSvg | undefined {
  const text = TEXT_BY_URL.get(image.src);
  return text === undefined ? undefined : inlineSvg(text, idPrefix(image), image);
}

/** An illustration of content/ as a `data:` URL, for one that cannot be written in as markup. */
export function svgDataUrl(image: ImageMetadata): string | undefined {
  const text = TEXT_BY_URL.get(image.src);
  return text === undefined ? undefined : svgDataUrlOf(text);
}
