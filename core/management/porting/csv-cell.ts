import Papa from 'papaparse';

// OWASP "CSV Injection": a spreadsheet reads a cell beginning with = + - @ tab or CR as a
// formula. Cells that already begin with apostrophes before one of those get one more, so that
// taking one apostrophe off always gives back the value (`'=x` is written `''=x`).
const NEEDS_PREFIX = /^'*[=+\-@\t\r]/;
const PREFIXED = /^'+[=+\-@\t\r]/;

const CRLF = '\r\n';

/**
 * A cell as an export writes it: a text beginning like a formula gets a leading `'`, which
 * spreadsheets read as "text, not formula" (so a code such as `-2-3` is shown, not computed).
 * Numbers are numbers in a spreadsheet already and stay as they are.
 */
export function neutralizeCsvCell(value: string | number): string | number {
  return typeof value === 'string' && NEEDS_PREFIX.test(value) ? `'${value}` : value;
}

/**
 * A cell of a Linklet export as it was before `neutralizeCsvCell`, so an export imports back
 * with the same codes and URLs. Only a Linklet export is read this way: another program's file
 * never had the prefix added, and its cells are taken as they are.
 */
export function restoreCsvCell(cell: string): string {
  return PREFIXED.test(cell) ? cell.slice(1) : cell;
}

// What makes Papa.unparse quote a cell: a quote, CR, LF, the delimiter, a byte order mark, or a
// space at either end.
const NEEDS_QUOTES = /[",\r\n\ufeff]|^ | $/;

/**
 * One neutralised cell exactly as `csvRecords` (Papa.unparse) writes it, without its per-call
 * setup: the export writes a million rows with it (a property test holds the two equal).
 */
export function csvCell(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const text = NEEDS_PREFIX.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows as CSV records (RFC 4180, CRLF after each) with every cell neutralised: what both exports write. */
export function csvRecords(rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  const cells = rows.map((row) => row.map(neutralizeCsvCell));
  return `${Papa.unparse(cells, { newline: CRLF })}${CRLF}`;
}
