import type { Context } from 'hono';
import { LinkletError } from './errors.js';

/**
 * A route that refuses its method with 405 and the methods the path does accept (`Allow`). The
 * list rides on the route as `allow`, so a test can hold every path's list against the API catalog.
 */
export function notAllowed(allow: readonly string[]) {
  const refuse = (c: Context): never => {
    throw new LinkletError('method_not_allowed', `${c.req.method} is not allowed here; use ${allow.join(', ')}.`, {
      allow,
    });
  };
  return Object.assign(refuse, { allow });
}
