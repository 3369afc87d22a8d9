import type { Env, Hono } from 'hono';
import { registerClaimRoutes } from './claims/claim-routes.js';
import { registerLinkRoutes } from './links/link-routes.js';
import { registerTagRoutes } from './links/tag-routes.js';
import type { ManagementContext, ManagementOptions } from './management-context.js';
import { createCallerOf } from './owners/authenticate.js';
import { registerKeyRoutes } from './owners/key-routes.js';
import { registerPortingRoutes } from './porting/porting-routes.js';
import { registerVisitRoutes } from './visits/visit-routes.js';

/**
 * The owners and links API (`/api/v1/keys`, `/api/v1/me`, `/api/v1/links`) on a store that has
 * the management operations. Registered before the handler's `/api/*` 404, so it answers first.
 */
export function registerManagementRoutes<E extends Env>(app: Hono<E>, options: ManagementOptions): void {
  const callerOf = createCallerOf({ store: options.store, apiKey: options.apiKey, now: options.now });
  const context: ManagementContext = { ...options, callerOf };
  registerKeyRoutes(app, context);
  registerPortingRoutes(app, context); // before the link routes: `export` and `import` are not codes there
  registerClaimRoutes(app, context); // and `claim` neither
  registerLinkRoutes(app, context);
  registerVisitRoutes(app, context);
  registerTagRoutes(app, context);
}
