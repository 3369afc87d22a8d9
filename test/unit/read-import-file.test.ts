import { describe, expect, it } from 'vitest';
import { LinkletError } from '../../core/http/errors.js';
import { readImportFile } from '../../core/management/porting/read-import-file.js';

const CSV = 'code,original_url\r\nabc,https://example.com/é\r\n';
const bytesOf = (text: string) => new TextEncoder().encode(text);
const withBom = (bytes: Uint8Array) => new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]);

/** The bytes as a request body stream, `size` bytes a chunk (a byte order mark split across chunks too). */
function streamOf(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

const rowsOf = async (body: Uint8Array | ReadableStream<Uint8Array>) =>
  [...(await readImportFile(body)).rows].map(({ row, code, url }) => ({ row, code, url }));

describe('readImportFile, from bytes or from a body stream', () => {
  const expected = [{ row: 1, code: 'abc', url: 'https://example.com/é' }];

  it.each([1, 2, 3, 4, 7, 1024])(
    'reads the same rows from chunks of %i bytes, with or without a byte order mark',
    async (size) => {
      expect(await rowsOf(streamOf(bytesOf(CSV), size))).toEqual(expected);
      expect(await rowsOf(streamOf(withBom(bytesOf(CSV)), size))).toEqual(expected);
      expect(await rowsOf(withBom(bytesOf(CSV)))).toEqual(expected);
    },
  );

  it('drops one byte order mark, as a decoder would; a second one is left to the CSV reader', async () => {
    expect(await rowsOf(streamOf(withBom(withBom(bytesOf(CSV))), 2))).toEqual(expected);
  });

  it.each([
    ['a lone byte order mark', new Uint8Array([0xef, 0xbb, 0xbf]), /file is empty/],
    ['part of one', new Uint8Array([0xef, 0xbb]), /not UTF-8/],
    ['bytes that are not UTF-8', new Uint8Array([...bytesOf('code,original_url\n'), 0xff]), /not UTF-8/],
  ])('answers 400 for %s', async (_, bytes, message) => {
    for (const body of [bytes, streamOf(bytes, 1)]) {
      const error = await readImportFile(body).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(LinkletError);
      expect((error as LinkletError).message).toMatch(message);
    }
  });
});
