import type { Env, Hono } from 'hono';
import { arrivedAs } from '../http/middleware/body-limit.js';
import { registerLinkRoutes } from './links/link-routes.js';
import { registerTagRoutes } from './links/tag-routes.js';
import type { ManagementContext, ManagementOptions } from './management-context.js';
import { type Caller, createAuthenticator } from './owners/authenticate.js';
import { registerKeyRoutes } from './owners/key-routes.js';
import { registerPortingRoutes } from './porting/porting-routes.js';
import { registerVisitRoutes } from './visits/visit-routes.js';

/**
 * The owners and links API (`/api/v1/keys`, `/api/v1/me`, `/api/v1/links`) on a store that has
 * the management operations. Registered before the handler's `/api/*` 404, so it answers first.
 */
export function registerManagementRoutes<E extends Env>(app: Hono<E>, options: ManagementOptions): void {
  const authenticate = createAuthenticator({ store: options.store, apiKey: options.apiKey, now: options.now });
  // A route may ask who is calling more than once (the key is checked before a body is read, then
  // used): the answer is kept per request, so a key is hashed and looked up once per request.
  const callers = new WeakMap<Request, Promise<Caller | undefined>>();
  const callerOf = (request: Request) => {
    const arrived = arrivedAs(request);
    let caller = callers.get(arrived);
    if (caller === undefined) {
      caller = authenticate(request.headers);
      callers.set(arrived, caller);
    }
    return caller;
  };
  const context: ManagementContext = { ...options, callerOf };
  registerKeyRoutes(app, context);
  registerPortingRoutes(app, context); // before the link routes: `export` and `import` are not codes there
  registerLinkRoutes(app, context);
  registerVisitRoutes(app, context);
  registerTagRoutes(app, context);
}
