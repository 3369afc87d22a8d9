import type { StoredVisit } from '../../management/visits/visits.js';
import type { ManagedLinkStore, OwnerScope } from '../../store/link-management-store.js';
import type { Link } from '../../store/link-store.js';
import { ShlinkProblemError } from './shlink-problem.js';
import { readLinkVisits, type VisitQuery, type VisitReadBudget } from './shlink-visit-query.js';

/**
 * How much one list of visits across links may read. Linklet keeps visits per link and cannot
 * count or order them across links in the store, so each request reads every link's visits;
 * past these it refuses rather than answer slowly or with a page that is not the whole truth.
 */
export interface VisitsAcrossLinksBounds {
  /** The most links in scope. */
  links: number;
  /** The most kept visits (from the start date on) read in all. */
  visits: number;
}

export const VISITS_ACROSS_LINKS_BOUNDS: VisitsAcrossLinksBounds = { links: 1000, visits: 100_000 };

/** Links read at once: enough to overlap the store's round trips, few enough to share it. */
const LINKS_AT_ONCE = 8;

/** A kept visit with the link it belongs to. */
export interface LinkVisit {
  link: Link;
  visit: StoredVisit;
}

/** Which links: the scope's, or those of it with one tag (its key, see `tagKey`). */
export interface LinkSelection {
  scope: OwnerScope;
  tag?: string;
}

/** The refusal past the bounds: a 400 problem that says where to look instead. */
export function tooManyVisits(what: string): ShlinkProblemError {
  return new ShlinkProblemError(
    'invalid',
    `${what}, too many to list across links here. Look at one short URL's visits instead (GET /short-urls/{shortCode}/visits), or narrow the dates with startDate.`,
    { type: 'too-many-visits', title: 'Too many visits' },
  );
}

/** Newest first; ties by visit id, then by code key: the same order on every request. */
function newestFirst(a: LinkVisit, b: LinkVisit): number {
  return (
    b.visit.at - a.visit.at ||
    b.visit.id - a.visit.id ||
    (a.link.codeKey < b.link.codeKey ? -1 : a.link.codeKey > b.link.codeKey ? 1 : 0)
  );
}

/**
 * The kept visits of every selected link that pass the query, newest first across links: what
 * Shlink's `/visits/non-orphan`, `/tags/{tag}/visits` and `/domains/{domain}/visits` page
 * through. All of them, or the `too-many-visits` refusal: never part of them as if whole.
 */
export async function visitsAcrossLinks(
  store: ManagedLinkStore,
  selection: LinkSelection,
  query: VisitQuery,
  now: number,
  bounds: VisitsAcrossLinksBounds = VISITS_ACROSS_LINKS_BOUNDS,
): Promise<LinkVisit[]> {
  const links = await store.listLinks({ ...selection, now, limit: bounds.links + 1 });
  if (links.length > bounds.links) throw tooManyVisits(`These visits belong to more than ${bounds.links} short URLs`);
  const budget: VisitReadBudget = {
    left: bounds.visits,
    onExceeded: () => {
      throw tooManyVisits(`There are more than ${bounds.visits} kept visits in this range`);
    },
  };
  const found: LinkVisit[] = [];
  for (let i = 0; i < links.length; i += LINKS_AT_ONCE) {
    const batch = links.slice(i, i + LINKS_AT_ONCE);
    const visits = await Promise.all(batch.map((link) => readLinkVisits(store, link, query, budget)));
    batch.forEach((link, j) => {
      for (const visit of visits[j] ?? []) found.push({ link, visit });
    });
  }
  return found.sort(newestFirst);
}
