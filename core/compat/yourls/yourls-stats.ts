import { type Caller, scopeOf } from '../../management/owners/authenticate.js';
import type { ManagedLinkStore, OwnerScope } from '../../store/link-management-store.js';
import type { Link } from '../../store/link-store.js';
import { pleaseLogIn } from './yourls-auth.js';
import { NEED_XML_OR_JSON, type YourlsAction } from './yourls-context.js';
import { statsLinkOf } from './yourls-link.js';
import type { XmlValue } from './yourls-xml.js';

const PAGE_SIZE = 500;
/** The most links one `stats` answer lists (YOURLS sets no bound; an answer should have one). */
export const MAX_STATS_LIMIT = 1000;

/**
 * Every link in scope, any status, read page by page through the management listing. The totals
 * and orders YOURLS asks for (by clicks, at random) are over all of the caller's links, which no
 * store operation gives in one read: this costs one pass over them.
 */
async function linksIn(store: ManagedLinkStore, scope: OwnerScope, now: number): Promise<Link[]> {
  const all: Link[] = [];
  let after: { createdAt: number; codeKey: string } | undefined;
  for (;;) {
    const page = await store.listLinks({ scope, limit: PAGE_SIZE, now, ...(after && { after }) });
    all.push(...page);
    const last = page.at(-1);
    if (page.length < PAGE_SIZE || last === undefined) return all;
    after = { createdAt: last.createdAt, codeKey: last.codeKey };
  }
}

/** `yourls_get_db_stats`: how many links, and their clicks added up. */
function totalsOf(links: readonly Link[]) {
  return { total_links: links.length, total_clicks: links.reduce((sum, link) => sum + (link.clicks ?? 0), 0) };
}

function callerLinks(caller: Caller | undefined, store: ManagedLinkStore, now: number): Promise<Link[]> {
  if (caller === undefined) throw pleaseLogIn();
  return linksIn(store, scopeOf(caller), now);
}

/** PHP's `intval` of a field: its leading integer, 0 when there is none. */
function intval(value: string | undefined): number {
  const parsed = Number.parseInt(value ?? '', 10);
  return Number.isNaN(parsed) ? 0 : parsed;
}

/** The links in YOURLS's order for `filter`: `top` (also any other value), `bottom`, `last`, `rand`. */
function ordered(links: Link[], filter: string): Link[] {
  const newest = (a: Link, b: Link) => b.createdAt - a.createdAt;
  const clicks = (link: Link) => link.clicks ?? 0;
  if (filter === 'last') return links.sort(newest);
  if (filter === 'bottom') return links.sort((a, b) => clicks(a) - clicks(b) || newest(a, b));
  if (filter === 'rand' || filter === 'random') {
    for (let i = links.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [links[i], links[j]] = [links[j] as Link, links[i] as Link];
    }
    return links;
  }
  return links.sort((a, b) => clicks(b) - clicks(a) || newest(a, b));
}

/**
 * `action=stats`: the caller's links in the `filter`'s order from `start`, at most `limit`
 * (YOURLS lists none without a `limit`), as `link_1`, `link_2`…, and the caller's totals.
 */
export const statsAction: YourlsAction = async (params, caller, { store, settings }) => {
  const links = await callerLinks(caller, store, settings.now());
  const limit = Math.min(intval(params.get('limit')), MAX_STATS_LIMIT);
  const start = Math.max(intval(params.get('start')), 0);
  const listed = limit > 0 ? ordered([...links], params.get('filter') ?? 'top').slice(start, start + limit) : [];
  const body: Record<string, XmlValue> = {};
  if (listed.length > 0) {
    body.links = Object.fromEntries(
      listed.map((link, index) => [`link_${index + 1}`, statsLinkOf(link, settings.baseUrl, settings.timeZone)]),
    );
  }
  Object.assign(body, { stats: totalsOf(links), statusCode: '200', message: 'success' });
  return { status: 200, body, simple: NEED_XML_OR_JSON };
};

/** `action=db-stats`: the caller's totals (the administrator's: every link's). */
export const dbStatsAction: YourlsAction = async (_params, caller, { store, settings }) => {
  const links = await callerLinks(caller, store, settings.now());
  return {
    status: 200,
    body: { 'db-stats': totalsOf(links), statusCode: '200', message: 'success' },
    simple: NEED_XML_OR_JSON,
  };
};
