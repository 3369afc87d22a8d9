import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiKeyRequired, carriesApiKey } from '../../core/api-key.js';
import {
  API_CORS_HEADERS,
  type ApiAnswer,
  type ApiDialect,
  errorAnswer,
  type ShortenAnswerer,
} from '../../core/shorten-answer.js';

export interface ShortenFastPathOptions {
  /** The handler's own shorten use case (`LinkletHandler.answerShorten`). */
  answer: ShortenAnswerer;
  /** The handler's body limit: larger (or undeclared) bodies go to the handler, which answers 413. */
  maxBodyBytes: number;
  apiKey?: string;
  /** Told of a failure the handler would report to its `onError` (a 500, or a 503 from the store). */
  onError?: (error: unknown, request: { reqId: string; method: string; url: string }) => void;
}

const SHORTEN_TARGET = /^\/(?:api\/v1\/(shorten)|api\.php)(?:\?|$)/;
// `Response.text()` decodes this way (UTF-8, a leading BOM dropped, bad bytes replaced).
const utf8 = new TextDecoder();

/**
 * The dialect of a shorten request the fast path can take: a `POST` to `/api/v1/shorten` or
 * `/api.php` whose body has a declared length within the limit, with no key or the
 * administrator's. Everything else (a chunked or oversized body, an odd path, an owner's key,
 * whose owner the handler looks up) is left to the core handler.
 */
export function shortenDialectOf(
  req: IncomingMessage,
  { maxBodyBytes, apiKey }: Pick<ShortenFastPathOptions, 'maxBodyBytes' | 'apiKey'>,
): ApiDialect | undefined {
  if (req.method !== 'POST') return undefined;
  const xApiKey = header(req, 'x-api-key');
  const authorization = header(req, 'authorization');
  const carriesKey = xApiKey !== undefined || authorization !== undefined;
  if (carriesKey && (apiKey === undefined || !carriesApiKey(xApiKey, authorization, apiKey))) return undefined;
  const target = SHORTEN_TARGET.exec(req.url ?? '');
  const declared = req.headers['content-length'];
  if (target === null || declared === undefined || req.headers['transfer-encoding'] !== undefined) return undefined;
  if (Number.parseInt(declared, 10) > maxBodyBytes) return undefined;
  return target[1] === undefined ? 'legacy' : 'v1';
}

/**
 * Answers a shorten request without web Request/Response objects: the body is read from the
 * socket, and the core's `answerShorten` (the very function behind the handler's routes) turns
 * it into the answer, written as is with the API's CORS headers. The API key is checked before
 * the body is read, as the handler does. `sent` is told the status once the answer is written.
 */
export function serveShortenRequest(
  req: IncomingMessage,
  res: ServerResponse,
  dialect: ApiDialect,
  reqId: string,
  options: ShortenFastPathOptions,
  sent: (status: number) => void,
): void {
  const send = (answer: ApiAnswer) => {
    const headers: Record<string, string> = { ...answer.headers, ...API_CORS_HEADERS, 'X-Request-Id': reqId };
    headers['Content-Length'] = String(Buffer.byteLength(answer.body));
    res.writeHead(answer.status, headers);
    res.end(answer.body);
    sent(answer.status);
  };
  const fail = (error: unknown) => {
    const answer = errorAnswer(error);
    if (answer.status >= 500) options.onError?.(error, { reqId, method: 'POST', url: req.url ?? '' });
    send(answer);
  };
  const { apiKey } = options;
  if (apiKey !== undefined && !carriesApiKey(header(req, 'x-api-key'), header(req, 'authorization'), apiKey)) {
    fail(apiKeyRequired());
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = utf8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    options.answer(dialect, body).then(send, fail);
  });
}

/** A header as `Headers.get` gives it: repeated values joined by `, `. */
const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headersDistinct[name];
  return value === undefined ? undefined : value.join(', ');
};
