import type { Context } from 'hono';
import { toErrorEnvelope } from './envelopes.js';
import { prefersHtml, renderErrorPage } from './error-page.js';
import { LinkletError } from './errors.js';
import type { Link } from './link-store.js';

/** The code part of `/{code}` or `/{code}/`, still percent-encoded; undefined for other paths. */
export function codeSegmentOf(request: Request): string | undefined {
  return /^\/([^/]+)\/?$/.exec(new URL(request.url).pathname)?.[1];
}

/** 302 to the link's ASCII URL; caches may keep it only while the link lives. */
export function redirectResponse(link: Link, now: number): Response {
  const secondsLeft = Math.max(0, Math.floor((link.expiresAt - now) / 1000));
  return new Response(null, {
    status: 302,
    headers: { Location: new URL(link.originalUrl).href, 'Cache-Control': `private, max-age=${secondsLeft}` },
  });
}

/** A handler that refuses its method with 405 and the methods the path does accept. */
export function notAllowed(allow: readonly string[]) {
  return (c: Context): Response => {
    throw new LinkletError('method_not_allowed', `${c.req.method} is not allowed here; use ${allow.join(', ')}.`, {
      allow,
    });
  };
}

/** 404: a page for browsers on non-API paths, the JSON envelope for everyone else. */
export function notFound(c: Context): Response {
  return pageOrEnvelope(c, 404, 'Not found', 'There is no short link or page at this address.');
}

/** A 404 or 410 as a small HTML page for browsers, as the JSON envelope for API clients. */
export function pageOrEnvelope(c: Context, status: 404 | 410, title: string, message: string): Response {
  const headers = { 'Cache-Control': 'no-store' };
  if (prefersHtml(c.req.raw) && !isApiPath(new URL(c.req.url).pathname)) {
    return c.html(renderErrorPage(title, message), status, headers);
  }
  return c.json(toErrorEnvelope(message), status, headers);
}

/** API paths always answer JSON; `/api2` or `/apiary` are short URLs like any other. */
function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname === '/api.php' || pathname.startsWith('/api/');
}

/** The JSON error envelope of a `LinkletError`, with its status (and `Allow` for a 405). */
export function errorResponse(c: Context, error: LinkletError): Response {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
  if (error.allow) headers.Allow = error.allow.join(', ');
  return c.json(toErrorEnvelope(error.message), error.status as 400, headers);
}
