import type { ServerResponse } from 'node:http';
import type { Answer } from '../../core/http/answer.js';

/**
 * Writes a core `Answer` straight to Node's response, with its length and request id: how the
 * fast paths, the rate limiter and the redirect send what the core decided, without building a
 * web `Response`. Node sends no body for HEAD, whatever `end()` is given.
 *
 * The headers go to Node as its raw array (name, value, …), which it takes as is, and the answer
 * is left unchanged (adding properties to it would turn a fast object into a slow one). An ASCII
 * body (all JSON, every page Linklet writes in English) goes out as Latin-1, which Node writes
 * with the headers in one copy, without UTF-8 encoding; any other body as UTF-8. Either way the
 * answer is one socket write.
 */
export function writeAnswer(res: ServerResponse, answer: Answer, requestId: string): void {
  const { headers, body } = answer;
  const raw: string[] = [];
  for (const name in headers) raw.push(name, headers[name] as string);
  if (body === null) {
    raw.push('X-Request-Id', requestId, 'Content-Length', '0');
    res.writeHead(answer.status, raw);
    res.end();
    return;
  }
  const bytes = Buffer.byteLength(body);
  raw.push('X-Request-Id', requestId, 'Content-Length', String(bytes));
  res.writeHead(answer.status, raw);
  // As many bytes as characters: every character is ASCII, whose Latin-1 bytes are its UTF-8 bytes.
  // `write` then `end`, not `end(body)`: Node sends the headers and body of a `write` as one
  // string in one plain write, where `end(body)` corks the socket and sends them with an empty
  // chunk as a writev.
  res.write(body, bytes === body.length ? 'latin1' : 'utf8');
  res.end();
}
