import { LinkletError } from '../../http/errors.js';
import type { PasswordHasher } from '../../passwords/password-hasher.js';

/**
 * What a PATCH's `password` becomes in the store: `null` removes the password, a string is
 * hashed (one slow hash, after every other field has been checked).
 */
export async function hashOfNewPassword(
  password: string | null,
  passwords: PasswordHasher | undefined,
): Promise<string | null> {
  if (password === null) return null;
  if (passwords === undefined) throw new LinkletError('internal', 'This server cannot keep link passwords.');
  return passwords.hash(password);
}
