/**
 * What each public page holds as built, before any script runs: its headings, cards, calls to
 * action, links, dates, address and structured data. Read from dist/; what needs a browser (a
 * picture loaded, print styles, an animation's length) is in tests/e2e/pages.spec.ts.
 */
import { describe, expect, test } from 'vitest';
import { PAGE_TYPES } from '../../scripts/bench/page-types';
import { builtPage, jsonLd, textsOf } from '../support/built-page';
import { ALL_ROUTES, MINI_APP_SLUGS, POST_SLUGS, SECTOR_SLUGS } from '../support/routes';

const collapse = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

const isElement = (node: Node): node is Element => node.nodeType === node.ELEMENT_NODE;

/** The text of `node` a screen reader reads: without its aria-hidden parts. */
const spokenText = (node: Node): string =>
  isElement(node)
    ? node.getAttribute('aria-hidden') === 'true'
      ? ''
      : [...node.childNodes].map(spokenText).join('')
    : (node.textContent ?? '');

/** An element's accessible name as these pages give it: aria-label, alt, or its text without aria-hidden parts. */
function nameOf(element: Element): string {
  return collapse(element.getAttribute('aria-label') ?? element.getAttribute('alt') ?? spokenText(element));
}

/** The elements matching `selector` in `scope` whose accessible name matches `name`, none of them hidden. */
function named(scope: ParentNode, selector: string, name: string | RegExp): Element[] {
  return [...scope.querySelectorAll(selector)].filter(
    (element) =>
      !element.closest('[hidden], [aria-hidden="true"]') &&
      (typeof name === 'string' ? nameOf(element) === name : name.test(nameOf(element))),
  );
}

const typesOf = (document: Document) => jsonLd(document).map((block) => block['@type']);
const mainOf = (route: string) => {
  const main = builtPage(route).querySelector('main');
  if (!main) throw new Error(`${route} has no main`);
  return main;
};

describe('home', () => {
  test('has the hero, its two calls to action, three sectors, three mini-apps and a consultation call', () => {
    const page = builtPage('/');
    const main = mainOf('/');
    expect(textsOf(page, 'h1')).toEqual(['Automate Work. Amplify Impact.']);
    expect(named(page, 'a', 'Explore Sectors').map((link) => link.getAttribute('href'))).toEqual(['/sectors']);
    expect(named(main, 'button', 'Contact Us')).not.toHaveLength(0);
    expect(textsOf(main, 'section[aria-labelledby="sectors-title"] article :is(h2, h3)')).toEqual([
      'Property Management',
      'Creative Agencies',
      'Restaurant Management',
    ]);
    expect(main.querySelectorAll('section[aria-labelledby="sectors-title"] article')).toHaveLength(3);
    expect(main.querySelectorAll('section[aria-labelledby="apps-title"] article')).toHaveLength(3);
    expect(named(page, 'button', 'Schedule a Consultation')).not.toHaveLength(0);
    expect(typesOf(page)).toContain('ProfessionalService');
  });
});

describe('sectors', () => {
  test('the list shows all five sectors with their exact names', () => {
    expect(textsOf(mainOf('/sectors'), 'article h2')).toEqual([
      'Property Management',
      'Creative Agencies',
      'Restaurant Management',
      'SaaS/B2B',
      'Google/Zoho SMEs',
    ]);
  });

  test.each(SECTOR_SLUGS)(
    '/sectors/%s names its picture and shows its description, consultation button, related mini-apps and breadcrumbs',
    (slug) => {
      const page = builtPage(`/sectors/${slug}`);
      const main = mainOf(`/sectors/${slug}`);
      // The page's first picture: an SVG illustration drawn by the page, or the sector's WebP file.
      const [picture] = named(main, 'img, [role="img"]', /\S/);
      expect(picture).toBeDefined();
      if (picture?.localName !== 'svg')
        expect(`${picture?.getAttribute('src')} ${picture?.getAttribute('srcset') ?? ''}`).toMatch(
          new RegExp(`/_astro/${slug}\\.[\\w-]+\\.webp`),
        );
      expect(collapse(main.querySelector('.prose p')?.textContent)).not.toBe('');
      expect(named(page, 'button', 'Schedule a Consultation')).not.toHaveLength(0);
      expect(main.querySelectorAll('section[aria-labelledby="related-title"] article').length).toBeGreaterThan(0);
      expect(typesOf(page)).toContain('BreadcrumbList');
    },
  );
});

describe('mini-apps', () => {
  test('the list shows all thirteen, each linking to its page with a Request Demo button', () => {
    const main = mainOf('/mini-apps');
    const cards = main.querySelectorAll('article');
    expect(cards).toHaveLength(13);
    for (const slug of MINI_APP_SLUGS)
      expect(main.querySelectorAll(`article a[href="/mini-apps/${slug}"]`), slug).toHaveLength(1);
    expect([...cards].flatMap((card) => named(card, 'button', /^Request Demo/))).toHaveLength(13);
  });

  test('a mini-app page has its overview, best-for list, key benefits, sectors and Request Demo', () => {
    const page = builtPage('/mini-apps/automated-invoice-generator');
    const headings = textsOf(page, 'h1, h2, h3');
    for (const heading of ['Overview', 'Best for', 'Key benefits', 'Sectors']) expect(headings).toContain(heading);
    expect(named(page, 'button', 'Request Demo')).not.toHaveLength(0);
    expect(page.querySelector('section[aria-labelledby="sectors-title"] a[href^="/sectors/"]')).not.toBeNull();
  });
});

describe('blog', () => {
  test('lists every post with image, title, summary and "5 min read"', () => {
    const cards = [...mainOf('/blog').querySelectorAll('article')];
    expect(cards).toHaveLength(POST_SLUGS.length);
    for (const card of cards) {
      // The cover: drawn by the page for the first cards, an image file for later ones.
      expect(card.querySelector('svg, img')?.getAttribute('width')).toMatch(/\d+/);
      expect(textsOf(card, '*')).toContain('5 min read');
      expect(card.querySelector('time')?.getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  test('a post renders its markdown with a date, share links, back link and structured data', () => {
    const page = builtPage(`/blog/${POST_SLUGS[0]}`);
    expect(page.querySelector('article time')?.getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(page.querySelectorAll('.prose h2').length).toBeGreaterThan(1);
    expect(named(page, 'a', /Share on LinkedIn/)[0]?.getAttribute('href')).toMatch(
      /^https:\/\/www\.linkedin\.com\/sharing\/share-offsite\/\?url=https?%3A%2F%2F/,
    );
    expect(named(page, 'a', /Share on X/)[0]?.getAttribute('href')).toMatch(/^https:\/\/x\.com\/intent\/post\?url=/);
    expect(named(page, 'a', 'Back to blog')[0]?.getAttribute('href')).toBe('/blog');
    expect(jsonLd(page).find((block) => block['@type'] === 'BlogPosting')).toMatchObject({
      headline: expect.any(String),
      datePublished: expect.any(String),
      image: [expect.stringMatching(/^https?:\/\//)],
    });
  });
});

describe('contact, zoho and privacy', () => {
  test('contact promises a reply within 24 hours and shows e-mail and address', () => {
    const main = mainOf('/contact');
    expect(main.textContent).toMatch(/within 24 hours/);
    expect(main.querySelector('a[href^="mailto:"]')).not.toBeNull();
    // As a British address is written: the postal code after the town, on a line of its own.
    const address = main.querySelectorAll('address');
    expect(address).toHaveLength(1);
    expect(address[0]?.innerHTML.split(/<br\s*\/?>/).map(collapse)).toEqual([
      '12 Canal Street, Suite 4',
      'Manchester M1 3HE',
    ]);
    // The details beside the form promise what every other reply promise on the site does, no less.
    const responseTime = [...main.querySelectorAll('dt')].find((term) => term.textContent?.includes('Response time'));
    expect(collapse(responseTime?.nextElementSibling?.textContent)).toBe('Within 24 hours');
  });

  test('home and Zoho say the same of the 15-20 hours saved', () => {
    const claim = (route: string) => {
      const figures = [...mainOf(route).querySelectorAll('dd')].filter((figure) =>
        /^15-20 h/.test(collapse(figure.textContent)),
      );
      expect(figures, route).toHaveLength(1);
      const term = figures[0]?.parentElement?.querySelector('dt');
      return collapse(term?.textContent);
    };
    expect(claim('/')).not.toBe('');
    expect(claim('/')).toBe(claim('/zoho'));
  });

  test('zoho claims 15-20 hours per week and 50+ apps, with a free offer in its structured data', () => {
    const main = mainOf('/zoho');
    expect(main.textContent).toMatch(/15-20 hours/);
    expect(main.textContent).toMatch(/50\+ apps/);
    const service = jsonLd(builtPage('/zoho')).find((block) => block['@type'] === 'Service');
    expect(service?.offers).toMatchObject({ price: '0', priceCurrency: 'USD' });
  });

  test('the privacy policy is rendered from markdown', () => {
    const page = builtPage('/privacy-policy');
    expect(textsOf(page, 'h1')).toEqual(['Privacy Policy']);
    expect(page.querySelectorAll('.prose h2').length).toBeGreaterThan(3);
  });
});

describe.each(PAGE_TYPES.filter((type) => type.name !== 'admin login'))('the $name page ($route)', ({ route }) => {
  test('has text in main, the footer of 13 links, the SVG icon and the manifest', () => {
    const page = builtPage(route);
    expect(collapse(page.querySelector('main')?.textContent)).not.toBe('');
    expect(page.querySelectorAll('body > footer a[href]')).toHaveLength(13);
    expect(page.querySelector('link[rel="icon"]')?.getAttribute('href')).toBe('/favicon.svg');
    expect(page.querySelector('link[rel="manifest"]')?.getAttribute('href')).toBe('/manifest.webmanifest');
  });
});

test('titles are unique across pages', () => {
  const titles = new Map<string, string>();
  for (const route of ALL_ROUTES) {
    const title = builtPage(route).title;
    expect(titles.get(title), `${route} repeats the title of ${titles.get(title)}`).toBeUndefined();
    titles.set(title, route);
  }
});
