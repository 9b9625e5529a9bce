import { describe, expect, test } from 'vitest';
import { csvCell, toCsv } from '../../functions/_lib/csv';

describe('csv export', () => {
  test.each([
    ['plain', 'plain'],
    ['with, comma', '"with, comma"'],
    ['with "quotes"', '"with ""quotes"""'],
    ['two\r\nlines', '"two\r\nlines"'],
    ['=HYPERLINK("http://evil.example")', '"\'=HYPERLINK(""http://evil.example"")"'],
    ['+1 555 0100', "'+1 555 0100"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['Zoë 🚀', 'Zoë 🚀'],
  ])('writes %j as %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  test('writes empty cells for missing values and joins lists', () => {
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(['a', 'b'])).toBe('a; b');
  });

  test('has a header row and CRLF line ends', () => {
    const csv = toCsv([{ header: 'name', value: (row: { name: string }) => row.name }], [{ name: 'Ada' }, { name: 'Grace, Admiral' }]);
    expect(csv).toBe('name\r\nAda\r\n"Grace, Admiral"\r\n');
  });
});
