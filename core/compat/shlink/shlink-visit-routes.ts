import { scopeOf } from '../../management/owners/authenticate.js';
import type { StoredVisit } from '../../management/visits/visits.js';
import { shortUrlFor } from '../../shorten/envelopes.js';
import { findShortUrl, PRIVATE, type ShlinkContext, type ShlinkHandler } from './shlink-context.js';
import { parseShlinkDate } from './shlink-dates.js';
import { pageOf, parsePageRequest } from './shlink-pages.js';
import { invalidData, notSupported } from './shlink-problem.js';
import { toShlinkVisit } from './shlink-visit-view.js';

/** The largest page of visits (Shlink's web client asks for 5000 at a time), and what "all" gives. */
export const MAX_VISITS_PER_PAGE = 5000;
/** Visits read from the store per step while going through a link's kept visits. */
const READ_STEP = 1000;

/** `startDate`, `endDate` (inclusive) and `excludeBots` of a visits query. */
function visitFilterOf(query: URLSearchParams): (visit: StoredVisit) => boolean {
  const start = query.get('startDate') ? parseShlinkDate(query.get('startDate'), 'startDate') : undefined;
  const end = query.get('endDate') ? parseShlinkDate(query.get('endDate'), 'endDate') : undefined;
  const excludeBots = query.get('excludeBots');
  if (excludeBots !== null && excludeBots !== 'true' && excludeBots !== 'false') {
    throw invalidData(['excludeBots'], 'excludeBots must be true or false.');
  }
  return (visit) =>
    (start === undefined || visit.at >= start) &&
    (end === undefined || visit.at <= end) &&
    !(excludeBots === 'true' && visit.bot);
}

const VISITS_ACROSS_LINKS =
  'Linklet lists visits per short URL (GET /short-urls/{shortCode}/visits); it cannot list them across links.';

/** Shlink's visits endpoints: a link's own, the overview, and the orphan visits Linklet never has. */
export function visitHandlers(context: ShlinkContext): Record<string, ShlinkHandler> {
  const { store, settings } = context;
  return {
    /**
     * A page of the link's kept visits, newest first. Pages are counted over the visits that
     * pass the filters, so the store is read through (by its keyset, a step at a time) up to the
     * start date: Shlink's pages need the total, which no store operation counts.
     */
    async getShortUrlVisits(c) {
      const scope = scopeOf(await context.callerOf(c.req.raw));
      const link = await findShortUrl(context, c.req.raw, scope);
      const query = new URL(c.req.url).searchParams;
      const page = parsePageRequest(query, 'all', MAX_VISITS_PER_PAGE);
      const keep = visitFilterOf(query);
      const start = query.get('startDate') ? parseShlinkDate(query.get('startDate'), 'startDate') : undefined;
      const kept: StoredVisit[] = [];
      let before: { at: number; id: number } | undefined;
      for (;;) {
        const step = await store.listVisits(link.codeKey, link.createdAt, READ_STEP, before);
        kept.push(...step.filter(keep));
        const last = step.at(-1);
        if (step.length < READ_STEP || last === undefined || (start !== undefined && last.at < start)) break;
        before = { at: last.at, id: last.id };
      }
      const shortUrl = shortUrlFor(settings.baseUrl, link.code);
      const { data, pagination } = pageOf(kept, page);
      return c.json(
        { visits: { data: data.map((visit) => toShlinkVisit(visit, shortUrl)), pagination } },
        200,
        PRIVATE,
      );
    },

    async deleteShortUrlVisits(c) {
      const scope = scopeOf(await context.callerOf(c.req.raw));
      await findShortUrl(context, c.req.raw, scope);
      throw notSupported('Linklet keeps the visits of a short URL until they age out; they cannot be deleted.');
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
      const page = parsePageRequest(new URL(c.req.url).searchParams, 'all', MAX_VISITS_PER_PAGE);
      return c.json({ visits: pageOf([], page) }, 200, PRIVATE);
    },

    async deleteOrphanVisits(c) {
      await context.callerOf(c.req.raw);
      return c.json({ deletedVisits: 0 }, 200, PRIVATE);
    },

    async getNonOrphanVisits(c) {
      await context.callerOf(c.req.raw);
      throw notSupported(VISITS_ACROSS_LINKS);
    },
    async getTagVisits(c) {
      await context.callerOf(c.req.raw);
      throw notSupported(VISITS_ACROSS_LINKS);
    },
    async getDomainVisits(c) {
      await context.callerOf(c.req.raw);
      throw notSupported(VISITS_ACROSS_LINKS);
    },
  };
}
