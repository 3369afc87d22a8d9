import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readCursor, signCursor } from '../../core/management/links/cursor.js';
import { hmacSha256, sameBytes } from '../../core/rules/sha256.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const hex = (data: Uint8Array) => Array.from(data, (byte) => byte.toString(16).padStart(2, '0')).join('');

// FIPS 180-2 and RFC 4231 test vectors: the same answers on Node's synchronous path and on the
// WebCrypto path the extension's service worker takes.
const SHA256_ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
const SHA256_EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const HMAC_RFC4231_CASE2 = '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843';

describe.each([
  ['node:crypto', false],
  ['WebCrypto (no node:crypto, as in a browser)', true],
])('sha256 on %s', (_name, webCryptoOnly) => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  const load = async () => {
    vi.resetModules();
    if (webCryptoOnly) vi.stubGlobal('process', { ...process, getBuiltinModule: undefined });
    return import('../../core/rules/sha256.js');
  };

  it('hashes text as SHA-256 hex', async () => {
    const module = await load();
    expect(await module.sha256Hex('abc')).toBe(SHA256_ABC);
    expect(await module.sha256Hex('')).toBe(SHA256_EMPTY);
    // Non-ASCII text is hashed as its UTF-8 bytes, whichever path.
    expect(await module.sha256Hex('링크')).toBe(createHash('sha256').update('링크', 'utf8').digest('hex'));
  });

  it('signs as HMAC-SHA-256', async () => {
    const module = await load();
    expect(hex(await module.hmacSha256(bytes('Jefe'), bytes('what do ya want for nothing?')))).toBe(HMAC_RFC4231_CASE2);
  });
});

describe('sameBytes', () => {
  it('is true only for the same bytes of the same length', () => {
    expect(sameBytes(bytes('abc'), bytes('abc'))).toBe(true);
    expect(sameBytes(bytes('abc'), bytes('abd'))).toBe(false);
    expect(sameBytes(bytes('abc'), bytes('ab'))).toBe(false);
    expect(sameBytes(bytes('ab'), bytes('abc'))).toBe(false);
    expect(sameBytes(new Uint8Array(), new Uint8Array())).toBe(true);
  });
});

describe('list cursors', () => {
  const position = { kind: 'list' as const, at: 1_764_000_000_000, codeKey: 'abc1234' };

  it('reads back what this server signed', async () => {
    const cursor = await signCursor('secret', position);
    expect(await readCursor('secret', cursor, 'list')).toEqual(position);
    expect(await hmacSha256(bytes('secret'), bytes('x'))).toHaveLength(32);
  });

  it('refuses a cursor signed under another secret, altered, or not base64url, with the way out', async () => {
    const cursor = await signCursor('secret', position);
    const [payload, signature] = cursor.split('.') as [string, string];
    const flipped = `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`;
    const forged = [
      await signCursor('another secret', position),
      `${payload}.${flipped}`,
      `${payload.slice(1)}.${signature}`,
      `${payload}=.${signature}`,
    ];
    for (const bad of forged)
      await expect(readCursor('secret', bad, 'list')).rejects.toThrow(/use next_cursor as it came, or leave it out/);
  });

  it('refuses a cursor of another listing', async () => {
    const cursor = await signCursor('secret', position);
    await expect(readCursor('secret', cursor, 'changes')).rejects.toThrow(/another kind of listing/);
  });
});
