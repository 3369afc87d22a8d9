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

/** API paths always answer JSON with CORS; `/api2` or `/apiary` are short URLs like any other. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname === LEGACY_API_PATH || pathname.startsWith('/api/');
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
