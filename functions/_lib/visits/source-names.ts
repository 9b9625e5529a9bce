// functions/_lib/visits counts views without knowing who made them.
/**
 * One name for each site that sends visitors under several: the referring host a browser reports
 * (`www.google.co.uk`, `lnkd.in`) and the `utm_source` people write in their links (`google`,
 * `LinkedIn`, `linkedin.com`) are one source in the figures, or one site would be split over
 * rows that the owner has to add up. A maintained list: add a site, a host or a spelling here, and
 * the unit test beside it (tests/unit/source-names.test.ts). A host or spelling not listed stays
 * the source it was (a host without `www.`).
 */

/** A site and the names it arrives under. */
export interface KnownSource {
  /** The one name it is counted and shown under. */
  name: string;
  /**
   * Its host names, each with its subdomains (`facebook.com` holds `l.facebook.com`). `google.*`
   * is the name under every country's domain: `google.de`, `google.co.uk`, `google.com.au`.
   */
  hosts: readonly string[];
  /** `utm_source` spellings besides the name, compared without case, spaces, hyphens or underscores. */
  spellings: readonly string[];
}

/**
 * The first entry a host matches names it, so a site inside another's domain comes before it:
 * Gemini and Gmail before Google, Yahoo Mail before Yahoo.
 */
export const KNOWN_SOURCES: readonly KnownSource[] = [
  {
    name: 'E-mail',
    hosts: [
      'mail.google.com',
      'outlook.live.com',
      'outlook.office.com',
      'outlook.office365.com',
      'mail.yahoo.com',
      'mail.proton.me',
      'mail.aol.com',
      'mail.zoho.com',
      'mail.zoho.eu',
      'app.fastmail.com',
      'mail.yandex.ru',
      'substack.com',
      'beehiiv.com',
    ],
    spellings: [
      'email',
      'mail',
      'newsletter',
      'gmail',
      'outlook',
      'mailchimp',
      'brevo',
      'sendinblue',
      'substack',
      'beehiiv',
      'buttondown',
      'convertkit',
      'mailerlite',
    ],
  },
  { name: 'ChatGPT', hosts: ['chatgpt.com', 'chat.openai.com'], spellings: ['openai'] },
  { name: 'Perplexity', hosts: ['perplexity.ai'], spellings: [] },
  { name: 'Claude', hosts: ['claude.ai'], spellings: ['anthropic'] },
  { name: 'Gemini', hosts: ['gemini.google.com', 'bard.google.com'], spellings: ['bard'] },
  { name: 'Copilot', hosts: ['copilot.microsoft.com', 'copilot.cloud.microsoft'], spellings: ['microsoft copilot'] },
  { name: 'Google', hosts: ['google.*'], spellings: ['google ads', 'adwords'] },
  { name: 'Bing', hosts: ['bing.com'], spellings: ['microsoft ads'] },
  { name: 'DuckDuckGo', hosts: ['duckduckgo.com'], spellings: ['ddg'] },
  { name: 'Yahoo', hosts: ['yahoo.com', 'search.yahoo.co.jp'], spellings: [] },
  { name: 'Ecosia', hosts: ['ecosia.org'], spellings: [] },
  { name: 'LinkedIn', hosts: ['linkedin.com', 'lnkd.in'], spellings: [] },
  { name: 'Facebook', hosts: ['facebook.com', 'fb.com', 'fb.me'], spellings: ['fb'] },
  { name: 'X', hosts: ['x.com', 'twitter.com', 't.co'], spellings: ['twitter'] },
  { name: 'Instagram', hosts: ['instagram.com'], spellings: ['ig'] },
  { name: 'YouTube', hosts: ['youtube.com', 'youtu.be'], spellings: ['yt'] },
  { name: 'Reddit', hosts: ['reddit.com', 'redd.it'], spellings: [] },
  { name: 'Hacker News', hosts: ['news.ycombinator.com'], spellings: ['hn', 'ycombinator'] },
];

/** A spelling as it is compared: `Hacker-News`, `hacker_news` and `hackernews` are one. */
const spellingKey = (value: string) => value.toLowerCase().replace(/[\s_-]+/g, '');

const BY_SPELLING = new Map(
  KNOWN_SOURCES.flatMap((site) => [site.name, ...site.spellings].map((spelling) => [spellingKey(spelling), site.name])),
);

/** Whether a host is a pattern's: itself or one of its subdomains. */
function hostTest(pattern: string): (host: string) => boolean {
  const escaped = pattern.replace(/\.\*$/, '').replaceAll('.', '\\.');
  // `google.*`: the name, then a country's top-level domain, or `co.` or `com.` and one.
  const anyCountry = pattern.endsWith('.*');
  const expression = new RegExp(`(?:^|\\.)${escaped}${anyCountry ? '\\.(?:com?\\.)?[a-z]{2,3}' : ''}$`);
  return (host) => expression.test(host);
}

const BY_HOST = KNOWN_SOURCES.map((site) => ({ name: site.name, tests: site.hosts.map(hostTest) }));

/**
 * The one name of a referring host or a `utm_source` the list knows (`www.google.co.uk` and
 * `google` are `Google`), or undefined for one it does not.
 */
export function knownSource(value: string): string | undefined {
  const spelled = BY_SPELLING.get(spellingKey(value.trim()));
  if (spelled) return spelled;
  const host = value.trim().toLowerCase().replace(/\.$/, '');
  return BY_HOST.find((site) => site.tests.some((test) => test(host)))?.name;
}
