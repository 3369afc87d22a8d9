import { fromBase64Url, toBase64Url } from '../rules/base64url.js';
import { type PasswordHasher, sameBytes } from './password-hasher.js';

/**
 * OWASP's 2023 figure for PBKDF2-HMAC-SHA256: what the extension's bundled backend uses, where
 * scrypt is not in WebCrypto and no library may be added.
 */
export const PBKDF2_ITERATIONS = 600_000;
// A stored hash cannot make a check cost more than this (a tampered store is not a CPU lever).
const MAX_ITERATIONS = 10_000_000;
const SALT_BYTES = 16;
const HASH_BITS = 256;
const FORM = /^pbkdf2-sha256\$(\d{1,8})\$([\w-]+)\$([\w-]+)$/;

const encoder = new TextEncoder();

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations },
    key,
    HASH_BITS,
  );
  return new Uint8Array(bits);
}

/**
 * Link passwords as `pbkdf2-sha256$iterations$salt$hash` (base64url), through WebCrypto alone:
 * runs in a service worker and in Node. The iteration count travels with each hash, so raising
 * it later leaves old hashes readable.
 */
export function createPbkdf2PasswordHasher(iterations = PBKDF2_ITERATIONS): PasswordHasher {
  return {
    async hash(password) {
      const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
      return `pbkdf2-sha256$${iterations}$${toBase64Url(salt)}$${toBase64Url(await derive(password, salt, iterations))}`;
    },
    async verify(password, stored) {
      const match = FORM.exec(stored);
      if (!match) return false;
      const rounds = Number(match[1]);
      const salt = fromBase64Url(match[2] as string);
      const expected = fromBase64Url(match[3] as string);
      if (!salt || !expected || rounds < 1 || rounds > MAX_ITERATIONS) return false;
      return sameBytes(await derive(password, salt, rounds), expected);
    },
  };
}
