import { invalid } from '../../http/errors.js';
import { readCsvImport } from './csv-import.js';
import type { ImportFile } from './import-row.js';
import { readJsonImport } from './json-import.js';
import { createTurns, type Turns } from './take-turns.js';

/** The largest import file: some 80,000 links of a Linklet CSV export (about 130 bytes a link). */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;

// Decoded this many bytes at a time, taking turns between: 10 MiB at once is one long stretch.
const DECODE_BYTES = 1024 * 1024;
const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

/** An import's body: its bytes, or the request's body stream (never all held as bytes at once). */
export type ImportBody = Uint8Array | ReadableStream<Uint8Array>;

/**
 * An import file's links, whatever shortener wrote it: JSON when the text starts with `{` or `[`,
 * else CSV; the format itself is recognised from the content (header row or JSON shape), since
 * a Content-Type is easily wrong. Text that is not UTF-8 is a 400, not mojibake in the links.
 * Reading a large file takes turns with other requests (`turns`), as the import after it does.
 */
export async function readImportFile(body: ImportBody, turns: Turns = createTurns()): Promise<ImportFile> {
  const text = await decodeUtf8(body instanceof Uint8Array ? [body] : chunksOf(body), turns);
  if (!/\S/.test(text)) throw invalid('The file is empty; send an export of your links.');
  return /^\s*[[{]/.test(text) ? readJsonImport(text, turns) : readCsvImport(text);
}

async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * The body as text, a slice at a time as it arrives, so the bytes are let go as they are decoded.
 * A UTF-8 byte order mark is dropped (spreadsheets write one) before decoding: left to the
 * decoder, it would make the first slice, and so the whole text, two bytes a character.
 */
async function decodeUtf8(chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>, turns: Turns): Promise<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const decode = (bytes?: Uint8Array) => {
    try {
      return bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: true });
    } catch {
      throw invalid('The file is not UTF-8 text; export or save it as UTF-8 (in Excel: "CSV UTF-8").');
    }
  };
  const parts: string[] = [];
  let head: Uint8Array | undefined = new Uint8Array(0); // the first bytes, until the mark is ruled out
  for await (let chunk of chunks) {
    if (head !== undefined) {
      chunk = joined(head, chunk);
      if (chunk.length < UTF8_BOM.length) {
        head = chunk;
        continue;
      }
      head = undefined;
      if (UTF8_BOM.every((byte, at) => chunk[at] === byte)) chunk = chunk.subarray(UTF8_BOM.length);
    }
    for (let at = 0; at < chunk.length; at += DECODE_BYTES) {
      if (turns.due()) await turns.pause();
      parts.push(decode(chunk.subarray(at, at + DECODE_BYTES)));
    }
  }
  if (head !== undefined) parts.push(decode(head)); // under three bytes: no whole mark to drop
  parts.push(decode());
  return parts.join('');
}

/** `first` then `second` as one array (`second` itself when `first` is empty). */
function joined(first: Uint8Array, second: Uint8Array): Uint8Array {
  if (first.length === 0) return second;
  const both = new Uint8Array(first.length + second.length);
  both.set(first);
  both.set(second, first.length);
  return both;
}
