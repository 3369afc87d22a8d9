import type { Answer } from '../http/answer.js';
import { type ErrorAudience, errorAnswer } from '../http/error-answer.js';
import { LinkletError } from '../http/errors.js';
import { REDIRECT_SECURITY_HEADERS } from '../http/security-headers.js';
import { codeKey, MAX_CODE_LENGTH } from '../rules/code.js';
import { isActive } from '../rules/expiry.js';
import type { Link, LinkStore } from '../store/link-store.js';
import { DEFAULT_REDIRECT_CACHE_SECONDS, redirectCacheControl } from './redirect-cache.js';

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

const PLAIN_SEGMENT = /^[\w-]+$/;

/**
 * The code key a short URL's path segment names, or undefined when it cannot name any code
 * (malformed encoding, empty, longer than any code: the store is not asked about kilobytes).
 */
export function codeKeyOfSegment(segment: string): string | undefined {
  // Most segments (every generated code) are ASCII letters, digits, `_` and `-` alone: such a
  // segment is its own decoding and NFC form, so its key is its lower case, without either step.
  if (PLAIN_SEGMENT.test(segment)) return segment.length > MAX_CODE_LENGTH ? undefined : segment.toLowerCase();
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
  if (key === undefined) return NOT_FOUND;
  return resolutionOf(await (store.lookup ? store.lookup(key) : store.findByCodeKey(key)), now);
}

const NOT_FOUND_MESSAGE = 'There is no short link or page at this address.';

/** The 404 of any path that is not a short link or an API route. */
export const notFoundError = (): LinkletError => new LinkletError('not_found', NOT_FOUND_MESSAGE);

/**
 * The answer to `GET /{code}` once the code is resolved at `now`: 302 to the link's ASCII URL
 * with a `Cache-Control` of at most `cacheSeconds` that ends with the link (`redirectCacheControl`),
 * or the 404/410 error answer (a page for a browser, the JSON envelope for everyone else).
 */
export function answerShortUrl(
  resolution: Resolution,
  now: number,
  audience: ErrorAudience,
  cacheSeconds = DEFAULT_REDIRECT_CACHE_SECONDS,
): Answer {
  if (resolution.state === 'active') return redirectAnswer(resolution.link, now, cacheSeconds);
  if (resolution.state === 'expired') {
    const expiredOn = new Date(resolution.link.expiresAt).toISOString();
    const gone = { reason: 'expired', at: resolution.link.expiresAt } as const;
    return errorAnswer(new LinkletError('gone', `This short link expired on ${expiredOn}.`, { gone }), audience);
  }
  if (resolution.state === 'disabled') {
    const gone = { reason: 'disabled' } as const;
    return errorAnswer(new LinkletError('gone', 'This short link was disabled by its owner.', { gone }), audience);
  }
  return errorAnswer(notFoundError(), audience);
}

/**
 * A link that already carries its redirect's `Location`: an adapter that keeps links in memory
 * (the server's cache) stores the ASCII form once, so no redirect of it parses the URL again.
 */
export interface LocatedLink extends Link {
  readonly location: string;
}

/** The `Location` of a link's redirect: its URL's ASCII serialization (punycode, %-encoding). */
export function locationOf(link: Link | LocatedLink): string {
  return (link as Partial<LocatedLink>).location ?? new URL(link.originalUrl).href;
}

/**
 * 302 to the link's ASCII URL; a browser may keep it for `cacheSeconds` at most and never past
 * the link's expiry, so a disable, a new target or a delete reaches it within that time.
 */
export function redirectAnswer(link: Link, now: number, cacheSeconds = DEFAULT_REDIRECT_CACHE_SECONDS): Answer {
  return {
    status: 302,
    headers: {
      Location: locationOf(link),
      'Cache-Control': redirectCacheControl(link.expiresAt, now, cacheSeconds),
      ...REDIRECT_SECURITY_HEADERS,
    },
    body: null,
  };
}
