import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener, RequestError } from '@hono/node-server';
import type { FetchHandler } from '../../core/handler.js';
import type { Answer } from '../../core/http/answer.js';
import { errorAnswer, logLevelOf } from '../../core/http/error-answer.js';
import { LinkletError } from '../../core/http/errors.js';
import { compatDialectOf } from '../../core/http/paths.js';
import { rateLimitSubject } from './client-address.js';
import type { RequestLog } from './request-log.js';

/** A core `Answer` as a web `Response`. */
export const toResponse = (answer: Answer): Response =>
  new Response(answer.body, { status: answer.status, headers: answer.headers });

/**
 * Serves the core's fetch handler over Node through @hono/node-server, which only converts: the
 * request's id travels to the handler in its `env` (so a failure the handler reports is logged
 * under the id the client is sent), and the answer is logged like every other path's.
 */
export function createWebAdapter(
  handler: FetchHandler,
  log: RequestLog,
  clientOf?: (req: IncomingMessage) => string,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  // The request being converted: when @hono/node-server cannot build a Request from it, it calls
  // `errorHandler` before its listener call returns, with no other way to say whose path it was.
  let converting: IncomingMessage | undefined;
  const listener = getRequestListener(
    async (request, env) => {
      const givenId = request.headers.get('x-request-id');
      const trace = log.begin(request.method, new URL(request.url).pathname, givenId);
      // The client as the rate limiter counts it (an IPv6 address by its /64): password tries are
      // counted per client.
      const incoming = env.incoming as IncomingMessage | undefined;
      const address = clientOf && incoming ? clientOf(incoming) : incoming?.socket.remoteAddress;
      const client = address && rateLimitSubject(address);
      const response = await handler(request, { requestId: trace.id, ...(client && { client, address }) });
      // A redirect names its id only to a client that sent one, as the fast path's (`writeRedirect`).
      const redirect = response.status >= 300 && response.status < 400;
      if (!redirect || givenId !== null) response.headers.set('X-Request-Id', trace.id);
      log.answered(trace, response.status);
      return response;
    },
    {
      errorHandler: (error) => {
        if (error instanceof RequestError) {
          // Node could not even turn it into a Request (a bad Host, say): the envelope still goes
          // out, and unlike a refused field it is logged, since it tells of a broken client or proxy.
          const unreadable = new LinkletError('invalid', 'The request could not be read.', { cause: error });
          log.failed(unreadable, 'warn', undefined);
          // A peer API's client (Shlink's) reads its errors in that API's shape.
          const path = converting?.url?.split('?', 1)[0];
          const peer = path !== undefined && compatDialectOf(path) !== undefined;
          const crossOrigin = converting?.headers.origin !== undefined;
          return toResponse(errorAnswer(unreadable, peer ? { path, crossOrigin } : undefined));
        }
        // The handler itself failed (the core's catches its own, so this is unexpected): logged
        // and answered by the one rule, like a failure inside the handler.
        const level = logLevelOf(error);
        if (level !== undefined) log.failed(error, level, undefined);
        return toResponse(errorAnswer(error));
      },
    },
  );
  return (req, res) => {
    converting = req;
    try {
      return listener(req, res);
    } finally {
      converting = undefined;
    }
  };
}
