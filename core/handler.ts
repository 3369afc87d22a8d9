import { Hono } from 'hono';
import { describeApi } from './api-docs/api-description.js';
import { createOpenApiDocument } from './api-docs/openapi.js';
import { shlinkMethods } from './compat/shlink/shlink-endpoints.js';
import { registerShlinkRoutes } from './compat/shlink/shlink-routes.js';
import { registerYourlsRoutes } from './compat/yourls/yourls-routes.js';
import type { AppEnv, FetchHandler, RequestEnv } from './env.js';
import type { HandlerOptions } from './handler-options.js';
import { errorAnswer, logLevelOf } from './http/error-answer.js';
import { bodyLimit } from './http/middleware/body-limit.js';
import { API_METHODS, apiCors, YOURLS_HEADERS } from './http/middleware/cors.js';
import { LEGACY_API_PATH, SHLINK_API_PREFIXES, SHLINK_HEALTH_PATH, YOURLS_API_PATH } from './http/paths.js';
import { withSecurityHeaders } from './http/security-headers.js';
import { audienceOf, sendAnswer } from './http/send-answer.js';
import { registerManagementRoutes } from './management/management-routes.js';
import { createCreatorCheck } from './management/owners/creator.js';
import { MAX_IMPORT_BYTES } from './management/porting/read-import-file.js';
import { registerRedirectRoutes } from './redirect/redirect-routes.js';
import { notFoundError } from './redirect/resolve.js';
import { type LinkRules, linkRulesOf } from './redirect/rules/link-rule-options.js';
import { type LinkletSettings, settingsOf } from './settings.js';
import { createShortenAnswerer, type ShortenAnswerer } from './shorten/shorten-answer.js';
import { registerShortenRoutes } from './shorten/shorten-routes.js';
import { registerSiteRoutes } from './site/site-routes.js';
import { isManagedLinkStore } from './store/link-management-store.js';

export type { FailureReport, HandlerOptions } from './handler-options.js';
export type { FetchHandler, RequestEnv };

/** One Linklet: the handler, and what an adapter's fast paths share with it (one set of settings). */
export interface Linklet {
  fetch: FetchHandler;
  settings: LinkletSettings;
  answerShorten: ShortenAnswerer;
  /** What redirect rules and limits read (one ledger of limited links' clicks), for the fast path too. */
  linkRules: LinkRules;
  /** What is served, by method and path (Hono's list): a test holds it against the API catalog. */
  routes: ReadonlyArray<{ method: string; path: string; handler: unknown }>;
}

/**
 * The whole Linklet API as one web-standard `(Request) => Promise<Response>`, with the settings
 * and create answerer it runs on: the server's fast paths take these rather than building their
 * own, so a redirect or create answered beside the handler follows exactly its rules.
 */
export function createLinklet(options: HandlerOptions): Linklet {
  const settings = settingsOf(options);
  const { store } = settings;
  const answerShorten = createShortenAnswerer(settings);
  const linkRules = linkRulesOf(options.linkRules, settings.store);
  // A store with the management operations (the server's) also serves owners, keys and links.
  const management = isManagedLinkStore(store) ? store : undefined;
  const descriptionOptions = { ...settings, management: management !== undefined };
  const limitBody = bodyLimit(settings.maxBodyBytes);

  const app = new Hono<AppEnv>();
  app.onError((error, c) => {
    const level = logLevelOf(error);
    if (level !== undefined) options.onError?.(error, { level, request: c.req.raw, requestId: c.env?.requestId });
    return sendAnswer(c, errorAnswer(error, audienceOf(c, settings.timeZone)));
  });
  const cors = apiCors();
  app.use(LEGACY_API_PATH, cors);
  app.use('/api/*', cors);
  app.use(YOURLS_API_PATH, apiCors(API_METHODS, YOURLS_HEADERS));
  // Shlink's paths alone: `/rest` itself is a short URL like any other.
  const shlinkCors = apiCors(shlinkMethods());
  for (const path of [SHLINK_HEALTH_PATH, ...SHLINK_API_PREFIXES.map((prefix) => `${prefix}*`)]) {
    app.use(path, shlinkCors);
  }

  registerShortenRoutes(app, {
    answerShorten,
    creatorOf: createCreatorCheck({ apiKey: settings.apiKey, store: management, now: settings.now }),
    limitBody,
    describe: (dialect) => describeApi(dialect, descriptionOptions),
  });
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
      onImported: options.onImported,
      passwords: settings.passwords,
      onStreamError: (error, request, requestId) => options.onError?.(error, { level: 'error', request, requestId }),
    });
    registerYourlsRoutes(app, { store: management, settings, limitBody });
  }
  registerSiteRoutes(app, {
    store,
    description: describeApi('v1', descriptionOptions),
    openApi: createOpenApiDocument(descriptionOptions),
    webApp: options.webApp,
    healthDetails: options.healthDetails,
  });
  if (management) registerShlinkRoutes(app, { store: management, settings, limitBody });
  // Any other API path is a 404, never a short URL.
  for (const path of ['/api', '/api/*']) {
    app.all(path, () => {
      throw notFoundError();
    });
  }
  registerRedirectRoutes(app, {
    settings,
    limitBody,
    onClick: options.onClick,
    visits: options.visits,
    passwordTries: options.passwordTries,
    linkRules,
  });

  const fetch: FetchHandler = async (request, env = {}) => withSecurityHeaders(await app.fetch(request, env));
  return { fetch, settings, answerShorten, linkRules, routes: app.routes };
}

/** The handler alone: what the extension's service worker and the tests serve. */
export function createHandler(options: HandlerOptions): FetchHandler {
  return createLinklet(options).fetch;
}
