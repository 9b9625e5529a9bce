// functions/_lib/admin is what only the admin endpoints use: login and session, the dashboard's figures, the CSV export.
/**
 * CSV export (RFC 4180) that spreadsheets cannot be tricked into running, whichever list
 * separator the reader's locale uses: Excel in most of Europe splits on `;`, not `,`.
 */
import type { Attribution } from '../../../src/shared/records';

/** Characters that end a cell in some reader: both list separators, the quote, tab and line breaks. */
const SEPARATORS = /[;,"\t\r\n]/;

/**
 * A formula character at the start of the cell, or right after anything a reader may have
 * split the cell on: each is prefixed with ' so the spreadsheet shows text, never a formula.
 */
const FORMULA_AFTER_SEPARATOR = /(?<=^|[;,"\t\r\n])(?=[=+\-@\t\r])/g;

/** Excel reads a file without a byte order mark as the locale's code page and garbles accents. */
export const UTF8_BOM = '\uFEFF';

export function csvCell(value: unknown): string {
  const text = value === undefined || value === null ? '' : Array.isArray(value) ? value.join('; ') : String(value);
  const safe = text.replace(FORMULA_AFTER_SEPARATOR, "'");
  return SEPARATORS.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A byte order mark, a header row and one row per record, with CRLF line ends as RFC 4180 says. */
export function toCsv<T>(columns: { header: string; value: (row: T) => unknown }[], rows: T[]): string {
  const lines = [columns.map((column) => csvCell(column.header)).join(',')];
  for (const row of rows) lines.push(columns.map((column) => csvCell(column.value(row))).join(','));
  return `${UTF8_BOM}${lines.join('\r\n')}\r\n`;
}

/** A CSV file to download, named after what it holds and the day. */
export function csvDownload(name: string, csv: string): Response {
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${name}-${new Date().toISOString().slice(0, 10)}.csv"`,
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/** The first-touch columns leads and subscribers share. */
export const ATTRIBUTION_COLUMNS: { header: string; value: (row: { attribution?: Attribution }) => unknown }[] = [
  { header: 'landing_page', value: (row) => row.attribution?.landingPage },
  { header: 'referrer', value: (row) => row.attribution?.referrer },
  { header: 'utm_source', value: (row) => row.attribution?.utm_source },
  { header: 'utm_medium', value: (row) => row.attribution?.utm_medium },
  { header: 'utm_campaign', value: (row) => row.attribution?.utm_campaign },
  { header: 'utm_term', value: (row) => row.attribution?.utm_term },
  { header: 'utm_content', value: (row) => row.attribution?.utm_content },
];
