/**
 * Headers every response but a redirect carries (see `REDIRECT_SECURITY_HEADERS`), from the core
 * handler and from the server's fast paths alike (the short-URL answers in resolve.ts include them):
 *
 * - `X-Content-Type-Options: nosniff`: a browser never guesses HTML or script from a JSON body.
 * - `Referrer-Policy: no-referrer`: neither the short URL nor the page it was clicked on is told
 *   to the destination of a redirect, or to anyone an error page links to.
 * - `Content-Security-Policy`: a JSON (or XML, text, image) body opened as a page is inert: it may
 *   load nothing and be framed by no one (`CONTENT_SECURITY_POLICY`, short, since it rides on
 *   every API answer). The pages Linklet writes set their own: the error page
 *   (`ERROR_PAGE_POLICY`), the password page, the web app.
 */
export const CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

export const ERROR_PAGE_STYLE_HASH = 'sha256-y+g3JWbItJ3YdCnZYPYlfZ/silWu4H7EX9mgVt8OcFo=';

/**
 * The error page's policy: it needs nothing but its own inline stylesheet (allowed by hash) and
 * the icon (`/favicon.svg`, an image of its own origin); no script, frame, form target or framing.
 */
export const ERROR_PAGE_POLICY = `default-src 'none'; style-src '${ERROR_PAGE_STYLE_HASH}'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
});

/** The error page's: `SECURITY_HEADERS` with the policy its stylesheet and icon need. */
export const ERROR_PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...SECURITY_HEADERS,
  'Content-Security-Policy': ERROR_PAGE_POLICY,
});

/**
 * What a redirect carries instead: it has no body, so there is nothing for `nosniff` or a
 * Content-Security-Policy to protect (a browser renders no document of a 302; it follows
 * `Location`). `Referrer-Policy` stays: it governs what the destination is told. Two headers
 * fewer on the answer Linklet gives most often.
 */
export const REDIRECT_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Referrer-Policy': 'no-referrer',
});

const ENTRIES = Object.entries(SECURITY_HEADERS);
const REDIRECT_ENTRIES = Object.entries(REDIRECT_SECURITY_HEADERS);

/**
 * Sets the security headers on a response's (mutable) headers and returns the response. A
 * Content-Security-Policy the route chose is kept: the pages (error, password, web app) set their own.
 */
export function withSecurityHeaders(response: Response): Response {
  const redirect = response.status >= 300 && response.status < 400;
  for (const [name, value] of redirect ? REDIRECT_ENTRIES : ENTRIES) {
    if (name === 'Content-Security-Policy' && response.headers.has(name)) continue;
    response.headers.set(name, value);
  }
  return response;
}
