import type { ServerResponse } from 'node:http';
import type { Answer } from '../../core/answer.js';

/**
 * Writes a core `Answer` straight to Node's response, with its length and request id: how the
 * fast paths, the rate limiter and the redirect send what the core decided, without building a
 * web `Response`. Node sends no body for HEAD, whatever `end()` is given.
 */
export function writeAnswer(res: ServerResponse, answer: Answer, requestId: string): void {
  const headers = answer.headers;
  headers['X-Request-Id'] = requestId;
  headers['Content-Length'] = answer.body === null ? '0' : String(Buffer.byteLength(answer.body));
  res.writeHead(answer.status, headers);
  res.end(answer.body ?? undefined);
}
