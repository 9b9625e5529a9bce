import { describe, expect, test } from 'vitest';
import { csvCell, toCsv, UTF8_BOM } from '../../functions/_lib/admin/csv';

/**
 * Reads CSV text the way a spreadsheet does (RFC 4180 quoting), splitting on the given list
 * separator: `,` as in English locales, `;` as Excel does in most of Europe.
 */
function parseCsv(text: string, delimiter: ',' | ';'): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"' && cell === '') quoted = true;
    else if (char === delimiter) {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      index += 1;
    } else cell += char;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

const HOSTILE = [
  "x;=cmd|' /C calc'!A0;",
  '=HYPERLINK("http://evil.example")',
  'a,=1+1',
  'b;+SUM(A1)',
  'c;-2+3',
  'd,@SUM(A1)',
  'e\t=1',
  'f\r\n=1',
  '"; =1',
  '+1 555 0100',
  '@here',
];

describe('csv export', () => {
  test.each([
    ['plain', 'plain'],
    ['with, comma', '"with, comma"'],
    ['with; semicolon', '"with; semicolon"'],
    ['with "quotes"', '"with ""quotes"""'],
    ['two\r\nlines', '"two\r\nlines"'],
    ['a\ttab', '"a\ttab"'],
    ['=HYPERLINK("http://evil.example")', '"\'=HYPERLINK(""http://evil.example"")"'],
    ["x;=cmd|' /C calc'!A0;", "\"x;'=cmd|' /C calc'!A0;\""],
    ['+1 555 0100', "'+1 555 0100"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', '"\'\t\'=1"'],
    ['Zoë 🚀', 'Zoë 🚀'],
  ])('writes %j as %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  test('writes empty cells for missing values and joins lists', () => {
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(['a', 'b'])).toBe('"a; b"');
  });

  test('starts with a UTF-8 byte order mark, has a header row and CRLF line ends', () => {
    const csv = toCsv(
      [{ header: 'name', value: (row: { name: string }) => row.name }],
      [{ name: 'Ada' }, { name: 'Grace, Admiral' }],
    );
    expect(csv).toBe(`${UTF8_BOM}name\r\nAda\r\n"Grace, Admiral"\r\n`);
    expect(Buffer.from(csv, 'utf8').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  test.each([',', ';'] as const)('read with %j as the separator, no cell can start a formula', (delimiter) => {
    const columns = [
      { header: 'name', value: (row: { name: string; notes: string }) => row.name },
      { header: 'notes', value: (row: { name: string; notes: string }) => row.notes },
    ];
    const csv = toCsv(
      columns,
      HOSTILE.map((text) => ({ name: `Zoë ${text}`, notes: text })),
    );
    const cells = parseCsv(csv.slice(UTF8_BOM.length), delimiter).flat();
    expect(cells.length).toBeGreaterThan(HOSTILE.length);
    expect(cells.filter((cell) => /^[=+\-@]/.test(cell))).toEqual([]);
  });

  test('read with the separator it was written with, every value comes back whole', () => {
    const csv = toCsv([{ header: 'notes', value: (row: string) => row }], HOSTILE);
    const values = parseCsv(csv.slice(UTF8_BOM.length), ',')
      .slice(1)
      .map(([cell]) => cell?.replace(/'(?=[=+\-@\t\r])/g, ''));
    expect(values).toEqual(HOSTILE);
  });
});
