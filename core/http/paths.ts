import type { Dialect } from '../shorten/shorten-answer.js';

// The route vocabulary: the handler's routes, the server's fast paths, its rate limiter and the
// extension's bundled backend all read these, so a path cannot mean one thing here and another there.

/** The legacy (PHP-era) endpoint: create with POST, describe with GET. */
export const LEGACY_API_PATH = '/api.php';
/** The v1 create endpoint. */
export const SHORTEN_PATH = '/api/v1/shorten';
export const OPENAPI_PATH = '/api/v1/openapi.json';
/** For load balancers: never rate limited, never a code. */
export const HEALTH_PATH = '/health';

/** YOURLS's API, where its clients add `yourls-api.php` to the server's address. */
export const YOURLS_API_PATH = '/yourls-api.php';
/** Shlink's REST API: its health check, and versions 2 and 3 (the same answers). */
export const SHLINK_HEALTH_PATH = '/rest/health';
export const SHLINK_API_PREFIXES = ['/rest/v2/', '/rest/v3/'] as const;

/** The peer API a path belongs to, whose clients read errors in that API's own shape. */
export type CompatDialect = 'yourls' | 'shlink';

/**
 * Which peer API serves `pathname`, if any. Shlink's are its health check and each version's
 * prefix, with or without its trailing slash (`/rest/v3` too: a client given a base URL that
 * ends there must read its 404 as a problem document). `/rest` and `/rest/` stay a short URL:
 * a link may have the code `rest`, and an update never hides a link made before it.
 */
export function compatDialectOf(pathname: string): CompatDialect | undefined {
  if (pathname === YOURLS_API_PATH) return 'yourls';
  if (!pathname.startsWith('/rest/')) return undefined;
  const isShlinkPath = (prefix: string) => pathname.startsWith(prefix) || pathname === prefix.slice(0, -1);
  if (pathname === SHLINK_HEALTH_PATH || SHLINK_API_PREFIXES.some(isShlinkPath)) return 'shlink';
  return undefined;
}

/**
 * API paths always answer JSON (or XML), with CORS for a request with `Origin`; `/api2` or
 * `/apiary` are short URLs like any other.
 */
export function isApiPath(pathname: string): boolean {
  return (
    pathname === '/api' ||
    pathname === LEGACY_API_PATH ||
    pathname.startsWith('/api/') ||
    compatDialectOf(pathname) !== undefined
  );
}

/** The code part of `/{code}` or `/{code}/`, still percent-encoded; undefined for other paths. */
export function codeSegmentOf(pathname: string): string | undefined {
  return /^\/([^/]+)\/?$/.exec(pathname)?.[1];
}

const SHORTEN_TARGET = /^\/(?:api\/v1\/(shorten)|api\.php)(?:\?|$)/;

/**
 * The dialect of a create sent to `target` (a request line's path and query, as Node gives it):
 * `v1` for `/api/v1/shorten`, `legacy` for `/api.php`, undefined for any other path.
 */
export function shortenDialectOfTarget(target: string): Dialect | undefined {
  const match = SHORTEN_TARGET.exec(target);
  if (match === null) return undefined;
  return match[1] === undefined ? 'legacy' : 'v1';
}

/** Whether a request line's target is the health check (with or without a query). */
export function isHealthTarget(target: string): boolean {
  return target === HEALTH_PATH || target.startsWith(`${HEALTH_PATH}?`);
}
