/** CSV export (RFC 4180) that spreadsheets cannot be tricked into running. */

/** Cells starting like a formula are prefixed with ' so spreadsheets show them as text. */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  let text = value === undefined || value === null ? '' : Array.isArray(value) ? value.join('; ') : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A header row and one row per record, CRLF line ends as RFC 4180 says. */
export function toCsv<T>(columns: { header: string; value: (row: T) => unknown }[], rows: T[]): string {
  const lines = [columns.map((column) => csvCell(column.header)).join(',')];
  for (const row of rows) lines.push(columns.map((column) => csvCell(column.value(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
