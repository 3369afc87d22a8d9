import { invalid } from '../http/errors.js';
import { characterCount } from '../rules/character-count.js';

/**
 * How a host keeps link passwords: a salted slow hash in a self-describing text form
 * (`scheme$parameters$salt$hash`), so the scheme or its cost can change later and old hashes
 * still verify. The core never picks the algorithm itself: the server hands it scrypt
 * (`node:crypto`), the extension's bundled backend PBKDF2 (WebCrypto).
 */
export interface PasswordHasher {
  /** A new salted hash of `password`, in the hasher's self-describing form. */
  hash(password: string): Promise<string>;
  /** Whether `password` is the one `stored` was made from; false for a form it cannot read. */
  verify(password: string, stored: string): Promise<boolean>;
}

/** The shortest link password, in characters (code points): see `passwordLength`. */
export const MIN_PASSWORD_LENGTH = 4;
/** The longest link password, in characters (code points). */
export const MAX_PASSWORD_LENGTH = 128;

/**
 * A password's length as the rule counts it: code points, so a Hangul or emoji password counts as
 * people count it (an emoji is one character, not two UTF-16 units). Exported so the screens check
 * a typed password exactly as the server does.
 */
export function passwordLength(password: string): number {
  return characterCount(password);
}

const RULE = `password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`;

/**
 * The `password` of a PATCH: undefined when absent, `null` when it is `null` (remove the
 * password), else a string of 4–128 characters (code points, so a Hangul or emoji password
 * counts as people count it). `""` is refused rather than guessed at: it may be an emptied form
 * field as much as a wish to remove the password, and the message says how to do the latter.
 * Kept apart from the other fields' parsing so the legacy `/api.php` never sees it.
 */
export function parsePasswordField(body: unknown): string | null | undefined {
  if (typeof body !== 'object' || body === null || !('password' in body)) return undefined;
  const value = (body as { password: unknown }).password;
  if (value === undefined || value === null) return value;
  if (typeof value !== 'string') throw invalid(`${RULE} (a string), or null to remove it.`);
  if (value === '') {
    throw invalid(
      `password is empty: send null to remove the password, or a new one of ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters.`,
    );
  }
  const length = passwordLength(value);
  if (length < MIN_PASSWORD_LENGTH || length > MAX_PASSWORD_LENGTH) {
    throw invalid(`${RULE}; it has ${length}.`);
  }
  return value;
}

/**
 * The `password` of a v1 create: absent, `null` or `""` is none, as for every optional field of
 * a create (SPEC, "Optional fields given as absent, `null` or `""` count as not given"); a
 * string otherwise keeps the rule of `parsePasswordField`.
 */
export function parseCreatePassword(body: unknown): string | undefined {
  if (typeof body === 'object' && body !== null && (body as { password?: unknown }).password === '') return undefined;
  return parsePasswordField(body) ?? undefined;
}

/** Constant-time comparison of two byte arrays of a hash (a mismatch tells nothing by its timing). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}
