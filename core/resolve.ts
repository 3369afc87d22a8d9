import type { Answer } from './answer.js';
import { codeKey, MAX_CODE_LENGTH } from './code.js';
import { type ErrorAudience, errorAnswer } from './error-answer.js';
import { LinkletError } from './errors.js';
import { isActive } from './expiry.js';
import type { Link, LinkStore } from './link-store.js';
import { SECURITY_HEADERS } from './security-headers.js';

export type Resolution =
  | { state: 'active'; link: Link }
  | { state: 'expired'; link: Link }
  | { state: 'disabled'; link: Link }
  | { state: 'not_found' };

/** Decodes a path segment once as UTF-8; malformed encoding means no such code, never an error. */
export function decodeCodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment).normalize('NFC');
  } catch {
    return undefined;
  }
}

/**
 * The code key a short URL's path segment names, or undefined when it cannot name any code
 * (malformed encoding, empty, longer than any code: the store is not asked about kilobytes).
 */
export function codeKeyOfSegment(segment: string): string | undefined {
  const code = decodeCodeSegment(segment);
  if (code === undefined || code.length === 0) return undefined;
  // A code point takes one or two UTF-16 units, so only a middling length needs counting.
  if (code.length > MAX_CODE_LENGTH && (code.length > 2 * MAX_CODE_LENGTH || [...code].length > MAX_CODE_LENGTH)) {
    return undefined;
  }
  return codeKey(code);
}

const NOT_FOUND: Resolution = Object.freeze({ state: 'not_found' });

/** What the link found for a code (or none) means at `now`. */
export function resolutionOf(link: Link | undefined, now: number): Resolution {
  if (!link) return NOT_FOUND;
  if (!isActive(link.expiresAt, now)) return { state: 'expired', link };
  return link.disabled ? { state: 'disabled', link } : { state: 'active', link };
}

/** Finds what a short URL's code stands for at `now`. */
export async function resolveCode(segment: string, store: LinkStore, now: number): Promise<Resolution> {
  const key = codeKeyOfSegment(segment);
  return key === undefined ? NOT_FOUND : resolutionOf(await store.findByCodeKey(key), now);
}

const NOT_FOUND_MESSAGE = 'There is no short link or page at this address.';

/** The 404 of any path that is not a short link or an API route. */
export const notFoundError = (): LinkletError => new LinkletError('not_found', NOT_FOUND_MESSAGE);

/**
 * The answer to `GET /{code}` once the code is resolved at `now`: 302 to the link's ASCII URL
 * with a `Cache-Control` that ends with the link, or the 404/410 error answer (a page for a
 * browser, the JSON envelope for everyone else).
 */
export function answerShortUrl(resolution: Resolution, now: number, audience: ErrorAudience): Answer {
  if (resolution.state === 'active') return redirectAnswer(resolution.link, now);
  if (resolution.state === 'expired') {
    const expiredOn = new Date(resolution.link.expiresAt).toISOString();
    return errorAnswer(new LinkletError('gone', `This short link expired on ${expiredOn}.`), audience);
  }
  if (resolution.state === 'disabled') {
    return errorAnswer(new LinkletError('gone', 'This short link was disabled by its owner.'), audience);
  }
  return errorAnswer(notFoundError(), audience);
}

// The ASCII URLs of links an adapter keeps in memory (see `keepLocationOf`): a link object never
// changes (a changed link is read anew as another object), and a cached one comes back as the
// same object, so its URL is parsed once.
const locations = new WeakMap<Link, string>();

/** The `Location` of a link's redirect: its URL's ASCII serialization (punycode, %-encoding). */
export function locationOf(link: Link): string {
  return locations.get(link) ?? new URL(link.originalUrl).href;
}

/**
 * Works out a link's `Location` now and keeps it with the link object, for an adapter that holds
 * links in memory (the server's cache): every redirect of that object then skips the URL parser.
 * Only kept objects should come here; the memo lives exactly as long as the object.
 */
export function keepLocationOf(link: Link): void {
  if (locations.has(link)) return;
  const href = new URL(link.originalUrl).href;
  locations.set(link, href === link.originalUrl ? link.originalUrl : href); // one string, not two alike
}

/** 302 to the link's ASCII URL; caches may keep it only for the whole seconds the link has left. */
export function redirectAnswer(link: Link, now: number): Answer {
  const secondsLeft = Math.max(0, Math.floor((link.expiresAt - now) / 1000));
  return {
    status: 302,
    headers: { Location: locationOf(link), 'Cache-Control': `private, max-age=${secondsLeft}`, ...SECURITY_HEADERS },
    body: null,
  };
}
