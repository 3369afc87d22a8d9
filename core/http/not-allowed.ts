import type { Context } from 'hono';
import { LinkletError } from './errors.js';

/** A route that refuses its method with 405 and the methods the path does accept (`Allow`). */
export function notAllowed(allow: readonly string[]) {
  return (c: Context): never => {
    throw new LinkletError('method_not_allowed', `${c.req.method} is not allowed here; use ${allow.join(', ')}.`, {
      allow,
    });
  };
}
