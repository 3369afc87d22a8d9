import type { Answer } from '../http/answer.js';
import { SECURITY_HEADERS } from '../http/security-headers.js';

/**
 * Linklet's mark (two chain links on blue, as the extension's icons in public/icon/) as SVG: one
 * small file sharp at every size, for the web app, the short-URL pages and the browser's tab.
 */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 128 128"><rect width="128" height="128" rx="28" fill="#0b5fff"/><g fill="none" stroke="#fff" stroke-width="9" transform="rotate(-45 64 64)"><rect x="51" y="22" width="26" height="50" rx="13"/><rect x="51" y="56" width="26" height="50" rx="13"/></g></svg>';

/**
 * Where the mark is served. It has a dot, which no code may have (SPEC "Codes"), so no link,
 * old or new, can ever be shadowed by it; it is a reserved word all the same.
 */
export const FAVICON_PATH = '/favicon.svg';

/** The icon as an answer: a day in caches, since a new mark may come with an update. */
export function faviconAnswer(): Answer {
  return {
    status: 200,
    headers: {
      'Content-Type': 'image/svg+xml',
      'Cache-Control': 'public, max-age=86400',
      ...SECURITY_HEADERS,
    },
    body: FAVICON_SVG,
  };
}
