/**
 * Headers every response but a redirect carries (see `REDIRECT_SECURITY_HEADERS`), from the core
 * handler and from the server's fast paths alike (the short-URL answers in resolve.ts include them):
 *
 * - `X-Content-Type-Options: nosniff`: a browser never guesses HTML or script from a JSON body.
 * - `Referrer-Policy: no-referrer`: neither the short URL nor the page it was clicked on is told
 *   to the destination of a redirect, or to anyone an error page links to.
 * - `Content-Security-Policy`: the only HTML Linklet serves here is the small error page, which
 *   needs nothing but its own inline stylesheet (allowed by hash) and the icon (`/favicon.svg`, an
 *   image of its own origin); no script, frame, form target or framing by other sites. Sent on
 *   every response, so a JSON body opened as a page is inert too.
 */
export const ERROR_PAGE_STYLE_HASH = 'sha256-y+g3JWbItJ3YdCnZYPYlfZ/silWu4H7EX9mgVt8OcFo=';

export const CONTENT_SECURITY_POLICY = `default-src 'none'; style-src '${ERROR_PAGE_STYLE_HASH}'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
});

/**
 * What a redirect carries instead: it has no body, so there is nothing for `nosniff` or a
 * Content-Security-Policy to protect (a browser renders no document of a 302; it follows
 * `Location`). `Referrer-Policy` stays: it governs what the destination is told. Two headers
 * fewer (about 260 bytes) on the answer Linklet gives most often.
 */
export const REDIRECT_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Referrer-Policy': 'no-referrer',
});

const ENTRIES = Object.entries(SECURITY_HEADERS);
const REDIRECT_ENTRIES = Object.entries(REDIRECT_SECURITY_HEADERS);

/**
 * Sets the security headers on a response's (mutable) headers and returns the response. A
 * Content-Security-Policy the route chose is kept: only the web app (core/site/web-app.ts) sets its own.
 */
export function withSecurityHeaders(response: Response): Response {
  const redirect = response.status >= 300 && response.status < 400;
  for (const [name, value] of redirect ? REDIRECT_ENTRIES : ENTRIES) {
    if (name === 'Content-Security-Policy' && response.headers.has(name)) continue;
    response.headers.set(name, value);
  }
  return response;
}
