// functions/_lib/visits counts views without knowing who made them.
/**
 * What a counted source or campaign may say. Both come from whoever wrote the link or sent the
 * view, and the owner reads them word for word, in the Visits tables and in the weekly letter,
 * where mail apps make anything shaped like an address a link: a source such as `Visit
 * https://evil.example/login to fix your site` would be a message to the owner in the site's own
 * voice. So a value is counted under its own name only when it reads as a name.
 */
import { OTHER_VALUE } from '../store/visits';

/** The longest source or campaign counted under its own name, in characters. */
export const COUNTED_VALUE_MAX = 60;

/**
 * Letters (with the accents and vowel signs some scripts write as marks) and digits of any
 * script, spaces, dots, hyphens and underscores, starting with a letter or digit.
 */
const NAME = /^[\p{L}\p{N}][\p{L}\p{M}\p{N} ._-]*$/u;

/**
 * The value as counted: itself when it is a name of at most COUNTED_VALUE_MAX characters, else
 * OTHER_VALUE (the row that also gathers the values past a day's cap).
 */
export function countedValue(value: string): string {
  // One form of é: composed, as people type it, not e and a combining accent.
  const name = value.normalize('NFC').trim();
  return [...name].length <= COUNTED_VALUE_MAX && NAME.test(name) ? name : OTHER_VALUE;
}
