import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FetchHandler } from '../../core/handler.js';
import { errorAnswer } from '../../core/http/error-answer.js';
import { LinkletError } from '../../core/http/errors.js';
import type { LinkRules } from '../../core/redirect/rules/link-rule-options.js';
import type { ClickRecorder } from '../../core/rules/clicks.js';
import type { LinkStore } from '../../core/store/link-store.js';
import { answerClientError } from './client-errors.js';
import { type ConnectionCapOptions, capConnections } from './connection-cap.js';
import { isExempt, type RateLimiter } from './rate-limit.js';
import type { VisitCapture } from './raw-visit.js';
import { createRedirectFastPath } from './redirect-fast-path.js';
import type { RequestLog } from './request-log.js';
import { createShortenFastPath, type ShortenFastPathOptions } from './shorten-fast-path.js';
import { createWebAdapter } from './web-adapter.js';
import { writeAnswer } from './write-answer.js';

export interface HttpServerOptions {
  log: RequestLog;
  /** Whole request, headers and body (slow-loris and stalled uploads). */
  requestTimeoutMs?: number;
  headersTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
  /** Open connections in all and per client address (`capConnections`); unbounded when absent. */
  connections?: ConnectionCapOptions;
  /** When given, `GET` and `HEAD` of a short URL take the redirect fast path on this store (the handler's own). */
  shortUrls?: {
    store: LinkStore;
    now?: () => number;
    onClick?: ClickRecorder;
    visits?: VisitCapture | undefined;
    redirectCacheSeconds?: number;
    timeZone?: string;
    /** The handler's redirect rules and limits (`Linklet.linkRules`). */
    linkRules?: LinkRules;
  };
  /** When given, shorten requests with a body of declared length take the create fast path. */
  creates?: Omit<ShortenFastPathOptions, 'log'>;
  /** When given, a client over its limit is answered 429 before anything else is done. */
  rateLimiter?: RateLimiter;
  /** The client's address behind trusted proxies (password tries count per client); else the limiter's, or the peer's. */
  clientOf?: (req: IncomingMessage) => string;
}

type NodeListener = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * Serves the core's fetch handler over Node HTTP, with timeouts. In front of the web adapter sit
 * the optional fast paths, each a module that answers with the core's own functions and says
 * whether it took the request; whatever none takes goes to the handler.
 */
export function createHttpServer(handler: FetchHandler, options: HttpServerOptions): Server {
  const { log, rateLimiter } = options;
  const adapter = createWebAdapter(handler, log, options.clientOf ?? rateLimiter?.clientOf);
  const toHandler = (req: IncomingMessage, res: ServerResponse) => void adapter(req, res);
  const fastPaths: NodeListener[] = [];
  const clientOf = options.clientOf ?? rateLimiter?.clientOf;
  if (options.shortUrls)
    fastPaths.push(
      createRedirectFastPath({ ...options.shortUrls, log, fallback: toHandler, ...(clientOf && { clientOf }) }),
    );
  if (options.creates) fastPaths.push(createShortenFastPath({ ...options.creates, log }));

  /** Sends a request where it goes: the first fast path that takes it, else the handler. */
  const route = (req: IncomingMessage, res: ServerResponse) => {
    for (const fastPath of fastPaths) if (fastPath(req, res)) return;
    toHandler(req, res);
  };
  /** The 429 of a client (or key) over its limit, written by the core's `errorAnswer` like every error. */
  const refuse = (req: IncomingMessage, res: ServerResponse, wait: number) => {
    const trace = log.begin(req.method ?? '', req.url ?? '', req.headers['x-request-id']);
    const error = new LinkletError('rate_limited', `Too many requests from this client; try again in ${wait} s.`, {
      retryAfterSeconds: wait,
    });
    const audience = { path: trace.path, accept: req.headers.accept, crossOrigin: req.headers.origin !== undefined };
    writeAnswer(res, errorAnswer(error, audience), trace.id);
    log.answered(trace, res.statusCode);
  };

  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  // Node checks the header and request timeouts on this beat (30 s by default, which would let
  // a slow-loris client hold a socket up to 30 s past them).
  const checkEveryMs = Math.max(100, Math.min(1000, Math.floor(headersTimeout / 4)));
  const server = createServer(
    // Without Host the request still reaches the handler, which answers it with the envelope.
    { connectionsCheckingInterval: checkEveryMs, requireHostHeader: false },
    (req, res) => {
      if (rateLimiter === undefined || isExempt(req)) return route(req, res);
      void rateLimiter.take(rateLimiter.clientOf(req), rateLimiter.keyOf(req)).then((wait) => {
        if (wait === undefined) route(req, res);
        else refuse(req, res, wait);
      });
    },
  );
  server.requestTimeout = options.requestTimeoutMs ?? 30_000;
  server.headersTimeout = headersTimeout;
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 5_000;
  if (options.connections) capConnections(server, options.connections);
  server.on('clientError', (error: Error, socket) => answerClientError(error, socket, log));
  return server;
}
