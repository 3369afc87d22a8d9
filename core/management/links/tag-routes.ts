import type { Env, Hono } from 'hono';
import { LinkletError } from '../../http/errors.js';
import { notAllowed } from '../../http/not-allowed.js';
import { parseJsonText } from '../../http/parse-json-text.js';
import { decodeCodeSegment } from '../../redirect/resolve.js';
import { type ManagementContext, PRIVATE, success } from '../management-context.js';
import { requireCaller, scopeOf } from '../owners/authenticate.js';
import { parseTagName, renameTagInScope } from './tag-edits.js';

const TAG_PATH = /^\/api\/v1\/tags\/([^/]+)$/;
const RENAME_EXAMPLE = '{"name":"work"}';

/** No link of the caller carries the tag (another owner's tags never show). */
const noSuchTag = (tag: string) =>
  new LinkletError('not_found', `None of your links has the tag '${tag}'; GET /api/v1/tags lists yours.`);

/** "1 link" or "2 links", for the messages. */
const linksCount = (n: number) => `${n} ${n === 1 ? 'link' : 'links'}`;

/**
 * `GET /api/v1/tags`: every tag of the caller's links (any status), with how many links carry
 * it and their clicks added up, in tag order, so a client can offer them as filters.
 * `PATCH /api/v1/tags/{tag}` `{"name"}` renames it on all of them (merging into a tag of that
 * name where a link has both) and `DELETE /api/v1/tags/{tag}` removes it from them.
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

  /** The caller's scope and the tag the path names (a 404 for a segment that is no tag). */
  const target = async (request: Request) => {
    const scope = scopeOf(requireCaller(await context.callerOf(request)));
    const segment = TAG_PATH.exec(new URL(request.url).pathname)?.[1] ?? '';
    const named = decodeCodeSegment(segment) ?? segment;
    try {
      return { scope, tag: parseTagName(named, 'tag') };
    } catch {
      throw noSuchTag(named);
    }
  };

  app.patch('/api/v1/tags/:tag', async (c, next) => {
    await target(c.req.raw); // the key is checked before the body is read
    return context.limitBody(c, next);
  });
  app.patch('/api/v1/tags/:tag', async (c) => {
    const { scope, tag } = await target(c.req.raw);
    const body = parseJsonText(await c.req.raw.text(), RENAME_EXAMPLE);
    if (typeof body !== 'object' || body === null || Array.isArray(body) || !('name' in body)) {
      throw new LinkletError('invalid', `Send the new name as a JSON object, such as ${RENAME_EXAMPLE}.`);
    }
    const name = parseTagName((body as { name: unknown }).name, 'name');
    const links = await renameTagInScope(context.store, scope, tag, name, context.now());
    if (links === 0) throw noSuchTag(tag);
    return c.json(success(`The tag is now '${name}' on ${linksCount(links)}.`, { tag: name, links }), 200, PRIVATE);
  });
  app.delete('/api/v1/tags/:tag', async (c) => {
    const { scope, tag } = await target(c.req.raw);
    const links = await context.store.deleteTag(scope, tag, context.now());
    if (links === 0) throw noSuchTag(tag);
    return c.json(success(`The tag '${tag}' was removed from ${linksCount(links)}.`, { tag, links }), 200, PRIVATE);
  });
  app.all('/api/v1/tags/:tag', notAllowed(['PATCH', 'DELETE', 'OPTIONS']));
}
