import { type Caller, scopeOf } from '../../management/owners/authenticate.js';
import type { LinkOrder, ManagedLinkStore, OwnerScope } from '../../store/link-management-store.js';
import type { Link } from '../../store/link-store.js';
import { pleaseLogIn } from './yourls-auth.js';
import { NEED_XML_OR_JSON, type YourlsAction } from './yourls-context.js';
import { statsLinkOf } from './yourls-link.js';
import type { XmlValue } from './yourls-xml.js';

/** The most links one `stats` answer lists (YOURLS sets no bound; an answer should have one). */
export const MAX_STATS_LIMIT = 1000;
/** Up to this many links, `rand` shuffles them all; beyond, it reads links at random positions. */
const SHUFFLE_ALL_UP_TO = 10_000;

/** `yourls_get_db_stats`: how many links, and their clicks added up, in one count of the store. */
async function totalsOf(store: ManagedLinkStore, scope: OwnerScope, now: number) {
  const { links, clicks } = await store.countLinks({ scope, now });
  return { total_links: links, total_clicks: clicks };
}

function scopeOfCaller(caller: Caller | undefined): OwnerScope {
  if (caller === undefined) throw pleaseLogIn();
  return scopeOf(caller);
}

/** PHP's `intval` of a field: its leading integer, 0 when there is none. */
function intval(value: string | undefined): number {
  const parsed = Number.parseInt(value ?? '', 10);
  return Number.isNaN(parsed) ? 0 : parsed;
}

// YOURLS's orders: `top` (also any other value) and `bottom` by clicks, `last` newest first.
const NEWEST: LinkOrder = { field: 'created', descending: true };
const MOST_CLICKED: LinkOrder = { field: 'clicks', descending: true };
const ORDER_OF_FILTER: Record<string, LinkOrder> = {
  top: MOST_CLICKED,
  bottom: { field: 'clicks', descending: false },
  last: NEWEST,
};

/** `limit` of the links in scope in random order (YOURLS's `ORDER BY RAND()`). */
async function randomLinks(store: ManagedLinkStore, scope: OwnerScope, now: number, total: number, limit: number) {
  if (total <= SHUFFLE_ALL_UP_TO) {
    const links = await store.listLinks({ scope, now, limit: total, offset: 0, order: NEWEST });
    for (let i = links.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [links[i], links[j]] = [links[j] as Link, links[i] as Link];
    }
    return links.slice(0, limit);
  }
  const positions = new Set<number>();
  while (positions.size < Math.min(limit, total)) positions.add(Math.floor(Math.random() * total));
  const picked = await Promise.all(
    [...positions].map((offset) => store.listLinks({ scope, now, limit: 1, offset, order: NEWEST })),
  );
  return picked.flat();
}

/**
 * `action=stats`: the caller's links in the `filter`'s order from `start`, at most `limit`
 * (YOURLS lists none without a `limit`), as `link_1`, `link_2`…, and the caller's totals.
 */
export const statsAction: YourlsAction = async (params, caller, { store, settings }) => {
  const scope = scopeOfCaller(caller);
  const now = settings.now();
  const totals = await totalsOf(store, scope, now);
  const limit = Math.min(intval(params.get('limit')), MAX_STATS_LIMIT);
  const start = Math.max(intval(params.get('start')), 0);
  const filter = params.get('filter') ?? 'top';
  let listed: Link[] = [];
  if (limit > 0 && filter !== 'rand' && filter !== 'random') {
    const order = ORDER_OF_FILTER[filter] ?? MOST_CLICKED;
    listed = await store.listLinks({ scope, now, limit, offset: start, order });
  } else if (limit > 0) {
    listed = await randomLinks(store, scope, now, totals.total_links, limit);
  }
  const body: Record<string, XmlValue> = {};
  if (listed.length > 0) {
    body.links = Object.fromEntries(
      listed.map((link, index) => [`link_${index + 1}`, statsLinkOf(link, settings.baseUrl, settings.timeZone)]),
    );
  }
  Object.assign(body, { stats: totals, statusCode: '200', message: 'success' });
  return { status: 200, body, simple: NEED_XML_OR_JSON };
};

/** `action=db-stats`: the caller's totals (the administrator's: every link's). */
export const dbStatsAction: YourlsAction = async (_params, caller, { store, settings }) => {
  const totals = await totalsOf(store, scopeOfCaller(caller), settings.now());
  return {
    status: 200,
    body: { 'db-stats': totals, statusCode: '200', message: 'success' },
    simple: NEED_XML_OR_JSON,
  };
};
