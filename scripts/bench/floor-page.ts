/**
 * The fastest whole document this site could serve: one HTML page of about 10 KB that links a
 * small stylesheet, the site's favicon and its manifest, as every page must (docs/benchmarks.md
 * says why the stylesheet is linked), and nothing else: no script, picture or font. The audit
 * measures it beside the real pages, on the same server with the same throttling, so that a
 * page's LCP reads as a ratio to what the network and the phone allow such a page at best.
 */

/** The names it is served under: pages come from src/pages, where a leading underscore never makes a route. */
export const FLOOR_FILE = '_audit-floor.html';
export const FLOOR_STYLESHEET = '_audit-floor.css';
export const BARE_FILE = '_audit-bare.html';

const TARGET_BYTES = 10 * 1024;

/** Enough words for the text to compress about as well as prose does (repeating one sentence would shrink to nothing). */
const WORDS =
  'automation invoice client booking reminder calendar team workflow report data form e-mail spreadsheet task hours week month owner customer service reply message record order stock supplier payment approval draft template document contract schedule follow-up lead pipeline dashboard integration sync update error manual copy paste check review rule trigger action step process tool small business office staff shift'.split(
    ' ',
  );
const GLUE = 'the a of to and in for with on that each every when then so it is are by from'.split(' ');

/** A fixed sequence of pseudo-random numbers, so the page is the same in every run. */
function* numbers(seed: number): Generator<number> {
  let state = seed;
  for (;;) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    yield state / 2 ** 31;
  }
}

function sentences(random: Generator<number>): string {
  const pick = <T>(list: T[]) => list[Math.floor(random.next().value * list.length)] ?? list[0];
  const lines: string[] = [];
  for (let line = 0; line < 4; line += 1) {
    const text = Array.from({ length: 12 }, (_, index) => (index % 3 === 1 ? pick(GLUE) : pick(WORDS))).join(' ');
    lines.push(`${text.charAt(0).toUpperCase()}${text.slice(1)}.`);
  }
  return lines.join(' ');
}

const STYLE = `*,::before,::after{box-sizing:border-box;margin:0}
html{-webkit-text-size-adjust:100%}
body{font-family:ui-sans-serif,system-ui,sans-serif;color:#0b1a33;background:#fff;line-height:1.6}
header{position:sticky;top:0;display:flex;align-items:center;justify-content:space-between;height:4rem;padding:0 1rem;border-bottom:1px solid #e9eef5;background:#fff}
header strong{font-size:1.125rem;font-weight:800}
main{max-width:68ch;margin:0 auto;padding:3rem 1rem}
h1{font-size:clamp(2.4rem,1.6rem + 3.6vw,4.25rem);line-height:1.05;letter-spacing:-.03em;font-weight:800}
.lead{margin-top:1.25rem;font-size:1.25rem;color:#445674}
p+p{margin-top:1.25rem}
main>p{font-size:1.125rem;color:#2a3d60}`;

/** The floor's stylesheet, served as its own file. */
export const floorStylesheet = (): string => STYLE;

/**
 * The floor document: about 10 KB, linking its stylesheet, the favicon and the manifest. `bare`
 * is the same text with its CSS inline and nothing to fetch (an empty icon keeps the browser
 * from asking for /favicon.ico): the fastest page possible, which no whole page can be, shown
 * beside the floor to say what linking costs.
 */
export function floorPage({ bare = false }: { bare?: boolean } = {}): string {
  const random = numbers(9);
  const linked = `<link rel="icon" href="/favicon.svg" type="image/svg+xml"><link rel="manifest" href="/manifest.webmanifest"><link rel="stylesheet" href="/${FLOOR_STYLESHEET}">`;
  const inline = `<link rel="icon" href="data:,"><style>${STYLE}</style>`;
  const head = (links: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Floor page</title><meta name="description" content="The page the audit measures every page against: ten kilobytes of plain text.">${links}</head>`;
  let body = `<body><header><strong>Floor</strong></header><main><h1>Automate work. Amplify impact.</h1><p class="lead">${sentences(random)}</p>`;
  const tail = '</main></body></html>';
  while (Buffer.byteLength(head(linked) + body + tail) < TARGET_BYTES) body += `<p>${sentences(random)}</p>`;
  return head(bare ? inline : linked) + body + tail;
}
