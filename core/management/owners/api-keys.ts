import { bearerTokenOf } from '../../http/middleware/api-key.js';
import { sha256Hex } from '../../rules/sha256.js';
/** Every owner key starts so, which tells it from the administrator's `API_KEY` at a glance. */
export const API_KEY_PREFIX = 'lk_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 43 base62 characters: about 256 random bits. */
const KEY_LENGTH = 43;
const KEY_SHAPE = /^lk_[0-9A-Za-z]{32,128}$/;

/**
 * A new owner key: `lk_` and 43 random base62 characters (crypto random, rejection-sampled so
 * every character is equally likely). Shown once; only its hash is kept.
 */
export function generateApiKey(): string {
  let key = API_KEY_PREFIX;
  while (key.length < API_KEY_PREFIX.length + KEY_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(64))) {
      // 248 = 4 × 62: bytes above it would favour the first characters.
      if (byte < 248 && key.length < API_KEY_PREFIX.length + KEY_LENGTH) key += BASE62[byte % 62];
    }
  }
  return key;
}

/** Whether a presented key could be an owner key at all (anything else is not looked up). */
export function isOwnerKeyShaped(key: string): boolean {
  return KEY_SHAPE.test(key);
}

/**
 * SHA-256 of a key, in hex: what the store keeps and looks keys up by. A fast hash is enough for
 * 256 random bits (no dictionary to try), and the lookup by hash means the time a wrong key takes
 * says nothing about any stored key.
 */
export const hashApiKey: (key: string) => Promise<string> = sha256Hex;

/** The key a request carries, as `X-API-Key: …` or `Authorization: Bearer …`, if any. */
export function presentedKey(headers: Headers): string | undefined {
  // Only `Bearer` carries a key: a bare key in Authorization is refused, as for API_KEY.
  const given = headers.get('x-api-key') ?? bearerTokenOf(headers.get('authorization'));
  return given === undefined || given === null || given === '' ? undefined : given;
}
