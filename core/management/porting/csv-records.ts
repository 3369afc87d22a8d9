import { MAX_ENTRY_CHARS } from './json-entries.js';

/**
 * The most characters one record (one link's row) of a CSV import may take, as for one entry of
 * a JSON import (`MAX_ENTRY_CHARS`): room for the longest URL a server accepts and the rest of
 * the row. A record is found here before the CSV parser sees it, so the parser never works on
 * more than this at once, whatever a 10 MiB file holds.
 */
export const MAX_RECORD_CHARS = MAX_ENTRY_CHARS;

/** How a CSV file is written: its delimiter (one character) and its line break. */
export interface CsvDialect {
  delimiter: string;
  newline: '\n' | '\r\n' | '\r';
}

/** Where one record lies: `text.slice(start, end)` (its line break included), and the line breaks inside it. */
export interface RecordSpan {
  start: number;
  end: number;
  /** Line breaks within its quoted fields, so the next record's line can be told. */
  innerLines: number;
}

const QUOTE = 0x22;
const SPACE = 0x20;

/**
 * The record that starts at `start`, found as papaparse reads it (RFC 4180: a field that starts
 * with `"` ends at a `"` followed by the delimiter, a line break or the end, `""` being a quote
 * within it; any other field ends at the delimiter or line break), or `undefined` when it runs
 * past `maxChars` before its end: then at most `maxChars` characters were looked at, so a field
 * of 10 MiB (or a quote never closed) costs no more than a field of `maxChars`.
 */
export function recordAt(
  text: string,
  start: number,
  { delimiter, newline }: CsvDialect,
  maxChars = MAX_RECORD_CHARS,
): RecordSpan | undefined {
  const delimiterCode = delimiter.charCodeAt(0);
  const newlineCode = newline.charCodeAt(0);
  // A record's characters lie before `limit`; its delimiter or line break may be at `limit`.
  const limit = start + maxChars;
  const breakAt = (at: number) => text.charCodeAt(at) === newlineCode && text.startsWith(newline, at);
  let innerLines = 0;
  let at = start;
  for (;;) {
    // `at` is where a field starts.
    if (at >= text.length) return { start, end: text.length, innerLines };
    if (text.charCodeAt(at) === QUOTE) {
      at++;
      for (;;) {
        if (at >= text.length) return { start, end: text.length, innerLines }; // never closed: papaparse's error
        if (at >= limit) return undefined;
        const code = text.charCodeAt(at);
        if (code !== QUOTE) {
          if (breakAt(at)) {
            innerLines++;
            at += newline.length;
          } else at++;
          continue;
        }
        if (text.charCodeAt(at + 1) === QUOTE) {
          at += 2;
          continue;
        }
        let after = at + 1;
        while (after < limit && text.charCodeAt(after) === SPACE) after++;
        if (after >= text.length) return { start, end: text.length, innerLines };
        if (text.charCodeAt(after) === delimiterCode) {
          at = after + 1;
          break;
        }
        if (breakAt(after)) return { start, end: after + newline.length, innerLines };
        at++; // a quote inside the field that closes nothing, as papaparse takes it
      }
      continue;
    }
    for (;;) {
      if (at >= text.length) return { start, end: text.length, innerLines };
      if (text.charCodeAt(at) === delimiterCode) {
        at++;
        break;
      }
      if (breakAt(at)) return { start, end: at + newline.length, innerLines };
      if (at >= limit) return undefined; // a character past the most a record may hold
      at++;
    }
  }
}

/** The row of a record over `MAX_RECORD_CHARS`: which line, and that the rest of the file was not read. */
export const recordTooLong = (line: number) =>
  `The record on line ${line} is longer than ${MAX_RECORD_CHARS} characters; a link's record is at most ${MAX_RECORD_CHARS} (a field runs on, or a quote is never closed). The rest of the file was not read: correct that line and import the file again (the rows imported already come back unchanged).`;
