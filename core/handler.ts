import { type Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import { describeApi } from './api-description.js';
import { apiKeyRequired, hasApiKey } from './api-key.js';
import { dropDeclaredBody, limitStreamedBody as streamedBodyLimit } from './body-limit.js';
import { toErrorEnvelope } from './envelopes.js';
import { LinkletError } from './errors.js';
import { type CodeGenerator, createRandomCodeGenerator } from './generate-code.js';
import type { LinkStore } from './link-store.js';
import { createOpenApiDocument } from './openapi.js';
import { answerShortUrl, resolveCode } from './resolve.js';
import {
  codeSegmentOf,
  errorResponse,
  notAllowed,
  notFound,
  sendAnswer,
  sendApiAnswer,
  wantsPage,
} from './responses.js';
import { withSecurityHeaders } from './security-headers.js';
import { API_CORS_HEADERS, createShortenAnswerer, type ShortenAnswerer } from './shorten-answer.js';
import { DEFAULT_MAX_URL_LENGTH } from './url.js';

export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * The handler, and its shorten use case as plain data for an adapter's fast path (the server's
 * Node path for creates), which answers exactly what the handler would for the same body.
 */
export type LinkletHandler = FetchHandler & { answerShorten: ShortenAnswerer; maxBodyBytes: number };

export interface HandlerOptions {
  store: LinkStore;
  /** Where short URLs live, e.g. `https://sho.rt`; short URLs are built from it, never from `Host`. */
  baseUrl: string;
  /** Epoch ms; injected so tests are exact. */
  now?: () => number;
  generateCode?: CodeGenerator;
  /** IANA zone of legacy `expiration_date`s. */
  timeZone?: string;
  maxUrlLength?: number;
  /** Refuse targets on private, loopback and link-local addresses (see `OriginalUrlRules`). */
  blockPrivateTargets?: boolean;
  maxBodyBytes?: number;
  /** When set, POSTs must carry it as `X-API-Key` or `Authorization: Bearer …` (401 otherwise). */
  apiKey?: string;
  /**
   * Told of every unexpected failure (answered as 500), and of every 503 the store caused, so the
   * adapter can log it; `request` is the very object the adapter passed in, so the adapter can key
   * its own request data on it.
   */
  onError?: (error: unknown, request: Request) => void;
}

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024;
const API_ALLOW = ['GET', 'HEAD', 'POST', 'OPTIONS'];
const READ_ALLOW = ['GET', 'HEAD'];
const CORS_ENTRIES = Object.entries(API_CORS_HEADERS);

/**
 * The whole Linklet API as one web-standard `(Request) => Promise<Response>`: the server and the
 * extension's service worker both serve exactly this, each with its own store and base URL.
 */
export function createHandler(options: HandlerOptions): LinkletHandler {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const now = options.now ?? Date.now;
  const timeZone = options.timeZone ?? 'UTC';
  const maxUrlLength = options.maxUrlLength ?? DEFAULT_MAX_URL_LENGTH;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const deps = {
    store: options.store,
    now,
    generateCode: options.generateCode ?? createRandomCodeGenerator(),
    urlRules: {
      maxLength: maxUrlLength,
      ownHosts: [new URL(baseUrl).host],
      blockPrivateTargets: options.blockPrivateTargets ?? false,
    },
  };
  const answerShorten = createShortenAnswerer(deps, baseUrl, timeZone);
  const descriptionOptions = { baseUrl, maxUrlLength, timeZone, maxBodyBytes };
  const openApi = createOpenApiDocument(descriptionOptions);

  // The request as the adapter gave it: middleware may replace `c.req.raw` on the way.
  const app = new Hono<{ Bindings: { request: Request } }>();
  app.onError((error, c) => {
    if (error instanceof LinkletError) {
      // A store that cannot take writes (503) is worth a log line, with its cause.
      if (error.kind === 'unavailable') options.onError?.(error, c.env.request);
      return errorResponse(c, error);
    }
    options.onError?.(error, c.env.request);
    return errorResponse(c, new LinkletError('internal', 'Internal server error; the server log has the details.'));
  });

  const preflight = cors({
    allowMethods: API_ALLOW,
    allowHeaders: ['Content-Type', 'X-API-Key', 'Authorization'],
    exposeHeaders: ['Location'],
    maxAge: 86_400,
  });
  // The same headers `cors` sets on an actual request, set on the final response instead of on
  // a placeholder one: merging a placeholder into the handler's response makes Hono (on Node)
  // rebuild that response around a body stream, a large share of a create's cost.
  const apiCors = async (c: Context, next: () => Promise<void>) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    await next();
    for (const [name, value] of CORS_ENTRIES) c.res.headers.set(name, value);
  };
  app.use('/api.php', apiCors);
  app.use('/api/*', apiCors);

  const tooLarge = () => {
    throw new LinkletError('payload_too_large', `The request body must be at most ${maxBodyBytes} bytes.`);
  };
  const limitStreamedBody = streamedBodyLimit(maxBodyBytes, tooLarge);
  // A declared length is judged from the header alone, as bodyLimit does, but without touching
  // `request.body`: on Node that would turn a lazily read body into a web stream for nothing.
  const limitBody = async (c: Context, next: () => Promise<void>) => {
    const declared = c.req.header('content-length');
    if (declared === undefined || c.req.header('transfer-encoding') !== undefined) return limitStreamedBody(c, next);
    const declaredBytes = Number.parseInt(declared, 10);
    if (declaredBytes > maxBodyBytes) {
      await dropDeclaredBody(c.req.raw, declaredBytes); // so the 413 is not lost to a reset
      tooLarge();
    }
    await next();
  };
  const requireApiKey = async (c: Context, next: () => Promise<void>) => {
    if (options.apiKey !== undefined && !hasApiKey(c.req.raw, options.apiKey)) {
      throw apiKeyRequired();
    }
    await next();
  };
  app.post('/api.php', requireApiKey, limitBody, async (c) =>
    sendApiAnswer(c, await answerShorten('legacy', await c.req.raw.text())),
  );
  app.post('/api/v1/shorten', requireApiKey, limitBody, async (c) =>
    sendApiAnswer(c, await answerShorten('v1', await c.req.raw.text())),
  );
  app.get('/api.php', (c) => c.json(describeApi('legacy', descriptionOptions)));
  app.get('/api/v1/shorten', (c) => c.json(describeApi('v1', descriptionOptions)));
  app.get('/api/v1/openapi.json', (c) => c.json(openApi));
  app.all('/api.php', notAllowed(API_ALLOW));
  app.all('/api/v1/shorten', notAllowed(API_ALLOW));
  app.all('/api/v1/openapi.json', notAllowed([...READ_ALLOW, 'OPTIONS']));
  app.all('/api', notFound);
  app.all('/api/*', notFound);

  app.get('/health', async (c) => {
    try {
      await options.store.ping();
      return c.json({ status: 'ok' });
    } catch (error) {
      options.onError?.(error, c.env.request);
      return c.json(toErrorEnvelope('The link store is not answering.'), 503);
    }
  });
  app.all('/health', notAllowed(READ_ALLOW));
  app.get('/', (c) => c.json(describeApi('v1', descriptionOptions)));

  app.get('*', async (c) => {
    const segment = codeSegmentOf(c.req.raw);
    if (segment === undefined) return notFound(c);
    const at = now();
    return sendAnswer(c, answerShortUrl(await resolveCode(segment, options.store, at), at, wantsPage(c)));
  });
  app.all('*', (c) => {
    if (codeSegmentOf(c.req.raw) === undefined) return notFound(c);
    return notAllowed(READ_ALLOW)(c);
  });

  const fetch: FetchHandler = async (request) => withSecurityHeaders(await app.fetch(request, { request }));
  return Object.assign(fetch, { answerShorten, maxBodyBytes });
}
