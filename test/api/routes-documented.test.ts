import { describe, expect, it } from 'vitest';
import { listApiOperations } from '../../core/api-docs/api-catalog.js';
import { createLinklet } from '../../core/handler.js';
import { isApiPath } from '../../core/http/paths.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { createMemoryWebhookStore } from '../../core/webhooks/memory-webhook-store.js';
import { createWebhookDirectory } from '../../core/webhooks/webhook-directory.js';
import { BASE_URL } from './make-handler.js';

// Every route the handler serves is in the API catalog (so in the OpenAPI document and the API
// description), every catalog entry is served, and each path's 405 names exactly the methods the
// catalog gives it. A route added without its operation fails here, not in a client.

/**
 * Served but not API: the site's icons, static files as browsers ask for them, and the web app's
 * service worker and manifest, which only a browser installing the web app asks for.
 */
const NOT_API = new Set(['/favicon.svg', '/favicon.ico', '/sw.js', '/manifest.webmanifest']);
/** Hono's name for `*`: the short URLs, registered last, take every path left. */
const CATCH_ALL = '/*';
/** Only GET: any other method there is the 404 of a path that is neither a route nor a code. */
const GET_ONLY = new Set(['/assets/{file}']);
const SHORT_URL_PATHS = new Set(['/{code}', '/{code}/']);
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

const webhookStore = createMemoryWebhookStore();
const webhooks = { store: webhookStore, directory: createWebhookDirectory(webhookStore), blockPrivateTargets: true };
const linklet = createLinklet({ store: createMemoryLinkStore(), baseUrl: BASE_URL, webhooks });
const operations = listApiOperations({ ...linklet.settings, management: true, webhooks: true });
const documented = new Set(operations.map((operation) => `${operation.method} ${operation.path}`));
const asTemplate = (honoPath: string) => honoPath.replace(/:(\w+)/g, '{$1}');

describe('the routes and the API catalog', () => {
  it('documents every route the handler serves', () => {
    const served = linklet.routes
      .filter((route) => METHODS.has(route.method) && route.path !== CATCH_ALL && !NOT_API.has(route.path))
      .map((route) => `${route.method} ${asTemplate(route.path)}`);
    expect(served.length).toBeGreaterThan(15);
    expect([...new Set(served)].filter((route) => !documented.has(route))).toEqual([]);
  });

  it('serves every operation of the catalog', () => {
    const served = new Set(linklet.routes.map((route) => `${route.method} ${asTemplate(route.path)}`));
    const missing = operations
      .filter((operation) => !SHORT_URL_PATHS.has(operation.path))
      .filter((operation) => !served.has(`${operation.method} ${operation.path}`))
      .map((operation) => `${operation.method} ${operation.path}`);
    expect(missing).toEqual([]);
    // The short URLs are the catch-all GET, registered last.
    expect(linklet.routes.some((route) => route.method === 'GET' && route.path === CATCH_ALL)).toBe(true);
  });

  it("answers 405 with the catalog's methods on every documented path", () => {
    const refusals = linklet.routes.filter(
      (route) => route.method === 'ALL' && Array.isArray((route.handler as { allow?: unknown }).allow),
    );
    const checked = new Set<string>();
    for (const route of refusals) {
      const path = asTemplate(route.path);
      if (path === CATCH_ALL || NOT_API.has(path)) continue;
      const methods = new Set<string>(operations.filter((operation) => operation.path === path).map((op) => op.method));
      if (methods.has('GET')) methods.add('HEAD');
      if (isApiPath(path)) methods.add('OPTIONS');
      const allow = (route.handler as { allow: string[] }).allow;
      expect([...allow].sort(), path).toEqual([...methods].sort());
      checked.add(path);
    }
    const paths = new Set(
      operations.map((operation) => operation.path).filter((path) => !SHORT_URL_PATHS.has(path) && !GET_ONLY.has(path)),
    );
    expect([...paths].filter((path) => !checked.has(path))).toEqual([]);
  });
});
