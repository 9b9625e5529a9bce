// src/shared holds what the pages and the functions both import, and ships to the browser: zod and this folder only.
/**
 * One spelling per address. Addresses that look the same, or deliver to the same inbox, must not
 * become records of their own: `victim@gmail.com` with a zero-width space, a soft hyphen in the
 * domain or fullwidth letters would otherwise be four subscribers that look identical in the
 * admin page, and erasing one would leave the others. Browser-safe: the URL parser applies the
 * IDNA rules (UTS 46) in browsers and Node alike.
 */

/** Characters no one sees: zero-width spaces, soft hyphens, joiners, word joiners, byte order marks, variation selectors. */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;
/** The same, but for the two joiners some scripts need inside a domain name; IDNA refuses them anywhere else. */
const INVISIBLE_BUT_JOINERS = /(?![\u200c\u200d])\p{Default_Ignorable_Code_Point}/gu;

/**
 * Latin, Cyrillic and Greek share letters that look alike (a and а, o and ο): a domain label that
 * mixes them is made to pass for another (`gmаil.com` with a Cyrillic а), and no registry allows
 * one, so an address with one is not taken. A label in one of them alone (`почта.com`) is.
 */
const LOOKALIKE_SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Cyrillic}/u, /\p{Script=Greek}/u];
const mixesLookalikes = (label: string) => LOOKALIKE_SCRIPTS.filter((script) => script.test(label)).length > 1;

/**
 * The Unicode form of a punycode label (RFC 3492, the part after `xn--`): undefined when it does
 * not decode. Only labels the URL parser produced reach it, so they are valid and short.
 */
function decodePunycode(input: string): string | undefined {
  const BASE = 36;
  const T_MIN = 1;
  const T_MAX = 26;
  const adapt = (delta: number, points: number, first: boolean) => {
    let scaled = first ? Math.floor(delta / 700) : delta >> 1;
    scaled += Math.floor(scaled / points);
    let k = 0;
    for (; scaled > ((BASE - T_MIN) * T_MAX) >> 1; k += BASE) scaled = Math.floor(scaled / (BASE - T_MIN));
    return k + Math.floor(((BASE - T_MIN + 1) * scaled) / (scaled + 38));
  };
  const digit = (code: number) =>
    code >= 0x30 && code <= 0x39 ? code - 22 : code >= 0x61 && code <= 0x7a ? code - 0x61 : BASE;

  const basic = Math.max(input.lastIndexOf('-'), 0);
  const output = Array.from(input.slice(0, basic), (character) => character.codePointAt(0) ?? 0);
  let n = 128;
  let bias = 72;
  let i = 0;
  for (let index = basic > 0 ? basic + 1 : 0; index < input.length;) {
    const before = i;
    for (let weight = 1, k = BASE; ; k += BASE) {
      const value = digit(input.charCodeAt(index++));
      if (value >= BASE) return undefined;
      i += value * weight;
      const threshold = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (value < threshold) break;
      weight *= BASE - threshold;
    }
    bias = adapt(i - before, output.length + 1, before === 0);
    n += Math.floor(i / (output.length + 1));
    i %= output.length + 1;
    if (n > 0x10ffff) return undefined;
    output.splice(i++, 0, n);
  }
  return String.fromCodePoint(...output);
}

/**
 * The one spelling of an address, or undefined when its domain is not a host name: compatibility
 * forms folded (NFKC: fullwidth letters, `＠`), invisible characters removed, trimmed, lower-cased,
 * and the domain as IDNA maps it (`。` is a dot, a soft hyphen nothing, capitals small), its
 * internationalised labels in Unicode: `x@xn--bcher-kva.de` and `X@BÜCHER.DE` are `x@bücher.de`.
 * Undefined too for a domain label that mixes look-alike scripts, in Unicode or in punycode.
 * Whether the result is a valid address is the schema's to say.
 */
export function normalEmail(input: string): string | undefined {
  const value = input.normalize('NFKC').replace(INVISIBLE_BUT_JOINERS, '').trim();
  const at = value.lastIndexOf('@');
  if (at <= 0) return undefined;
  const domain = value.slice(at + 1);
  if (!domain || /[/?#\\:@\s[\]%]/.test(domain)) return undefined;
  let ascii: string;
  try {
    ascii = new URL(`http://${domain}`).hostname;
  } catch {
    return undefined;
  }
  const labels = ascii.split('.').map((label) => (label.startsWith('xn--') ? decodePunycode(label.slice(4)) : label));
  if (labels.some((label) => label === undefined || mixesLookalikes(label))) return undefined;
  return `${value.slice(0, at).replace(INVISIBLE, '').toLowerCase()}@${labels.join('.')}`;
}
