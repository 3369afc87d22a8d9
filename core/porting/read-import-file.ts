import { invalid } from '../errors.js';
import { createTurns, type Turns } from '../take-turns.js';
import { readCsvImport } from './csv-import.js';
import type { ImportFile } from './import-row.js';
import { readJsonImport } from './json-import.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * An import file's links, whatever shortener wrote it: JSON when the text starts with `{` or `[`,
 * else CSV; the format itself is recognised from the content (header row or JSON shape), since
 * a Content-Type is easily wrong. Text that is not UTF-8 is a 400, not mojibake in the links.
 * Reading a large file takes turns with other requests (`turns`), as the import after it does.
 */
export async function readImportFile(body: Uint8Array, turns: Turns = createTurns()): Promise<ImportFile> {
  let text: string;
  try {
    text = decoder.decode(body); // drops a UTF-8 byte order mark, as spreadsheets write one
  } catch {
    throw invalid('The file is not UTF-8 text; export or save it as UTF-8 (in Excel: "CSV UTF-8").');
  }
  if (text.trim() === '') throw invalid('The file is empty; send an export of your links.');
  return /^\s*[[{]/.test(text) ? readJsonImport(text, turns) : readCsvImport(text);
}
