import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Creator } from '../../core/env.js';
import { type Answer, API_CORS_HEADERS } from '../../core/http/answer.js';
import { errorAnswer, logLevelOf } from '../../core/http/error-answer.js';
import { apiKeyRequired, carriesApiKey } from '../../core/http/middleware/api-key.js';
import { shortenDialectOfTarget } from '../../core/http/paths.js';
import type { Dialect, ShortenAnswerer } from '../../core/shorten/shorten-answer.js';
import { PLAIN_HOST } from './redirect-fast-path.js';
import { requestHeader } from './request-header.js';
import type { RequestLog } from './request-log.js';
import { writeAnswer } from './write-answer.js';

export interface ShortenFastPathOptions {
  /** The core's shorten use case, made from the handler's own settings (`createShortenAnswerer`). */
  answer: ShortenAnswerer;
  /** The handler's body limit: larger (or undeclared) bodies go to the handler, which answers 413. */
  maxBodyBytes: number;
  apiKey?: string;
  log: RequestLog;
}

/**
 * The dialect of a shorten request this path can take: a `POST` to `/api/v1/shorten` or
 * `/api.php` whose body has a declared length within the limit, with no key or the
 * administrator's. Everything else (a chunked or oversized body, an odd path or Host, an owner's
 * key, whose owner the handler looks up) is left to the core handler.
 */
export function shortenDialectOf(
  req: IncomingMessage,
  { maxBodyBytes, apiKey }: Pick<ShortenFastPathOptions, 'maxBodyBytes' | 'apiKey'>,
): Dialect | undefined {
  if (req.method !== 'POST' || !PLAIN_HOST.test(req.headers.host ?? '')) return undefined;
  const xApiKey = requestHeader(req, 'x-api-key');
  const authorization = requestHeader(req, 'authorization');
  const carriesKey = xApiKey !== undefined || authorization !== undefined;
  if (carriesKey && (apiKey === undefined || !carriesApiKey(xApiKey, authorization, apiKey))) return undefined;
  const dialect = shortenDialectOfTarget(req.url ?? '');
  const declared = req.headers['content-length'];
  if (dialect === undefined || declared === undefined || req.headers['transfer-encoding'] !== undefined)
    return undefined;
  if (Number.parseInt(declared, 10) > maxBodyBytes) return undefined;
  return dialect;
}

const KEYLESS: Creator = { keyless: true };

/**
 * Shorten requests without web Request/Response objects: the body is read from the socket, and
 * the core's `answerShorten` (the very function behind the handler's routes) turns it into the
 * answer, written as is (with the API's CORS headers when the request sent `Origin`). The API
 * key is checked before the body is read, as the handler does. Returns whether it took the request.
 */
export function createShortenFastPath(options: ShortenFastPathOptions) {
  const { log, apiKey } = options;
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const dialect = shortenDialectOf(req, options);
    if (dialect === undefined) return false;
    const trace = log.begin('POST', req.url ?? '', req.headers['x-request-id']);
    // CORS only for a request that sent `Origin`, as the handler's `apiCors`.
    const crossOrigin = req.headers.origin !== undefined;
    const send = (answer: Answer) => {
      if (crossOrigin) Object.assign(answer.headers, API_CORS_HEADERS);
      writeAnswer(res, answer, trace.id);
      log.answered(trace, answer.status);
    };
    const fail = (error: unknown) => {
      const level = logLevelOf(error);
      if (level !== undefined) log.failed(error, level, trace);
      send(errorAnswer(error, { path: trace.path, crossOrigin }));
    };
    if (
      apiKey !== undefined &&
      !carriesApiKey(requestHeader(req, 'x-api-key'), requestHeader(req, 'authorization'), apiKey)
    ) {
      fail(apiKeyRequired());
      return true;
    }
    const carriesKey =
      requestHeader(req, 'x-api-key') !== undefined || requestHeader(req, 'authorization') !== undefined;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      // No key: the link is nobody's, and its maker gets a claim token; the administrator's: `{}`.
      options.answer(dialect, body, carriesKey ? {} : KEYLESS).then(send, fail);
    });
    return true;
  };
}
