import { nanoid } from 'nanoid';
import { hashApiKey } from '../owners/api-keys.js';

/** Every claim token starts so, which tells it from an API key (`lk_`) at a glance. */
export const CLAIM_TOKEN_PREFIX = 'lc_';
/** 43 characters of base64url's alphabet, 258 random bits (nobody guesses one, so no slow hash is needed). */
const TOKEN_LENGTH = 43;
const TOKEN_SHAPE = /^lc_[A-Za-z0-9_-]{43}$/;

/**
 * A new claim token: the proof of creation a create without a key answers with its short URL.
 * Whoever holds it (the browser that made the link) may make the link theirs once they sign in.
 * Shown once; the store keeps only its hash.
 */
export function generateClaimToken(): string {
  // nanoid draws from a pool of crypto random bytes (as codes are made): 0.3 µs a token on Node,
  // where a `getRandomValues` of its own and the encoding took 1.9.
  return CLAIM_TOKEN_PREFIX + nanoid(TOKEN_LENGTH);
}

/** Whether a presented token could be one at all (anything else is refused without a hash). */
export function isClaimTokenShaped(token: string): boolean {
  return TOKEN_SHAPE.test(token);
}

/** SHA-256 of a token in hex, as API keys are kept: what the store keeps and compares. */
export const hashClaimToken: (token: string) => Promise<string> = hashApiKey;

/**
 * Whether two hashes are the same, comparing every character whatever the first difference, so
 * the time a wrong token takes says nothing of how close its hash came.
 */
export function sameHash(given: string, kept: string): boolean {
  let difference = given.length ^ kept.length;
  for (let i = 0; i < kept.length; i++) difference |= (given.charCodeAt(i) || 0) ^ kept.charCodeAt(i);
  return difference === 0;
}
