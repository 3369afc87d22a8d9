import type { ServerResponse } from 'node:http';
import type { Answer } from '../../core/http/answer.js';
import { REDIRECT_SECURITY_HEADERS } from '../../core/http/security-headers.js';

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
  // The head and body go out as one string; with the empty chunk `end` adds, Node sends them in
  // one `writev` (strace on Node 20: one call per answer).
  res.end(body, bytes === body.length ? 'latin1' : 'utf8');
}

// A redirect's raw headers in the order `redirectAnswer` gives them; the three that change are
// filled in per answer. Node reads the array while `writeHead` runs and keeps none of it.
const REDIRECT_HEAD = [
  'Location',
  '',
  'Cache-Control',
  '',
  ...Object.entries(REDIRECT_SECURITY_HEADERS).flat(),
  'X-Request-Id',
  '',
  'Content-Length',
  '0',
];
const REQUEST_ID_AT = REDIRECT_HEAD.length - 3;

/**
 * Writes the core's 302 (`redirectAnswer`: the same headers, in the same order) without building
 * the answer: the redirect fast path's one job, done at every click, so no object or header
 * record is made for it.
 */
export function writeRedirect(res: ServerResponse, location: string, cacheControl: string, requestId: string): void {
  REDIRECT_HEAD[1] = location;
  REDIRECT_HEAD[3] = cacheControl;
  REDIRECT_HEAD[REQUEST_ID_AT] = requestId;
  res.writeHead(302, REDIRECT_HEAD);
  res.end();
}
