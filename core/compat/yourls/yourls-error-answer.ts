import type { Answer } from '../../http/answer.js';
import type { LinkletError } from '../../http/errors.js';
import { yourlsFailure } from './yourls-failure.js';
import { yourlsAnswer } from './yourls-format.js';

/**
 * An error raised on YOURLS's path outside its route (the rate limiter's 429, the body limit's
 * 413, a 405, an unexpected failure), in YOURLS's shape. The format the client asked for is not
 * known there (the body may not have been read), so it is JSON, which every YOURLS client reads.
 */
export function yourlsErrorAnswer(error: LinkletError, headers: Record<string, string>): Answer {
  const answer = yourlsAnswer('json', yourlsFailure(error));
  return { ...answer, headers: { ...headers, ...answer.headers } };
}
