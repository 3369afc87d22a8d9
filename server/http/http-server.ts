import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { toErrorEnvelope } from '../../core/envelopes.js';
import type { FetchHandler } from '../../core/handler.js';
import type { Link, LinkStore } from '../../core/link-store.js';
import { answerShortUrl, codeKeyOfSegment, resolutionOf, type ShortUrlAnswer } from '../../core/resolve.js';
import { withSecurityHeaders } from '../../core/security-headers.js';
import type { Logger } from '../process/logger.js';
import { answerClientError } from './client-errors.js';
import { isExempt, type RateLimiter, sendTooManyRequests } from './rate-limit.js';
import { type ShortenFastPathOptions, serveShortenRequest, shortenDialectOf } from './shorten-fast-path.js';

const REQUEST_ID = /^[\w.-]{1,64}$/;

/**
 * The request targets the fast path takes: `/{code}` or `/{code}/` (any query) where the code is
 * ASCII letters, digits, `_`, `-` and percent escapes (every code, percent-encoded, fits). Such a
 * path is exactly what `new URL` makes of it (no dot segments: `%2e` is left out, no character
 * it would escape), so the core handler would see the same segment. Anything else, however
 * unusual, goes to the core handler.
 */
const FAST_TARGET = /^\/((?:[\w-]|%(?!2[eE])[0-9A-Fa-f]{2})+)\/?(?:\?|$)/;
// Served by routes of their own in the core handler (reserved, so never codes).
const ROUTED_SEGMENT = /^(?:api|health)$/i;
// The Host values @hono/node-server takes as they are; it parses (and may refuse) the others.
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;

export interface HttpServerOptions {
  logger: Logger;
  /** Whole request, headers and body (slow-loris and stalled uploads). */
  requestTimeoutMs?: number;
  headersTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
  /**
   * When given, `GET` and `HEAD` of a short URL skip the web Request/Response adapter: the
   * server resolves the code on this store (the handler's own) and writes the core's
   * `answerShortUrl` straight to the socket. Every other request goes to the handler.
   */
  shortUrls?: { store: ShortUrlStore; now?: () => number };
  /**
   * When given, shorten requests with a body of declared length skip the web Request/Response
   * adapter too: the body goes straight to the handler's own `answerShorten`.
   */
  creates?: ShortenFastPathOptions;
  /** When given, a client over its limit is answered 429 before anything else is done. */
  rateLimiter?: RateLimiter;
}

/** The handler's store; with `lookup` (the cache's), a cached link is answered without a promise. */
type ShortUrlStore = LinkStore & { lookup?: (codeKey: string) => Link | Promise<Link | undefined> };

/** The request id a client sent, if it is well-formed; otherwise a fresh one. */
const requestIdFrom = (given: string | string[] | null | undefined): string =>
  typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();

/**
 * Serves a fetch-style handler over Node HTTP with request ids, one log line per request, and
 * timeouts. `requestIdOf` gives the id of a request the handler was called with, so its error
 * hook can log a failure under the id the client was sent.
 */
export function createHttpServer(handler: FetchHandler, options: HttpServerOptions) {
  const { logger } = options;
  // Keyed by the Request object the handler receives (no AsyncLocalStorage: its promise hooks
  // would tax every request, the redirect fast path included).
  const requestIds = new WeakMap<Request, string>();

  const logRequest = (reqId: string, method: string, path: string, status: number, started: number) =>
    logger.info(
      { reqId, method, path, status, durationMs: Math.round((performance.now() - started) * 100) / 100 },
      'request',
    );

  const listener = getRequestListener(
    async (request) => {
      const started = performance.now();
      const id = requestIdFrom(request.headers.get('x-request-id'));
      requestIds.set(request, id);
      const response = await handler(request);
      response.headers.set('X-Request-Id', id);
      logRequest(id, request.method, new URL(request.url).pathname, response.status, started);
      return response;
    },
    {
      // Requests Node cannot even turn into a Request (a bad Host, say) still get the envelope.
      errorHandler: (error) => {
        logger.warn({ err: error }, 'unreadable request');
        return withSecurityHeaders(Response.json(toErrorEnvelope('The request could not be read.'), { status: 400 }));
      },
    },
  );

  const fast = options.shortUrls;
  const now = fast?.now ?? Date.now;
  /** Answers a short URL without web Request/Response objects: the same answer and log line. */
  const serveShortUrl = (
    req: IncomingMessage,
    res: ServerResponse,
    store: ShortUrlStore,
    segment: string,
    path: string,
  ) => {
    const started = performance.now();
    const id = requestIdFrom(req.headers['x-request-id']);
    const at = now();
    const send = (link: Link | undefined) => {
      let answer: ShortUrlAnswer;
      try {
        answer = answerShortUrl(resolutionOf(link, at), at, (req.headers.accept ?? '').includes('text/html'));
      } catch {
        void listener(req, res); // a broken stored URL, say: the handler answers 500 and logs it
        return;
      }
      const headers = answer.headers;
      headers['X-Request-Id'] = id;
      headers['Content-Length'] = answer.body === null ? '0' : String(Buffer.byteLength(answer.body));
      try {
        res.writeHead(answer.status, headers);
        res.end(answer.body ?? undefined); // Node sends no body for HEAD, whatever end() is given
      } catch (error) {
        logger.error({ err: error, reqId: id }, 'request failed'); // never expected; never a crash
        res.destroy();
        return;
      }
      logRequest(id, req.method as string, path, answer.status, started);
    };
    const key = codeKeyOfSegment(segment);
    if (key === undefined) return send(undefined);
    // A cached link is answered at once, without a promise; anything else waits for the store.
    const found = store.lookup ? store.lookup(key) : store.findByCodeKey(key);
    if (!(found instanceof Promise)) return send(found);
    found.then(
      send,
      // The store failed: the core handler answers instead (a 500 or 503, logged under its request id).
      () => void listener(req, res),
    );
  };

  const { creates } = options;
  const limiter = options.rateLimiter;
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  // Node checks the header and request timeouts on this beat (30 s by default, which would let
  // a slow-loris client hold a socket up to 30 s past them).
  const checkEveryMs = Math.max(100, Math.min(1000, Math.floor(headersTimeout / 4)));
  /** Sends a request where it goes: a fast path or the handler. */
  const route = (req: IncomingMessage, res: ServerResponse) => {
    if (fast !== undefined && (req.method === 'GET' || req.method === 'HEAD')) {
      const target = req.url ?? '';
      const segment = FAST_TARGET.exec(target)?.[1];
      const host = req.headers.host;
      if (segment !== undefined && host !== undefined && PLAIN_HOST.test(host) && !ROUTED_SEGMENT.test(segment)) {
        const query = target.indexOf('?');
        serveShortUrl(req, res, fast.store, segment, query === -1 ? target : target.slice(0, query));
        return;
      }
    }
    const shortening = creates && PLAIN_HOST.test(req.headers.host ?? '') && shortenDialectOf(req, creates);
    if (creates && shortening) {
      const started = performance.now();
      const id = requestIdFrom(req.headers['x-request-id']);
      const path = (req.url ?? '').split('?', 1)[0] as string;
      serveShortenRequest(req, res, shortening, id, creates, (status) => logRequest(id, 'POST', path, status, started));
      return;
    }
    void listener(req, res);
  };
  const server: Server = createServer({ connectionsCheckingInterval: checkEveryMs }, (req, res) => {
    // Shutting down: every answer from now on closes its connection (see closeGracefully).
    if (draining.has(server)) res.setHeader('Connection', 'close');
    if (limiter === undefined || isExempt(req)) {
      route(req, res);
      return;
    }
    void limiter.take(limiter.clientOf(req), limiter.keyOf(req)).then((wait) => {
      if (wait === undefined) return route(req, res);
      const id = requestIdFrom(req.headers['x-request-id']);
      sendTooManyRequests(res, wait, id);
      logRequest(id, req.method as string, (req.url ?? '').split('?', 1)[0] as string, 429, performance.now());
    });
  });
  server.requestTimeout = options.requestTimeoutMs ?? 30_000;
  server.headersTimeout = headersTimeout;
  server.on('clientError', (error: Error, socket) => answerClientError(error, socket, logger));
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 5_000;
  return { server, requestIdOf: (request: Request) => requestIds.get(request) };
}

/** Servers shutting down: every answer they send from then on closes its connection. */
const draining = new WeakSet<Server>();

/**
 * Stops accepting connections and lets in-flight requests finish. From then on every answer
 * carries `Connection: close`, so a keep-alive client learns of the shutdown from the answer to
 * a request it has already sent, rather than having that request reset: closing a connection
 * that looks idle while the client's next request is on its way (in the socket buffer, not yet
 * read) resets it. Connections still idle after `idleGraceMs` are closed as such; after
 * `graceMs` the rest are cut, so shutdown always ends.
 */
export function closeGracefully(server: Server, graceMs = 10_000, idleGraceMs = 500): Promise<void> {
  draining.add(server);
  return new Promise((resolve, reject) => {
    let idleSweep: NodeJS.Timeout | undefined;
    const idleGrace = setTimeout(() => {
      server.closeIdleConnections();
      idleSweep = setInterval(() => server.closeIdleConnections(), 50);
    }, idleGraceMs);
    const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
    // net.Server's close stops listening and calls back once the last connection has closed; the
    // http.Server override would also close every idle-looking connection at once (see above).
    NetServer.prototype.close.call(server, (error?: Error) => {
      clearTimeout(idleGrace);
      clearInterval(idleSweep);
      clearTimeout(deadline);
      if (error) reject(error);
      else resolve();
    });
  });
}
