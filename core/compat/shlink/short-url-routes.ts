import type { Context } from 'hono';
import { scopeOf } from '../../management/owners/authenticate.js';
import { decodeCodeSegment } from '../../redirect/resolve.js';
import { shorten } from '../../shorten/shorten.js';
import { asciiLowerCase, type OwnerScope } from '../../store/link-management-store.js';
import type { Link } from '../../store/link-store.js';
import {
  botsOf,
  findShortUrl,
  PRIVATE,
  type ShlinkContext,
  type ShlinkHandler,
  shortCodeSegmentOf,
  withClicks,
} from './shlink-context.js';
import { paginationOf } from './shlink-pages.js';
import { nonUniqueSlug, ShlinkProblemError, shortUrlNotFound } from './shlink-problem.js';
import { parseShlinkBody } from './short-url-fields.js';
import { parseShortUrlListParams } from './short-url-list-params.js';
import { toShortUrl } from './short-url-view.js';
import { parseShlinkCreate, parseShlinkEdit } from './short-url-write.js';

/** How many links of the same long URL `findIfExists` looks through. */
const FIND_IF_EXISTS_CANDIDATES = 100;

/** An active link of the caller with this long URL (and this code, when one is asked for). */
async function existingLink(context: ShlinkContext, scope: OwnerScope, originalUrl: string, code?: string) {
  const candidates = await context.store.listLinks({
    scope,
    limit: FIND_IF_EXISTS_CANDIDATES,
    now: context.settings.now(),
    search: asciiLowerCase(originalUrl),
    status: 'active',
  });
  return candidates.find(
    (link) => link.originalUrl === originalUrl && (code === undefined || link.codeKey === code.toLowerCase()),
  );
}

/** The answers of Shlink's `/short-urls` and `/short-urls/{shortCode}`, by endpoint name. */
export function shortUrlHandlers(context: ShlinkContext): Record<string, ShlinkHandler> {
  const { store, settings, host } = context;
  const view = (link: Link, bots?: number) => toShortUrl(link, settings.baseUrl, bots);
  /** A link as Shlink writes it, with its clicks and bot visits read fresh. */
  const counted = async (link: Link) => {
    const [withCounts, bots] = await Promise.all([withClicks(context, link), botsOf(context, link)]);
    return view(withCounts, bots);
  };
  const rulesAt = (now: number) => ({ urlRules: settings.shorten.urlRules, host, now });
  const readBody = async (c: Context) => parseShlinkBody(await c.req.raw.text());

  return {
    async listShortUrls(c) {
      const scope = scopeOf(await context.callerOf(c.req.raw));
      const { page, filters, otherDomain } = parseShortUrlListParams(new URL(c.req.url).searchParams, host);
      const now = settings.now();
      if (otherDomain) return c.json({ shortUrls: { data: [], pagination: paginationOf(page, 0, 0) } }, 200, PRIVATE);
      const { order, ...counted } = filters;
      const [links, count] = await Promise.all([
        store.listLinks({
          scope,
          now,
          limit: page.itemsPerPage,
          offset: (page.page - 1) * page.itemsPerPage,
          // The store's default order is newest first, as Shlink's list without orderBy.
          order: order ?? { field: 'created', descending: true },
          ...counted,
        }),
        store.countLinks({ scope, now, ...counted }),
      ]);
      const pagination = paginationOf(page, links.length, count.links);
      const bots = await Promise.all(links.map((link) => botsOf(context, link)));
      const data = links.map((link, i) => view(link, bots[i]));
      return c.json({ shortUrls: { data, pagination } }, 200, PRIVATE);
    },

    async createShortUrl(c) {
      const caller = await context.callerOf(c.req.raw);
      const now = settings.now();
      const { request, findIfExists } = parseShlinkCreate(
        await readBody(c),
        rulesAt(now),
        settings.compatExpireDuration,
      );
      if (findIfExists) {
        const found = await existingLink(context, scopeOf(caller), request.originalUrl, request.customCode);
        if (found) return c.json(await counted(found), 200, PRIVATE);
      }
      const result = await shorten(request, settings.shorten, caller.admin ? undefined : caller.ownerId);
      if (!result.created) throw nonUniqueSlug(result.code);
      return c.json(view(result.link), 200, PRIVATE);
    },

    async getShortUrl(c) {
      const scope = scopeOf(await context.callerOf(c.req.raw));
      const link = await findShortUrl(context, c.req.raw, scope);
      return c.json(await counted(link), 200, PRIVATE);
    },

    async updateShortUrl(c) {
      const scope = scopeOf(await context.callerOf(c.req.raw));
      const link = await findShortUrl(context, c.req.raw, scope);
      const now = settings.now();
      const patch = parseShlinkEdit(await readBody(c), link, rulesAt(now));
      const result = await store.updateLink(link.codeKey, scope, patch, now);
      if (!result.updated && result.reason === 'not_found') throw shortUrlNotFound(link.code);
      if (!result.updated) {
        throw new ShlinkProblemError(
          'gone',
          `The short URL "${link.code}" has expired and can no longer be changed; renew it first with a validUntil at most 31 days away.`,
          { extras: { shortCode: link.code } },
        );
      }
      return c.json(await counted(result.link), 200, PRIVATE);
    },

    async deleteShortUrl(c) {
      const scope = scopeOf(await context.callerOf(c.req.raw));
      const segment = shortCodeSegmentOf(c.req.raw);
      const link = await findShortUrl(context, c.req.raw, scope);
      if (!(await store.deleteLink(link.codeKey, scope, settings.now()))) {
        throw shortUrlNotFound(decodeCodeSegment(segment) ?? segment);
      }
      return c.body(null, 204, PRIVATE);
    },
  };
}
