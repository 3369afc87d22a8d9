import type { Env, Hono, MiddlewareHandler } from 'hono';
import { notAllowed } from '../../http/not-allowed.js';
import { SHLINK_API_PREFIXES } from '../../http/paths.js';
import { type Caller, createCallerOf } from '../../management/owners/authenticate.js';
import type { LinkletSettings } from '../../settings.js';
import type { ManagedLinkStore } from '../../store/link-management-store.js';
import { redirectRuleHandlers } from './redirect-rule-routes.js';
import { serverHandlers } from './server-routes.js';
import type { ShlinkContext, ShlinkHandler } from './shlink-context.js';
import { allowedMethodsOf, fullPathsOf, SHLINK_ENDPOINTS } from './shlink-endpoints.js';
import { missingAuthentication, ShlinkProblemError } from './shlink-problem.js';
import { visitHandlers } from './shlink-visit-routes.js';
import { shortUrlHandlers } from './short-url-routes.js';
import { tagHandlers } from './tag-routes.js';

export interface ShlinkRoutesOptions {
  store: ManagedLinkStore;
  settings: LinkletSettings;
  /** The handler's body limit (413). */
  limitBody: MiddlewareHandler;
}

/** `{shortCode}` as Hono writes a path parameter. */
const honoPathOf = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * Shlink's REST API (v3, and v2 with the same answers) on a store with owners, so Shlink's
 * clients (its web client, mobile apps, the JS SDK) work against Linklet unchanged: each
 * endpoint of `SHLINK_ENDPOINTS` with its handler, a 405 naming a path's methods, and Shlink's
 * `not-found` problem for any other path below the prefixes. Keys are checked exactly as the v1
 * API checks them (an owner's key or the administrator's), with the same isolation.
 */
export function registerShlinkRoutes<E extends Env>(app: Hono<E>, options: ShlinkRoutesOptions): void {
  const { store, settings } = options;
  const callerOfRequest = createCallerOf({ store, apiKey: settings.apiKey, now: settings.now });
  // Every Shlink endpoint but health needs a key, as Shlink's do.
  const callerOf = async (request: Request): Promise<Caller> => {
    const found = await callerOfRequest(request);
    if (found === undefined) throw missingAuthentication();
    return found;
  };
  const context: ShlinkContext = {
    store,
    settings,
    host: new URL(settings.baseUrl).host,
    limitBody: options.limitBody,
    callerOf,
  };
  const handlers: Record<string, ShlinkHandler> = {
    ...serverHandlers(context),
    ...shortUrlHandlers(context),
    ...visitHandlers(context),
    ...redirectRuleHandlers(context),
    ...tagHandlers(context),
  };

  for (const endpoint of SHLINK_ENDPOINTS) {
    const handler = handlers[endpoint.name];
    if (handler === undefined) throw new Error(`The Shlink endpoint ${endpoint.name} has no handler.`);
    for (const path of fullPathsOf(endpoint)) {
      const honoPath = honoPathOf(path);
      if (endpoint.method === 'GET' || endpoint.method === 'DELETE') {
        app.on(endpoint.method, honoPath, handler);
      } else {
        // The key is checked before the body is read: a refused key never costs a body read.
        app.on(
          endpoint.method,
          honoPath,
          async (c, next) => {
            await callerOf(c.req.raw);
            return options.limitBody(c, next);
          },
          handler,
        );
      }
    }
  }
  const templates = new Set(SHLINK_ENDPOINTS.map((endpoint) => endpoint.path));
  for (const template of templates) {
    const endpoint = SHLINK_ENDPOINTS.find((candidate) => candidate.path === template);
    if (endpoint === undefined) continue;
    for (const path of fullPathsOf(endpoint)) app.all(honoPathOf(path), notAllowed(allowedMethodsOf(template)));
  }
  for (const prefix of SHLINK_API_PREFIXES) {
    app.all(`${prefix}*`, (c) => {
      throw new ShlinkProblemError('not_found', `There is no Shlink endpoint at ${c.req.path} on Linklet.`, {});
    });
  }
}
