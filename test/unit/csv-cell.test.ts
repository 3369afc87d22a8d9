import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, csvRecords, neutralizeCsvCell, restoreCsvCell } from '../../core/management/porting/csv-cell.js';

const FORMULA_START = /^[=+\-@\t\r]/;

describe('CSV cells and spreadsheet formulas (OWASP CSV injection)', () => {
  it.each([
    ['-2-3', "'-2-3"],
    ['=HYPERLINK("https://evil.example")', '\'=HYPERLINK("https://evil.example")'],
    ['+1', "'+1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\rx', "'\rx"],
    ['=1\n+2', "'=1\n+2"],
    ["'=x", "''=x"],
    ["'plain", "'plain"],
    ['https://example.com/-', 'https://example.com/-'],
    ['한글', '한글'],
    ['', ''],
  ])('writes %j as %j', (value, cell) => {
    expect(neutralizeCsvCell(value)).toBe(cell);
    expect(restoreCsvCell(cell)).toBe(value);
  });

  it('leaves numbers as numbers', () => {
    expect(neutralizeCsvCell(-1)).toBe(-1);
    expect(neutralizeCsvCell(7)).toBe(7);
  });

  it('never writes a text cell a spreadsheet reads as a formula, and reads every one back', () => {
    const text = fc.oneof(
      fc.string(),
      fc
        .array(fc.constantFrom("'", '=', '+', '-', '@', '\t', '\r', 'a', ','), { maxLength: 8 })
        .map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(text, (value) => {
        const cell = neutralizeCsvCell(value) as string;
        expect(cell).not.toMatch(FORMULA_START);
        expect(restoreCsvCell(cell)).toBe(value);
      }),
      { numRuns: 2000 },
    );
  });

  it('writes records with CRLF, quoting where RFC 4180 needs it, after neutralising', () => {
    expect(
      csvRecords([
        ['code', 'clicks'],
        ['-2-3', 3],
        ['a,"b"', 0],
      ]),
    ).toBe(`code,clicks\r\n'-2-3,3\r\n"a,""b""",0\r\n`);
  });
});

describe('csvCell', () => {
  it('writes every cell exactly as csvRecords does (the export writes its rows with it)', () => {
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: 'grapheme' }),
      fc.stringMatching(/^['=+\-@\t\r\n ",\ufeffa]{0,6}$/),
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(text, fc.integer()), { minLength: 1, maxLength: 7 }), (row) => {
        expect(`${row.map(csvCell).join(',')}\r\n`).toBe(csvRecords([row]));
      }),
      { numRuns: 2000 },
    );
  });
});
