import { invalid } from '../../http/errors.js';
import { parseJsonText } from '../../http/parse-json-text.js';

/**
 * The most characters one entry of a JSON import (one link) may take: room for the longest URL a
 * server accepts (`MAX_URL_LENGTH` up to 65,536) and everything around it. Each entry is parsed
 * on its own, and this bounds how long one `JSON.parse` keeps other requests waiting.
 */
export const MAX_ENTRY_CHARS = 128 * 1024;

/** Where one value lies in the document's text: `text.slice(start, end)`. */
export interface Span {
  start: number;
  end: number;
}

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const [QUOTE, BACKSLASH, COMMA, COLON] = [0x22, 0x5c, 0x2c, 0x3a];
const OPENERS = new Set([0x5b, 0x7b]); // [ {
const CLOSERS = new Set([0x5d, 0x7d]); // ] }

/** The 400 of a file that is not JSON, saying where it breaks. */
export const notJson = (why: string) =>
  invalid(`The file starts like JSON but is not valid JSON (${why}); send the export as it was written.`);

/** The first position at or after `at` that is not JSON whitespace. */
export function skipWhitespace(text: string, at: number): number {
  let i = at;
  while (i < text.length && WHITESPACE.has(text.charCodeAt(i))) i++;
  return i;
}

/** Where the string starting (with its quote) at `start` ends, after its closing quote. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote < 0) throw notJson(`a string at position ${start} never ends`);
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    i = quote + 1;
  }
}

/**
 * Where the JSON value starting at `start` ends. Only its extent is found here (strings and
 * nesting); `parseSpan` checks the grammar inside, so a value is never parsed whole just to skip it.
 */
export function valueEnd(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === QUOTE) return stringEnd(text, start);
  if (!OPENERS.has(first)) {
    let i = start;
    while (i < text.length && !WHITESPACE.has(text.charCodeAt(i)) && !CLOSERS.has(text.charCodeAt(i))) {
      if (text.charCodeAt(i) === COMMA) break;
      i++;
    }
    if (i === start) throw notJson(`a value is missing at position ${start}`);
    return i;
  }
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) i = stringEnd(text, i) - 1;
    else if (OPENERS.has(code)) depth++;
    else if (CLOSERS.has(code) && --depth === 0) return i + 1;
  }
  throw notJson(`the value at position ${start} never ends`);
}

/** The value in `span`, parsed; a lone surrogate escape is refused as in every body (`parseJsonText`). */
export function parseSpan(text: string, { start, end }: Span): unknown {
  const slice = text.slice(start, end);
  try {
    const value = JSON.parse(slice);
    return SURROGATE_ESCAPE.test(slice) ? parseJsonText(slice) : value;
  } catch (error) {
    if (error instanceof SyntaxError) throw notJson(`at position ${start}: ${error.message}`);
    throw error;
  }
}

/**
 * The entries of the array whose `[` is at `open`, one span at a time, so a 10 MiB array is never
 * a 10 MiB array of values; `done` receives where the array ends (after its `]`).
 */
export function* arrayEntries(text: string, open: number, done?: (end: number) => void): Generator<Span> {
  let at = skipWhitespace(text, open + 1);
  if (text.charCodeAt(at) === 0x5d) {
    done?.(at + 1);
    return;
  }
  for (;;) {
    const end = valueEnd(text, at);
    yield { start: at, end };
    at = skipWhitespace(text, end);
    const next = text.charCodeAt(at);
    if (next === 0x5d) {
      done?.(at + 1);
      return;
    }
    if (next !== COMMA) throw notJson(`expected , or ] at position ${at}`);
    at = skipWhitespace(text, at + 1);
  }
}

/**
 * The members of the object whose `{` is at `open`: each key and its value's span (not parsed),
 * and where the object ends (after its `}`).
 */
export function objectMembers(
  text: string,
  open: number,
): { members: Array<{ key: string; value: Span }>; end: number } {
  const members: Array<{ key: string; value: Span }> = [];
  let at = skipWhitespace(text, open + 1);
  if (text.charCodeAt(at) === 0x7d) return { members, end: at + 1 };
  for (;;) {
    if (text.charCodeAt(at) !== QUOTE) throw notJson(`expected a field name at position ${at}`);
    const keyEnd = stringEnd(text, at);
    const key = parseSpan(text, { start: at, end: keyEnd }) as string;
    at = skipWhitespace(text, keyEnd);
    if (text.charCodeAt(at) !== COLON) throw notJson(`expected : at position ${at}`);
    const start = skipWhitespace(text, at + 1);
    const end = valueEnd(text, start);
    members.push({ key, value: { start, end } });
    at = skipWhitespace(text, end);
    if (text.charCodeAt(at) === 0x7d) return { members, end: at + 1 };
    if (text.charCodeAt(at) !== COMMA) throw notJson(`expected , or } at position ${at}`);
    at = skipWhitespace(text, at + 1);
  }
}
