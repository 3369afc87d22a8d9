import type { Context, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { API_CORS_HEADERS } from '../answer.js';

const CORS_ENTRIES = Object.entries(API_CORS_HEADERS);

/** The methods Linklet's own API takes, which its preflights allow. */
export const API_METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'OPTIONS', 'PATCH', 'DELETE'];

/** The request headers a page may send to the API paths. */
export const API_HEADERS: readonly string[] = ['Content-Type', 'X-API-Key', 'Authorization'];

/**
 * `/yourls-api.php`'s: the browser YOURLS libraries (`yourls-api`, jQuery's `$.ajax`) add
 * `X-Requested-With`, and a preflight that does not allow it fails their every call.
 */
export const YOURLS_HEADERS: readonly string[] = [...API_HEADERS, 'X-Requested-With'];

/**
 * CORS for the API paths: Hono's `cors` answers preflights; an actual request that sent `Origin`
 * gets the same headers set on its final response. One without `Origin` is no CORS request (a
 * browser sends it on every cross-origin fetch), so it gets none: two headers fewer on every
 * create by curl or a server. A `GET` answer a cache may keep says `Vary: Origin`, so a cache
 * never hands the answer without CORS to a page that needs it. Merging a placeholder response
 * into the route's (as `cors` does) makes Hono rebuild that response around a body stream, a
 * large share of a create's cost. `allowMethods` is what the paths take: a browser sends no
 * request its preflight did not allow, so it could not even read the refusal of a method left out.
 */
export function apiCors(
  allowMethods: readonly string[] = API_METHODS,
  allowHeaders: readonly string[] = API_HEADERS,
): MiddlewareHandler {
  const preflight = cors({
    allowMethods: [...allowMethods],
    allowHeaders: [...allowHeaders],
    exposeHeaders: ['Location', 'Retry-After'],
    maxAge: 86_400,
  });
  return async (c: Context, next: () => Promise<void>) => {
    const { method } = c.req;
    if (method === 'OPTIONS') return preflight(c, next);
    await next();
    const headers = c.res.headers;
    if ((method === 'GET' || method === 'HEAD') && !headers.get('Cache-Control')?.includes('no-store'))
      headers.append('Vary', 'Origin');
    if (c.req.header('origin') === undefined) return;
    for (const [name, value] of CORS_ENTRIES) headers.set(name, value);
  };
}
