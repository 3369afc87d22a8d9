import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FirstRows, prepareRow, type RowRules } from '../../core/management/porting/prepare-row.js';

const NOW = Date.UTC(2026, 0, 31, 12);
const RULES: RowRules = {
  ownerId: undefined,
  now: NOW,
  urlRules: { maxLength: 2048, ownHosts: ['sho.rt'] },
  defaultDuration: '1week',
};

/** The status and message of `row` after the rows before it, on one first-row map. */
function outcomeOf(rows: Array<{ row: number; code: string; url: string }>) {
  const firstRows: FirstRows = new Map();
  return rows.map((row) => {
    const outcome = prepareRow(row, RULES, firstRows);
    return 'status' in outcome ? `${outcome.status}: ${outcome.message}` : 'ready';
  });
}

describe('a repeated code within one file', () => {
  it('names the first row and tells the same link from another URL, at any row number a file can reach', () => {
    // A 10 MiB file holds fewer than 2^23 rows; the first-row map packs the row with a hash of its URL.
    const rowNumber = fc.integer({ min: 1, max: 2 ** 23 - 2 });
    const path = fc.stringMatching(/^[a-z0-9/]{0,300}$/);
    fc.assert(
      fc.property(rowNumber, path, path, fc.boolean(), (first, pathA, pathB, same) => {
        const a = `https://example.com/${pathA}`;
        const b = same ? a : `https://example.com/${pathB}`;
        const [, again] = outcomeOf([
          { row: first, code: 'Spring', url: a },
          { row: first + 1, code: 'spring', url: b },
        ]);
        expect(again).toBe(
          a === b
            ? `skipped: The same link as row ${first} of this file.`
            : `conflict: Row ${first} of this file already uses code 'spring' for another URL.`,
        );
      }),
    );
  });

  it('keeps apart codes that differ, and URLs that differ in one character or in Hangul', () => {
    expect(
      outcomeOf([
        { row: 1, code: '한글코드', url: 'https://example.com/가' },
        { row: 2, code: '한글코드2', url: 'https://example.com/가' },
        { row: 3, code: '한글코드', url: 'https://example.com/각' },
        { row: 4, code: '한글코드', url: 'https://example.com/가' },
      ]),
    ).toEqual([
      'ready',
      'ready',
      "conflict: Row 1 of this file already uses code '한글코드' for another URL.",
      'skipped: The same link as row 1 of this file.',
    ]);
  });
});
