import { invalid } from '../../http/errors.js';
import { readCsvImport } from './csv-import.js';
import type { ImportFile } from './import-row.js';
import { readJsonImport } from './json-import.js';
import { createTurns, type Turns } from './take-turns.js';

/** The largest import file: some 80,000 links of a Linklet CSV export (about 130 bytes a link). */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;

// Decoded this many bytes at a time, taking turns between: 10 MiB at once is one long stretch.
const DECODE_BYTES = 1024 * 1024;

/**
 * An import file's links, whatever shortener wrote it: JSON when the text starts with `{` or `[`,
 * else CSV; the format itself is recognised from the content (header row or JSON shape), since
 * a Content-Type is easily wrong. Text that is not UTF-8 is a 400, not mojibake in the links.
 * Reading a large file takes turns with other requests (`turns`), as the import after it does.
 */
export async function readImportFile(body: Uint8Array, turns: Turns = createTurns()): Promise<ImportFile> {
  const text = await decodeUtf8(body, turns);
  if (!/\S/.test(text)) throw invalid('The file is empty; send an export of your links.');
  return /^\s*[[{]/.test(text) ? readJsonImport(text, turns) : readCsvImport(text);
}

/** The body as text, a slice at a time; a UTF-8 byte order mark is dropped (spreadsheets write one). */
async function decodeUtf8(body: Uint8Array, turns: Turns): Promise<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const parts: string[] = [];
  try {
    for (let at = 0; at < body.length; at += DECODE_BYTES) {
      if (turns.due()) await turns.pause();
      parts.push(decoder.decode(body.subarray(at, at + DECODE_BYTES), { stream: true }));
    }
    parts.push(decoder.decode());
  } catch {
    throw invalid('The file is not UTF-8 text; export or save it as UTF-8 (in Excel: "CSV UTF-8").');
  }
  return parts.join('');
}
