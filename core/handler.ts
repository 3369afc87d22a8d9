import { type Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import { describeApi } from './api-docs/api-description.js';
import { createOpenApiDocument } from './api-docs/openapi.js';
import { acceptPrefersHtml } from './http/accept.js';
import { type Answer, API_CORS_HEADERS } from './http/answer.js';
import { errorAnswer, type LogLevel, logLevelOf } from './http/error-answer.js';
import { LinkletError } from './http/errors.js';
import { apiKeyRequired } from './http/middleware/api-key.js';
import { dropDeclaredBody, limitStreamedBody } from './http/middleware/body-limit.js';
import { notAllowed } from './http/not-allowed.js';
import { withSecurityHeaders } from './http/security-headers.js';
import { registerManagementRoutes } from './management/management-routes.js';
import { createCreatorCheck } from './management/owners/creator.js';
import type { ImportBudget } from './management/porting/import-budget.js';
import { MAX_IMPORT_BYTES } from './management/porting/read-import-file.js';
import { asksNotToBeTracked } from './management/visits/visits.js';
import { isPasswordProtected } from './passwords/protected-link.js';
import { createProtectedLinkAnswerer } from './passwords/protected-link-routes.js';
import { answerShortUrl, notFoundError, resolveCode } from './redirect/resolve.js';
import { type ClickRecorder, isClick } from './rules/clicks.js';
import { type LinkletOptions, settingsOf } from './settings.js';
import { createShortenAnswerer, type Dialect } from './shorten/shorten-answer.js';
import { FAVICON_PATH, faviconAnswer } from './site/favicon.js';
import { type WebAppFiles, webAppAsset, webAppPage } from './site/web-app.js';
import { isManagedLinkStore } from './store/link-management-store.js';

/** Per-request data an adapter hands the handler, as Hono's `env`: read by the routes as `c.env`. */
export interface RequestEnv {
  /** The id the adapter logs this request under; failures are reported with it. */
  requestId?: string;
  /** The client's address as the adapter trusts it: password tries are counted per client. */
  clientAddress?: string;
}

export type FetchHandler = (request: Request, env?: RequestEnv) => Promise<Response>;

/** A failure worth a log line (see `logLevelOf`), as the handler reports it to its adapter. */
export interface FailureReport {
  level: LogLevel;
  request: Request;
  requestId: string | undefined;
}

export interface HandlerOptions extends LinkletOptions {
  /** Told of every failure worth logging: the unexpected ones (500) and store outages (503). */
  onError?: (error: unknown, report: FailureReport) => void;
  /** More for `GET /health` to tell (e.g. where rate limits count, and whether that works). */
  healthDetails?: () => Record<string, unknown>;
  /** The built web app: a browser gets it at `/`, its files under `/assets/`. Absent: `/` is JSON only. */
  webApp?: WebAppFiles;
  /** Rows an import may create per minute and caller, counted by the adapter (the server's rate limits). */
  importBudget?: ImportBudget;
  /** Told of every click (see `isClick`) the handler answers, to count it; must not throw or wait. */
  onClick?: ClickRecorder;
  /**
   * When given, each click hands `onClick` the raw strings of its visit too (referrer,
   * User-Agent, the trusted proxy's country header, DNT/GPC); the adapter parses them later.
   */
  visits?: { countryHeader?: string | undefined };
}

const API_ALLOW = ['GET', 'HEAD', 'POST', 'OPTIONS'];
const READ_ALLOW = ['GET', 'HEAD'];
const CORS_ENTRIES = Object.entries(API_CORS_HEADERS);
const STORE_DOWN_RETRY_SECONDS = 5;

type Env = { Bindings: RequestEnv; Variables: { ownerId: number | undefined } };

const notFound = () => {
  throw notFoundError();
};

/** Sends a core `Answer` through Hono, so middleware headers (CORS) still apply. */
const send = (c: Context, answer: Answer): Response =>
  answer.body === null
    ? c.body(null, answer.status as 200, answer.headers)
    : c.body(answer.body, answer.status as 200, answer.headers);

/** Who an error answer is for: the page-or-JSON and CORS choice of `errorAnswer`. */
const audienceOf = (c: Context, timeZone?: string) => ({
  path: c.req.path,
  accept: c.req.header('accept'),
  acceptLanguage: c.req.header('accept-language'),
  timeZone,
});

/** The code part of `/{code}` or `/{code}/`, still percent-encoded; undefined for other paths. */
export function codeSegmentOf(request: Request): string | undefined {
  return /^\/([^/]+)\/?$/.exec(new URL(request.url).pathname)?.[1];
}

/**
 * The whole Linklet API as one web-standard `(Request) => Promise<Response>`: the server and the
 * extension's service worker both serve exactly this, each with its own store and base URL.
 */
export function createHandler(options: HandlerOptions): FetchHandler {
  const settings = settingsOf(options);
  const { store, maxBodyBytes } = settings;
  const { onClick, visits } = options;
  const answerShorten = createShortenAnswerer(settings);
  // A store with the management operations (the server's) also serves owners, keys and links.
  const management = isManagedLinkStore(store) ? store : undefined;
  const descriptionOptions = { ...settings, management: management !== undefined };
  const openApi = createOpenApiDocument(descriptionOptions);

  const app = new Hono<Env>();
  app.onError((error, c) => {
    const level = logLevelOf(error);
    if (level !== undefined) options.onError?.(error, { level, request: c.req.raw, requestId: c.env?.requestId });
    return send(c, errorAnswer(error, audienceOf(c, settings.timeZone)));
  });

  const preflight = cors({
    allowMethods: [...API_ALLOW, 'PATCH', 'DELETE'],
    allowHeaders: ['Content-Type', 'X-API-Key', 'Authorization'],
    exposeHeaders: ['Location', 'Retry-After'],
    maxAge: 86_400,
  });
  // The same headers `cors` sets on an actual request, set on the final response instead of on
  // a placeholder one: merging a placeholder into the route's response makes Hono rebuild that
  // response around a body stream, a large share of a create's cost.
  const apiCors = async (c: Context, next: () => Promise<void>) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    await next();
    for (const [name, value] of CORS_ENTRIES) c.res.headers.set(name, value);
  };
  app.use('/api.php', apiCors);
  app.use('/api/*', apiCors);

  /** Middleware that answers 413 for a body over `maxBytes` (imports take more than creates). */
  const bodyLimit = (maxBytes: number) => {
    const tooLarge = (): never => {
      throw new LinkletError('payload_too_large', `The request body must be at most ${maxBytes} bytes.`);
    };
    const limitChunkedBody = limitStreamedBody(maxBytes, tooLarge);
    // A declared length is judged from the header alone, as bodyLimit does, but without touching
    // `request.body`: an adapter may make that stream only when asked, and it is not needed here.
    return async (c: Context, next: () => Promise<void>) => {
      const declared = c.req.header('content-length');
      if (declared === undefined || c.req.header('transfer-encoding') !== undefined) return limitChunkedBody(c, next);
      const declaredBytes = Number.parseInt(declared, 10);
      if (declaredBytes > maxBytes) {
        await dropDeclaredBody(c.req.raw, declaredBytes); // so the 413 is not lost to a reset
        tooLarge();
      }
      await next();
    };
  };
  const limitBody = bodyLimit(maxBodyBytes);
  const creatorOf = createCreatorCheck({ apiKey: settings.apiKey, store: management, now: settings.now });
  // The creator (an owner's id, or none) is known before the body is read.
  const requireApiKey = async (c: Context<Env>, next: () => Promise<void>) => {
    const creator = await creatorOf(c.req.raw.headers);
    if (creator === 'refused') throw apiKeyRequired();
    c.set('ownerId', creator.ownerId);
    await next();
  };
  const shortenRoute = (dialect: Dialect) => async (c: Context<Env>) =>
    send(c, await answerShorten(dialect, new Uint8Array(await c.req.raw.arrayBuffer()), c.get('ownerId')));
  app.post('/api.php', requireApiKey, limitBody, shortenRoute('legacy'));
  app.post('/api/v1/shorten', requireApiKey, limitBody, shortenRoute('v1'));
  if (management) {
    registerManagementRoutes(app, {
      store: management,
      baseUrl: settings.baseUrl,
      now: settings.now,
      urlRules: settings.shorten.urlRules,
      apiKey: settings.apiKey,
      limitBody,
      limitImportBody: bodyLimit(MAX_IMPORT_BYTES),
      importBudget: options.importBudget,
      passwords: settings.passwords,
      onStreamError: (error, request, requestId) => options.onError?.(error, { level: 'error', request, requestId }),
    });
  }
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
      await store.ping();
    } catch (error) {
      throw new LinkletError('unavailable', 'The link store is not answering.', {
        cause: error,
        retryAfterSeconds: STORE_DOWN_RETRY_SECONDS,
      });
    }
    return c.json({ status: 'ok', ...options.healthDetails?.() });
  });
  app.all('/health', notAllowed(READ_ALLOW));
  const { webApp } = options;
  app.get('/', (c) => {
    if (webApp && acceptPrefersHtml(c.req.header('accept'))) return send(c, webAppPage(webApp));
    return c.json(describeApi('v1', descriptionOptions), 200, { Vary: 'Accept' });
  });
  app.all('/', notAllowed(READ_ALLOW));
  // Only GET (and HEAD): any other method on /assets/… stays the 404 of a path that is not a code.
  app.get('/assets/:file', (c) => {
    const answer = webApp && webAppAsset(webApp, c.req.param('file'));
    return answer ? send(c, answer) : notFound();
  });
  app.get(FAVICON_PATH, (c) => send(c, faviconAnswer()));
  app.all(FAVICON_PATH, notAllowed(READ_ALLOW));

  // A protected link's short URL: GET (the page, or `X-Link-Password`) and POST (the page's form).
  const answerProtected = createProtectedLinkAnswerer(settings, onClick);
  const protectedRequest = (c: Context<Env>, body?: string) => ({
    request: c.req.raw,
    clientAddress: c.env?.clientAddress,
    audience: audienceOf(c, settings.timeZone),
    body,
  });
  app.post('*', async (c, next) => {
    const segment = codeSegmentOf(c.req.raw);
    const at = settings.now();
    const resolution = segment === undefined ? undefined : await resolveCode(segment, store, at);
    if (resolution?.state !== 'active' || !isPasswordProtected(resolution.link)) return next();
    let answer: Answer | undefined;
    await limitBody(c, async () => {
      answer = await answerProtected(resolution.link, at, protectedRequest(c, await c.req.text()));
    });
    return send(c, answer as Answer);
  });

  app.get('*', async (c) => {
    const segment = codeSegmentOf(c.req.raw);
    if (segment === undefined) return notFound();
    const at = settings.now();
    const resolution = await resolveCode(segment, store, at);
    if (resolution.state === 'active' && isPasswordProtected(resolution.link)) {
      return send(c, await answerProtected(resolution.link, at, protectedRequest(c)));
    }
    const answer = answerShortUrl(resolution, at, audienceOf(c, settings.timeZone), settings.redirectCacheSeconds);
    if (onClick && resolution.state === 'active') {
      const { method } = c.req;
      if (isClick(method, answer.status, c.req.header('sec-purpose'), c.req.header('purpose'))) {
        onClick(
          resolution.link.codeKey,
          at,
          visits && {
            referer: c.req.header('referer'),
            userAgent: c.req.header('user-agent'),
            country: visits.countryHeader === undefined ? undefined : c.req.header(visits.countryHeader),
            private: asksNotToBeTracked(c.req.header('dnt'), c.req.header('sec-gpc')),
          },
        );
      }
    }
    return send(c, answer);
  });
  app.all('*', (c) => {
    if (codeSegmentOf(c.req.raw) === undefined) return notFound();
    return notAllowed(READ_ALLOW)(c);
  });

  return async (request, env = {}) => withSecurityHeaders(await app.fetch(request, env));
}
