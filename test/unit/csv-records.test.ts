import Papa from 'papaparse';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type CsvDialect, MAX_RECORD_CHARS, recordAt } from '../../core/management/porting/csv-records.js';
import { readImportFile } from '../../core/management/porting/read-import-file.js';

const COMMA: CsvDialect = { delimiter: ',', newline: '\n' };
const HEADER = 'code,original_url\n';
const MiB = 1024 * 1024;
const FIELD = 10 * MiB - HEADER.length - 3;

/** The records of `text` one after another, as `recordAt` finds them. */
function recordsOf(text: string, dialect: CsvDialect): string[] {
  const records: string[] = [];
  for (let at = 0; at < text.length; ) {
    const record = recordAt(text, at, dialect);
    if (record === undefined) throw new Error(`no record at ${at}`);
    records.push(text.slice(at, record.end));
    at = record.end;
  }
  return records;
}

const rowsOf = (text: string, dialect: CsvDialect) =>
  Papa.parse<string[]>(text, { ...dialect, skipEmptyLines: 'greedy' }).data;

describe('recordAt finds the records papaparse reads', () => {
  it.each<[string, string, CsvDialect]>([
    ['plain rows', 'code,original_url\nabc,https://example.com/\n\ndef,https://example.com/2', COMMA],
    ['quoted commas and line breaks', 'a,b\n"x,y","line\none"\n"say ""hi""",z\n', COMMA],
    ['CRLF, a lone LF inside a field', 'a;b\r\n"1\n2";"3"\r\n4;5\r\n', { delimiter: ';', newline: '\r\n' }],
    ['tabs, spaces after a closing quote', 'a\tb\n"1"  \t2\n"3" \n', { delimiter: '\t', newline: '\n' }],
    ['a quote that closes nothing, one never closed', 'a,b\n"x"y",z\n"open,field\nmore', COMMA],
  ])('%s', (_, text, dialect) => {
    const records = recordsOf(text, dialect);
    expect(records.join('')).toBe(text);
    expect(records.flatMap((record) => rowsOf(record, dialect))).toEqual(rowsOf(text, dialect));
  });

  it('counts the line breaks inside a record, so the next record is named by its line', () => {
    expect(recordAt('"a\nb\nc",d\ne,f\n', 0, COMMA)).toEqual({ start: 0, end: 10, innerLines: 2 });
  });

  it(`takes a record of ${MAX_RECORD_CHARS} characters and refuses one more, whatever follows`, () => {
    for (const field of ['a', '""']) {
      const fits = `"${field.repeat((MAX_RECORD_CHARS - 2) / field.length)}"`;
      expect(recordAt(`${fits}\nnext`, 0, COMMA)?.end).toBe(fits.length + 1);
      expect(recordAt(`${fits}x\nnext`, 0, COMMA)).toBeUndefined();
    }
    expect(recordAt(`${'a'.repeat(MAX_RECORD_CHARS)}\nnext`, 0, COMMA)?.end).toBe(MAX_RECORD_CHARS + 1);
    expect(recordAt(`${'a'.repeat(MAX_RECORD_CHARS + 1)}\nnext`, 0, COMMA)).toBeUndefined();
  });
});

describe('a CSV import with a record too long for one link', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([
    ['one quoted field of doubled quotes', `${HEADER}"${'""'.repeat(FIELD / 2)}"\n`],
    ['one unquoted field', `${HEADER}${'a'.repeat(FIELD)}\n`],
    ['a quote never closed', `${HEADER}"${'a'.repeat(FIELD)}\n`],
  ])('10 MiB of %s: one invalid row naming the line; the parser never sees more than a slice', async (_, text) => {
    const parse = vi.spyOn(Papa, 'parse');
    const rows = [...(await readImportFile(new TextEncoder().encode(text))).rows];
    expect(rows).toEqual([{ row: 1, code: '', url: '', problem: expect.stringMatching(/^The record on line 2 is/) }]);
    const longest = Math.max(...parse.mock.calls.map(([input]) => String(input).length));
    expect(longest).toBeLessThanOrEqual(2 * MAX_RECORD_CHARS);
  });

  it('keeps the rows before it, names its line (after a field with line breaks), and reads no further', async () => {
    const text = `${HEADER}a,https://example.com/a\n"b\n\n",https://example.com/b\n${'x'.repeat(MAX_RECORD_CHARS + 1)}\nc,https://example.com/c\n`;
    const rows = [...(await readImportFile(new TextEncoder().encode(text))).rows];
    expect(rows.map(({ row, code, problem }) => ({ row, code, problem }))).toEqual([
      { row: 1, code: 'a', problem: undefined },
      { row: 2, code: 'b\n\n', problem: undefined },
      { row: 3, code: '', problem: expect.stringMatching(/^The record on line 6 is longer than 131072 characters/) },
    ]);
    expect(rows[2]?.problem).toMatch(/The rest of the file was not read/);
  });
});
