import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { toErrorEnvelope } from '../core/envelopes.js';
import type { FetchHandler } from '../core/handler.js';
import type { Logger } from './logger.js';

const REQUEST_ID = /^[\w.-]{1,64}$/;

export interface HttpServerOptions {
  logger: Logger;
  /** Whole request, headers and body (slow-loris and stalled uploads). */
  requestTimeoutMs?: number;
  headersTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
}

/**
 * Serves a fetch-style handler over Node HTTP with request ids, one log line per request, and
 * timeouts. `requestIds` lets the handler's error hook log under the id of the failing request.
 */
export function createHttpServer(handler: FetchHandler, options: HttpServerOptions) {
  const { logger } = options;
  const requestIds = new AsyncLocalStorage<string>();

  const listener = getRequestListener(
    async (request) => {
      const started = performance.now();
      const given = request.headers.get('x-request-id');
      const id = given && REQUEST_ID.test(given) ? given : randomUUID();
      const response = await requestIds.run(id, () => handler(request));
      response.headers.set('X-Request-Id', id);
      logger.info(
        {
          reqId: id,
          method: request.method,
          path: new URL(request.url).pathname,
          status: response.status,
          durationMs: Math.round((performance.now() - started) * 100) / 100,
        },
        'request',
      );
      return response;
    },
    {
      // Requests Node cannot even turn into a Request (a bad Host, say) still get the envelope.
      errorHandler: (error) => {
        logger.warn({ err: error }, 'unreadable request');
        return Response.json(toErrorEnvelope('The request could not be read.'), { status: 400 });
      },
    },
  );

  const server: Server = createServer(listener);
  server.requestTimeout = options.requestTimeoutMs ?? 30_000;
  server.headersTimeout = options.headersTimeoutMs ?? 10_000;
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 5_000;
  return { server, currentRequestId: () => requestIds.getStore() };
}

/**
 * Stops accepting connections, lets in-flight requests finish, and closes keep-alive sockets as
 * they go idle. After `graceMs` the remaining sockets are cut so shutdown always ends.
 */
export function closeGracefully(server: Server, graceMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const idleSweep = setInterval(() => server.closeIdleConnections(), 50);
    const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close((error) => {
      clearInterval(idleSweep);
      clearTimeout(deadline);
      if (error) reject(error);
      else resolve();
    });
    server.closeIdleConnections();
  });
}
