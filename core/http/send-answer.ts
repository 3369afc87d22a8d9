import type { Context } from 'hono';
import type { Answer } from './answer.js';
import type { ErrorAudience } from './error-answer.js';

/** Sends a core `Answer` through Hono, so middleware headers (CORS) still apply. */
export function sendAnswer(c: Context, answer: Answer): Response {
  return answer.body === null
    ? c.body(null, answer.status as 200, answer.headers)
    : c.body(answer.body, answer.status as 200, answer.headers);
}

/** Who an error answer is for: the page-or-JSON and CORS choices of `errorAnswer`. */
export function audienceOf(c: Context, timeZone?: string): ErrorAudience {
  return {
    path: c.req.path,
    accept: c.req.header('accept'),
    acceptLanguage: c.req.header('accept-language'),
    timeZone,
    crossOrigin: c.req.header('origin') !== undefined,
  };
}
