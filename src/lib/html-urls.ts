/** Addresses in rendered HTML, for HTML that leaves its page (an e-mail). Pure: no Astro, no DOM. */

/** A start tag as a markdown renderer writes it: attribute values in double quotes, which may hold `>`. */
const START_TAG = /<[a-zA-Z][\w-]*(?:\s+[^\s"'>/=]+(?:="[^"]*")?)*\s*\/?>/g;
/** Attributes that hold one URL, and `srcset`, which holds several, each followed by its size. */
const URL_ATTRIBUTE = /(\s(?:href|src)=")([^"]*)"/g;
const SRCSET_ATTRIBUTE = /(\ssrcset=")([^"]*)"/g;

/**
 * HTML with every link and image address made absolute against the page it comes from: an e-mail
 * has no page to resolve `/blog/x` or `#part` against. Only tags are read; text is left as it is.
 */
export function withAbsoluteUrls(html: string, pageUrl: string): string {
  const absolute = (value: string) => {
    if (!URL.canParse(value.trim(), pageUrl)) throw new Error(`"${value}" is not a link or image address.`);
    return new URL(value.trim(), pageUrl).href;
  };
  const srcset = (value: string) =>
    value
      .split(',')
      .map((candidate) => {
        const [url = '', ...size] = candidate.trim().split(/\s+/);
        return [absolute(url), ...size].join(' ');
      })
      .join(', ');
  return html.replace(START_TAG, (tag) =>
    tag
      .replace(URL_ATTRIBUTE, (_match, start: string, value: string) => `${start}${absolute(value)}"`)
      .replace(SRCSET_ATTRIBUTE, (_match, start: string, value: string) => `${start}${srcset(value)}"`),
  );
}
