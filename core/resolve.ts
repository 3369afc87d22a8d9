import { codeKey, MAX_CODE_LENGTH } from './code.js';
import { isActive } from './expiry.js';
import type { Link, LinkStore } from './link-store.js';

export type Resolution = { state: 'active'; link: Link } | { state: 'expired'; link: Link } | { state: 'not_found' };

/** Decodes a path segment once as UTF-8; malformed encoding means no such code, never an error. */
export function decodeCodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment).normalize('NFC');
  } catch {
    return undefined;
  }
}

/** Finds what a short URL's code stands for at `now`. */
export async function resolveCode(segment: string, store: LinkStore, now: number): Promise<Resolution> {
  const code = decodeCodeSegment(segment);
  // Longer input cannot be a code; skip the store rather than look up kilobytes of path.
  if (code === undefined || code.length === 0 || [...code].length > MAX_CODE_LENGTH) return { state: 'not_found' };
  const link = await store.findByCodeKey(codeKey(code));
  if (!link) return { state: 'not_found' };
  return isActive(link.expiresAt, now) ? { state: 'active', link } : { state: 'expired', link };
}
