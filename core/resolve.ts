import { codeKey, MAX_CODE_LENGTH } from './code.js';
import { toErrorEnvelope } from './envelopes.js';
import { renderErrorPage } from './error-page.js';
import { isActive } from './expiry.js';
import type { Link, LinkStore } from './link-store.js';
import { SECURITY_HEADERS } from './security-headers.js';

export type Resolution = { state: 'active'; link: Link } | { state: 'expired'; link: Link } | { state: 'not_found' };

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
  return isActive(link.expiresAt, now) ? { state: 'active', link } : { state: 'expired', link };
}

/** Finds what a short URL's code stands for at `now`. */
export async function resolveCode(segment: string, store: LinkStore, now: number): Promise<Resolution> {
  const key = codeKeyOfSegment(segment);
  return key === undefined ? NOT_FOUND : resolutionOf(await store.findByCodeKey(key), now);
}

/**
 * What a short URL answers, as plain data. The fetch handler turns it into a `Response`; the
 * server's Node fast path writes it straight to the socket. Both send exactly this, so the rules
 * of redirects, 404 and 410 live here and nowhere else.
 */
export interface ShortUrlAnswer {
  status: 302 | 404 | 410;
  /** Header names as sent, the security headers included; `Content-Length` is left to the adapter. */
  headers: Record<string, string>;
  /** The body of a GET (a HEAD sends none); null for the redirect. */
  body: string | null;
}

const NOT_FOUND_TITLE = 'Not found';
const NOT_FOUND_MESSAGE = 'There is no short link or page at this address.';

/**
 * The answer to `GET /{code}` once the code is resolved at `now`: 302 to the link's ASCII URL
 * with a `Cache-Control` that ends with the link, or 404/410 as a page (`html`: the client is a
 * browser) or as the JSON envelope.
 */
export function answerShortUrl(resolution: Resolution, now: number, html: boolean): ShortUrlAnswer {
  if (resolution.state === 'active') return redirectAnswer(resolution.link, now);
  if (resolution.state === 'expired') {
    const expiredOn = new Date(resolution.link.expiresAt).toISOString();
    return pageOrEnvelopeAnswer(410, 'Link expired', `This short link expired on ${expiredOn}.`, html);
  }
  return pageOrEnvelopeAnswer(404, NOT_FOUND_TITLE, NOT_FOUND_MESSAGE, html);
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

/** 302 to the link's ASCII URL; caches may keep it only for the whole seconds the link has left. */
export function redirectAnswer(link: Link, now: number): ShortUrlAnswer {
  const secondsLeft = Math.max(0, Math.floor((link.expiresAt - now) / 1000));
  return {
    status: 302,
    headers: { Location: locationOf(link), 'Cache-Control': `private, max-age=${secondsLeft}`, ...SECURITY_HEADERS },
    body: null,
  };
}

/** The 404 of any path that is not a short link or an API route. */
export function notFoundAnswer(html: boolean): ShortUrlAnswer {
  return pageOrEnvelopeAnswer(404, NOT_FOUND_TITLE, NOT_FOUND_MESSAGE, html);
}

/** A 404 or 410 as a small HTML page for browsers, as the JSON error envelope for everyone else. */
export function pageOrEnvelopeAnswer(status: 404 | 410, title: string, message: string, html: boolean): ShortUrlAnswer {
  return html
    ? {
        status,
        headers: { 'Cache-Control': 'no-store', 'Content-Type': 'text/html; charset=UTF-8', ...SECURITY_HEADERS },
        body: renderErrorPage(title, message),
      }
    : {
        status,
        headers: { 'Cache-Control': 'no-store', 'Content-Type': 'application/json', ...SECURITY_HEADERS },
        body: JSON.stringify(toErrorEnvelope(message)),
      };
}
