import type { Env, Hono } from 'hono';
import { LinkletError } from '../../http/errors.js';
import { notAllowed } from '../../http/not-allowed.js';
import { parseJsonText } from '../../http/parse-json-text.js';
import { codeKeyOfSegment, decodeCodeSegment } from '../../redirect/resolve.js';
import { CLICK_DAYS_SHOWN, dayOf } from '../../rules/clicks.js';
import { inScope } from '../../store/link-management-store.js';
import { type ManagementContext, PRIVATE, success } from '../management-context.js';
import { requireCaller, scopeOf } from '../owners/authenticate.js';
import { readCursor, signCursor } from './cursor.js';
import { toChangeView, toLinkDetailView, toLinkView } from './link-view.js';
import { parseLinkListParams } from './list-params.js';
import { hashOfNewPassword } from './patch-password.js';
import { parseLinkPatch } from './patch-request.js';

const LINK_PATH = /^\/api\/v1\/links\/([^/]+)$/;

/** One answer for a missing link and another owner's: existence never leaks. */
const noSuchLink = (segment: string) =>
  new LinkletError(
    'not_found',
    `There is no link with the code '${decodeCodeSegment(segment) ?? segment}' among yours.`,
  );

/** `GET /api/v1/links` and `GET/PATCH/DELETE /api/v1/links/{code}`, each within the caller's scope. */
export function registerLinkRoutes<E extends Env>(app: Hono<E>, context: ManagementContext): void {
  const { store, baseUrl, now } = context;
  let secret: Promise<string> | undefined;
  const signingSecret = () => {
    secret ??= store.signingSecret().catch((error: unknown) => {
      secret = undefined;
      throw error;
    });
    return secret;
  };

  app.get('/api/v1/links', async (c) => {
    const scope = scopeOf(requireCaller(await context.callerOf(c.req.raw)));
    const at = now();
    const params = parseLinkListParams(new URL(c.req.url).searchParams, at);
    const kind = params.changedSince === undefined ? 'list' : 'changes';
    const from = params.cursor === undefined ? undefined : await readCursor(await signingSecret(), params.cursor, kind);
    const limit = params.limit + 1; // one more tells whether there is a next page
    let items: unknown[];
    let last: { at: number; codeKey: string } | undefined;
    if (params.changedSince === undefined) {
      const links = await store.listLinks({
        scope,
        limit,
        now: at,
        ...(from && { after: { createdAt: from.at, codeKey: from.codeKey } }),
        ...(params.search !== undefined && { search: params.search }),
        ...(params.status !== undefined && { status: params.status }),
        ...(params.tag !== undefined && { tag: params.tag }),
      });
      const page = links.slice(0, params.limit);
      items = page.map((link) => toLinkView(link, baseUrl, at));
      const end = page.at(-1);
      last = links.length > params.limit && end ? { at: end.createdAt, codeKey: end.codeKey } : undefined;
    } else {
      const changes = await store.listChanges({
        scope,
        limit,
        since: params.changedSince,
        ...(from && { after: { updatedAt: from.at, codeKey: from.codeKey } }),
      });
      const page = changes.slice(0, params.limit);
      items = page.map((change) => toChangeView(change, baseUrl, at));
      const end = page.at(-1);
      last =
        changes.length > params.limit && end
          ? end.kind === 'link'
            ? { at: end.link.updatedAt ?? end.link.createdAt, codeKey: end.link.codeKey }
            : { at: end.tombstone.deletedAt, codeKey: end.tombstone.codeKey }
          : undefined;
    }
    const nextCursor = last === undefined ? null : await signCursor(await signingSecret(), { kind, ...last });
    return c.json(success(`${items.length} links.`, { links: items, next_cursor: nextCursor }), 200, PRIVATE);
  });
  app.all('/api/v1/links', notAllowed(['GET', 'HEAD', 'OPTIONS']));

  /** The caller's scope and the link's code key from the path (a 404 for one that names no code). */
  const target = async (request: Request) => {
    const scope = scopeOf(requireCaller(await context.callerOf(request)));
    const segment = LINK_PATH.exec(new URL(request.url).pathname)?.[1] ?? '';
    const codeKey = codeKeyOfSegment(segment);
    if (codeKey === undefined) throw noSuchLink(segment);
    return { scope, segment, codeKey };
  };

  app.get('/api/v1/links/:code', async (c) => {
    const { scope, segment, codeKey } = await target(c.req.raw);
    const link = await store.findByCodeKey(codeKey);
    if (link === undefined || !inScope(link, scope)) throw noSuchLink(segment);
    const at = now();
    // Read fresh from the store: the link itself may come from a cache that does not track clicks.
    const clicks = await store.clicksOf(codeKey, link.createdAt, dayOf(at) - CLICK_DAYS_SHOWN + 1);
    return c.json(success('The link.', toLinkDetailView(link, clicks, baseUrl, at)), 200, PRIVATE);
  });
  app.patch('/api/v1/links/:code', async (c, next) => {
    await target(c.req.raw); // the key is checked before the body is read
    return context.limitBody(c, next);
  });
  app.patch('/api/v1/links/:code', async (c) => {
    const { scope, segment, codeKey } = await target(c.req.raw);
    const at = now();
    const { password, ...patch } = parseLinkPatch(parseJsonText(await c.req.raw.text()), context.urlRules, at);
    if (password !== undefined) patch.passwordHash = await hashOfNewPassword(password, context.passwords);
    const result = await store.updateLink(codeKey, scope, patch, at);
    if (!result.updated && result.reason === 'not_found') throw noSuchLink(segment);
    if (!result.updated) {
      throw new LinkletError(
        'gone',
        'The link has expired and can no longer be changed; renew it first with expire_duration (24h, 48h, 1week or 1month).',
      );
    }
    return c.json(success('The link was changed.', toLinkView(result.link, baseUrl, at)), 200, PRIVATE);
  });
  app.delete('/api/v1/links/:code', async (c) => {
    const { scope, segment, codeKey } = await target(c.req.raw);
    if (!(await store.deleteLink(codeKey, scope, now()))) throw noSuchLink(segment);
    return c.json(success('The link was deleted; its code is free again.'), 200, PRIVATE);
  });
  app.all('/api/v1/links/:code', notAllowed(['GET', 'HEAD', 'PATCH', 'DELETE', 'OPTIONS']));
}
