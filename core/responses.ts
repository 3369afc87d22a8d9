import type { Context } from 'hono';
import { prefersHtml } from './error-page.js';
import { LinkletError } from './errors.js';
import { notFoundAnswer, type ShortUrlAnswer } from './resolve.js';
import { type ApiAnswer, errorAnswer } from './shorten-answer.js';

/** The code part of `/{code}` or `/{code}/`, still percent-encoded; undefined for other paths. */
export function codeSegmentOf(request: Request): string | undefined {
  return /^\/([^/]+)\/?$/.exec(new URL(request.url).pathname)?.[1];
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
  return sendAnswer(c, notFoundAnswer(wantsPage(c)));
}

/** Whether to answer a 404 or 410 with the HTML page: a browser asking for a non-API path. */
export function wantsPage(c: Context): boolean {
  return prefersHtml(c.req.raw) && !isApiPath(new URL(c.req.url).pathname);
}

/** Sends a core `ShortUrlAnswer` through Hono (so middleware headers such as CORS still apply). */
export function sendAnswer(c: Context, answer: ShortUrlAnswer): Response {
  return answer.body === null
    ? c.body(null, answer.status, answer.headers)
    : c.body(answer.body, answer.status, answer.headers);
}

/** API paths always answer JSON; `/api2` or `/apiary` are short URLs like any other. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname === '/api.php' || pathname.startsWith('/api/');
}

/** The JSON error envelope of a `LinkletError`, with its status (`Allow` for a 405, `Retry-After` when set). */
export function errorResponse(c: Context, error: LinkletError): Response {
  return sendApiAnswer(c, errorAnswer(error));
}

/** Sends a core `ApiAnswer` through Hono (so middleware headers such as CORS still apply). */
export function sendApiAnswer(c: Context, answer: ApiAnswer): Response {
  return c.body(answer.body, answer.status as 200, answer.headers);
}
