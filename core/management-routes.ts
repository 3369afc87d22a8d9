import type { Env, Hono, MiddlewareHandler } from 'hono';
import type { ManagedLinkStore } from './link-management-store.js';
import { registerLinkRoutes } from './links/link-routes.js';
import { registerTagRoutes } from './links/tag-routes.js';
import { type Caller, createAuthenticator } from './owners/authenticate.js';
import { registerKeyRoutes } from './owners/key-routes.js';
import type { ImportBudget } from './porting/import-budget.js';
import { registerPortingRoutes } from './porting/porting-routes.js';
import type { OriginalUrlRules } from './url.js';

export interface ManagementOptions {
  store: ManagedLinkStore;
  baseUrl: string;
  now: () => number;
  urlRules: OriginalUrlRules;
  /** The administrator's key (`API_KEY`), if set. */
  apiKey: string | undefined;
  /** The handler's body limit (413), for PATCH and POST bodies. */
  limitBody: MiddlewareHandler;
  /** The larger limit of an import's file (`MAX_IMPORT_BYTES`). */
  limitImportBody: MiddlewareHandler;
  /** When set, imports create at most this many links a minute per caller (see `ImportBudget`). */
  importBudget?: ImportBudget;
  /** Told of a failure after a streamed answer began (an export whose store failed mid-way). */
  onStreamError?: (error: unknown, request: Request, requestId: string | undefined) => void;
}

/** What the routes share: who is asking (undefined: no key; a 401 for a bad one). */
export interface ManagementContext extends ManagementOptions {
  callerOf(request: Request): Promise<Caller | undefined>;
}

/**
 * The owners and links API (`/api/v1/keys`, `/api/v1/me`, `/api/v1/links`) on a store that has
 * the management operations. Registered before the handler's `/api/*` 404, so it answers first.
 */
export function registerManagementRoutes<E extends Env>(app: Hono<E>, options: ManagementOptions): void {
  const authenticate = createAuthenticator({ store: options.store, apiKey: options.apiKey, now: options.now });
  const context: ManagementContext = { ...options, callerOf: (request) => authenticate(request.headers) };
  registerKeyRoutes(app, context);
  registerPortingRoutes(app, context); // before the link routes: `export` and `import` are not codes there
  registerLinkRoutes(app, context);
  registerTagRoutes(app, context);
}

/** The success envelope of the management API (v1 dialect). */
export function success<T>(message: string, data?: T) {
  return data === undefined ? { status: 'success' as const, message } : { status: 'success' as const, message, data };
}

/** Management answers are per caller: never kept by a shared cache. */
export const PRIVATE = { 'Cache-Control': 'no-store' } as const;
