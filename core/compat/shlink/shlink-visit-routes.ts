import type { Context } from 'hono';
import { parseTagFilter } from '../../management/links/link-labels.js';
import { scopeOf } from '../../management/owners/authenticate.js';
import { shortUrlFor } from '../../shorten/envelopes.js';
import { findShortUrl, PRIVATE, type ShlinkContext, type ShlinkHandler } from './shlink-context.js';
import { isOurDomain } from './shlink-domain.js';
import { pageOf } from './shlink-pages.js';
import { domainNotFound, shortUrlNotFound, tagNotFound } from './shlink-problem.js';
import { parseVisitQuery, readLinkVisits, type VisitQuery } from './shlink-visit-query.js';
import { toShlinkVisit } from './shlink-visit-view.js';
import { type LinkSelection, visitsAcrossLinks } from './visits-across-links.js';

/** Shlink's visits endpoints: a link's own, across the key's links, and the orphan visits Linklet never has. */
export function visitHandlers(context: ShlinkContext): Record<string, ShlinkHandler> {
  const { store, settings, host } = context;

  /** A page of the selected links' visits, each with the short URL it was a visit of. */
  const pageAcrossLinks = async (c: Context, selection: LinkSelection, query: VisitQuery) => {
    const found = await visitsAcrossLinks(store, selection, query, settings.now());
    const { data, pagination } = pageOf(found, query.page);
    const visits = data.map(({ link, visit }) => toShlinkVisit(visit, shortUrlFor(settings.baseUrl, link.code)));
    return c.json({ visits: { data: visits, pagination } }, 200, PRIVATE);
  };
  /** Shlink's `domain` filter of the lists across links: another domain than ours holds nothing. */
  const onOtherDomain = (c: Context) => !isOurDomain(c.req.query('domain'), host);
  const emptyPage = (c: Context, query: VisitQuery) => c.json({ visits: pageOf([], query.page) }, 200, PRIVATE);

  return {
    /** A page of the link's kept visits, newest first. */
    async getShortUrlVisits(c) {
      const scope = scopeOf(await context.callerOf(c.req.raw));
      const link = await findShortUrl(context, c.req.raw, scope);
      const query = parseVisitQuery(new URL(c.req.url).searchParams);
      const kept = await readLinkVisits(store, link, query);
      const shortUrl = shortUrlFor(settings.baseUrl, link.code);
      const { data, pagination } = pageOf(kept, query.page);
      return c.json(
        { visits: { data: data.map((visit) => toShlinkVisit(visit, shortUrl)), pagination } },
        200,
        PRIVATE,
      );
    },

    /** Its visits and click counts, as the v1 API deletes them (`deleteVisits`): `{deletedVisits}`. */
    async deleteShortUrlVisits(c) {
      const scope = scopeOf(await context.callerOf(c.req.raw));
      const link = await findShortUrl(context, c.req.raw, scope);
      const deleted = await store.deleteVisits(link.codeKey, scope, settings.now());
      if (deleted === undefined) throw shortUrlNotFound(link.code);
      return c.json({ deletedVisits: deleted }, 200, PRIVATE);
    },

    /** The caller's links' clicks (people) and bot visits added up; Linklet records no orphan visit. */
    async getVisitsOverview(c) {
      const scope = scopeOf(await context.callerOf(c.req.raw));
      const counted = { scope, now: settings.now() };
      const [{ clicks }, bots] = await Promise.all([store.countLinks(counted), store.countBots(counted)]);
      return c.json(
        {
          visits: {
            nonOrphanVisits: { total: clicks + bots, nonBots: clicks, bots },
            orphanVisits: { total: 0, nonBots: 0, bots: 0 },
          },
        },
        200,
        PRIVATE,
      );
    },

    async getOrphanVisits(c) {
      await context.callerOf(c.req.raw);
      return emptyPage(c, parseVisitQuery(new URL(c.req.url).searchParams));
    },

    async deleteOrphanVisits(c) {
      await context.callerOf(c.req.raw);
      return c.json({ deletedVisits: 0 }, 200, PRIVATE);
    },

    /** Every kept visit of the key's links, newest first across them. */
    async getNonOrphanVisits(c) {
      const scope = scopeOf(await context.callerOf(c.req.raw));
      const query = parseVisitQuery(new URL(c.req.url).searchParams);
      if (onOtherDomain(c)) return emptyPage(c, query);
      return pageAcrossLinks(c, { scope }, query);
    },

    /** The kept visits of the key's links with the tag; a tag none of them carries is Shlink's 404. */
    async getTagVisits(c) {
      const scope = scopeOf(await context.callerOf(c.req.raw));
      const query = parseVisitQuery(new URL(c.req.url).searchParams);
      const asked = c.req.param('tag') ?? '';
      let tag: string;
      try {
        tag = parseTagFilter(asked);
      } catch {
        // A name no tag can have is a tag no link carries.
        throw tagNotFound(asked);
      }
      const carriers = await store.listLinks({ scope, tag, now: settings.now(), limit: 1 });
      if (carriers.length === 0) throw tagNotFound(asked);
      if (onOtherDomain(c)) return emptyPage(c, query);
      return pageAcrossLinks(c, { scope, tag }, query);
    },

    /** The kept visits of the key's links on a domain: Linklet's one, or Shlink's 404 for any other. */
    async getDomainVisits(c) {
      const scope = scopeOf(await context.callerOf(c.req.raw));
      const query = parseVisitQuery(new URL(c.req.url).searchParams);
      const domain = c.req.param('domain') ?? '';
      if (domain === '' || !isOurDomain(domain, host)) throw domainNotFound(domain);
      return pageAcrossLinks(c, { scope }, query);
    },
  };
}
