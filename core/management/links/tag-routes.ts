import type { Env, Hono } from 'hono';
import { notAllowed } from '../../http/not-allowed.js';
import { type ManagementContext, PRIVATE, success } from '../management-context.js';
import { requireCaller, scopeOf } from '../owners/authenticate.js';

/**
 * `GET /api/v1/tags`: every tag of the caller's links (any status), with how many links carry
 * it and their clicks added up, in tag order, so a client can offer them as filters.
 */
export function registerTagRoutes<E extends Env>(app: Hono<E>, context: ManagementContext): void {
  app.get('/api/v1/tags', async (c) => {
    const scope = scopeOf(requireCaller(await context.callerOf(c.req.raw)));
    // Clicks (people) only, as the v1 API's tag list has always answered them.
    const tags = (await context.store.listTags(scope))
      .map(({ tag, links, clicks }) => ({ tag, links, clicks }))
      .sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
    return c.json(success(`${tags.length} tags.`, { tags }), 200, PRIVATE);
  });
  app.all('/api/v1/tags', notAllowed(['GET', 'HEAD', 'OPTIONS']));
}
