import type { Context, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { API_CORS_HEADERS } from '../answer.js';

const CORS_ENTRIES = Object.entries(API_CORS_HEADERS);

/**
 * CORS for the API paths: Hono's `cors` answers preflights; an actual request gets the same
 * headers set on its final response. Merging a placeholder response into the route's (as `cors`
 * does) makes Hono rebuild that response around a body stream, a large share of a create's cost.
 */
export function apiCors(): MiddlewareHandler {
  const preflight = cors({
    allowMethods: ['GET', 'HEAD', 'POST', 'OPTIONS', 'PATCH', 'DELETE'],
    allowHeaders: ['Content-Type', 'X-API-Key', 'Authorization'],
    exposeHeaders: ['Location', 'Retry-After'],
    maxAge: 86_400,
  });
  return async (c: Context, next: () => Promise<void>) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    await next();
    for (const [name, value] of CORS_ENTRIES) c.res.headers.set(name, value);
  };
}
