import { tagKey } from '../../management/links/link-labels.js';
import { parseTagName, renameTagInScope } from '../../management/links/tag-edits.js';
import { scopeOf } from '../../management/owners/authenticate.js';
import type { TagCount } from '../../store/link-management-store.js';
import { PRIVATE, type ShlinkContext, type ShlinkHandler } from './shlink-context.js';
import { pageOf, parsePageRequest } from './shlink-pages.js';
import { invalidData, tagNotFound } from './shlink-problem.js';
import { asShlinkField, bodyFields, parseShlinkBody } from './short-url-fields.js';
import { visitsSummaryOf } from './short-url-view.js';

const RENAMING_EXAMPLE = '{"oldName":"work","newName":"job"}';

/** The largest page of tags (and what no `itemsPerPage`, or -1, gives). */
export const MAX_TAGS_PER_PAGE = 1000;

const byName = (a: TagCount, b: TagCount) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0);
const TAG_ORDERS: Record<string, (a: TagCount, b: TagCount) => number> = {
  tag: byName,
  shortUrlsCount: (a, b) => a.links - b.links || byName(a, b),
  visits: (a, b) => a.clicks + a.bots - (b.clicks + b.bots) || byName(a, b),
  nonBotVisits: (a, b) => a.clicks - b.clicks || byName(a, b),
};

/**
 * The caller's tags as Shlink's tag lists take them: `searchTerm` (part of the name),
 * `orderBy` (`tag`, `shortUrlsCount`, `visits`, `nonBotVisits`, `-ASC`/`-DESC`) and a page.
 * Held whole: an owner has at most a few tags per link, and the store lists them in one read.
 */
async function tagPage(context: ShlinkContext, request: Request) {
  const scope = scopeOf(await context.callerOf(request));
  const query = new URL(request.url).searchParams;
  const page = parsePageRequest(query, 'all', MAX_TAGS_PER_PAGE);
  const search = query.get('searchTerm')?.trim().toLowerCase();
  const [field = 'tag', direction = 'ASC'] = (query.get('orderBy') || 'tag-ASC').split('-');
  const order = TAG_ORDERS[field];
  if (order === undefined || (direction !== 'ASC' && direction !== 'DESC')) {
    throw invalidData(['orderBy'], `orderBy must be ${Object.keys(TAG_ORDERS).join(', ')} with -ASC or -DESC.`);
  }
  const tags = (await context.store.listTags(scope))
    .filter((tag) => !search || tag.tag.includes(search))
    .sort((a, b) => (direction === 'DESC' ? order(b, a) : order(a, b)));
  return pageOf(tags, page);
}

/** A tag named in a request, by the tag rule, or `invalid-data` naming `field`. */
const tagNamed = (value: unknown, field: string) => asShlinkField(field, () => parseTagName(value, field));

/**
 * Shlink's `/tags` and `/tags/stats`; `PUT /tags` renames a tag on all of the key's short URLs
 * (`{oldName, newName}`; where a link has both, it keeps the new one once: Shlink answers a
 * name already taken with `tag-conflict`, Linklet merges) and `DELETE /tags?tags[]=` removes
 * tags from them. Both answer 204 as Shlink does.
 */
export function tagHandlers(context: ShlinkContext): Record<string, ShlinkHandler> {
  return {
    async listTags(c) {
      const { data, pagination } = await tagPage(context, c.req.raw);
      return c.json({ tags: { data: data.map((tag) => tag.tag), pagination } }, 200, PRIVATE);
    },
    async tagsStats(c) {
      const { data, pagination } = await tagPage(context, c.req.raw);
      const stats = data.map((tag) => ({
        tag: tag.tag,
        shortUrlsCount: tag.links,
        visitsSummary: visitsSummaryOf(tag.clicks, tag.bots),
      }));
      return c.json({ tags: { data: stats, pagination } }, 200, PRIVATE);
    },
    async editTag(c) {
      const scope = scopeOf(await context.callerOf(c.req.raw));
      const fields = bodyFields(parseShlinkBody(await c.req.raw.text(), RENAMING_EXAMPLE), RENAMING_EXAMPLE);
      const oldName = tagNamed(fields.oldName, 'oldName');
      const newName = tagNamed(fields.newName, 'newName');
      const links = await renameTagInScope(context.store, scope, oldName, newName, context.settings.now());
      if (links === 0) throw tagNotFound(typeof fields.oldName === 'string' ? fields.oldName : oldName);
      return c.body(null, 204, PRIVATE);
    },
    async deleteTags(c) {
      const scope = scopeOf(await context.callerOf(c.req.raw));
      const named = new URL(c.req.url).searchParams.getAll('tags[]');
      // Tags no link carries (or no tag at all) are nothing to delete, as Shlink answers them.
      const tags = [...new Set(named.map((tag) => tagKey(tag.trim())))];
      for (const tag of tags) await context.store.deleteTag(scope, tag, context.settings.now());
      return c.body(null, 204, PRIVATE);
    },
  };
}
