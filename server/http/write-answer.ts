import type { ServerResponse } from 'node:http';
import type { Answer } from '../../core/http/answer.js';
import { REDIRECT_SECURITY_HEADERS } from '../../core/http/security-headers.js';

/**
 * Writes a core `Answer` straight to Node's response, with its length and request id: how the
 * fast paths, the rate limiter and the redirect send what the core decided, without building a
 * web `Response`. Every answer but a redirect (`writeRedirect`) names its request id, so whoever
 * reports an error can quote it. Node sends no body for HEAD, whatever `end()` is given.
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

// A redirect's raw headers in the order `redirectAnswer` gives them; the ones that change are
// filled in per answer. Node reads the array while `writeHead` runs and keeps none of it.
const REDIRECT_HEAD = [
  'Location',
  '',
  'Cache-Control',
  '',
  ...Object.entries(REDIRECT_SECURITY_HEADERS).flat(),
  'Content-Length',
  '0',
];
// The same with the request id the client sent echoed back, before `Content-Length`.
const ECHOING_HEAD = [...REDIRECT_HEAD.slice(0, -2), 'X-Request-Id', '', 'Content-Length', '0'];
const REQUEST_ID_AT = ECHOING_HEAD.length - 3;

/**
 * Writes the core's 302 (`redirectAnswer`: the same headers, in the same order) without building
 * the answer: the redirect fast path's one job, done at every click, so no object or header
 * record is made for it. `echoedId` is the request's id when the request sent `X-Request-Id`;
 * otherwise none is sent (a browser following a link reads no header of the 302, and the access
 * line still carries the id the server gave it).
 */
export function writeRedirect(
  res: ServerResponse,
  location: string,
  cacheControl: string,
  echoedId: string | undefined,
): void {
  const head = echoedId === undefined ? REDIRECT_HEAD : ECHOING_HEAD;
  head[1] = location;
  head[3] = cacheControl;
  if (echoedId !== undefined) head[REQUEST_ID_AT] = echoedId;
  res.writeHead(302, head);
  res.end();
}
