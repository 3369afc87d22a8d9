import type { StoredVisit } from '../../management/visits/visits.js';
import type { ManagedLinkStore } from '../../store/link-management-store.js';
import type { Link } from '../../store/link-store.js';
import { parseShlinkDate } from './shlink-dates.js';
import { type PageRequest, parsePageRequest } from './shlink-pages.js';

/** The largest page of visits (Shlink's web client asks for 5000 at a time), and what "all" gives. */
export const MAX_VISITS_PER_PAGE = 5000;
/** Visits read from the store per step while going through a link's kept visits. */
const READ_STEP = 1000;

/** What every Shlink visits list takes: a page, `startDate`, `endDate` (inclusive) and `excludeBots`. */
export interface VisitQuery {
  page: PageRequest;
  start?: number;
  end?: number;
  excludeBots: boolean;
}

/** The query of a Shlink visits list, or `invalid-data` naming the parameter that is wrong. */
export function parseVisitQuery(query: URLSearchParams): VisitQuery {
  const page = parsePageRequest(query, 'all', MAX_VISITS_PER_PAGE);
  const start = query.get('startDate') ? parseShlinkDate(query.get('startDate'), 'startDate') : undefined;
  const end = query.get('endDate') ? parseShlinkDate(query.get('endDate'), 'endDate') : undefined;
  return { page, start, end, excludeBots: excludesBots(query.get('excludeBots')) };
}

/**
 * Whether `excludeBots` (its value, null when absent) leaves bots out. Shlink 4.4 goes by its
 * presence alone (`isset`), so `?excludeBots`, `=1` or `=TRUE` all do and none is refused.
 * `false` (any ASCII case) is the one exception and keeps them: Shlink's own SDK sends it to
 * mean "don't exclude", and a client asking that must not get fewer visits than it asked for.
 */
export function excludesBots(value: string | null): boolean {
  return value !== null && value.toLowerCase() !== 'false';
}

/** Whether a visit passes the query's dates and bot filter. */
export function keepsVisit(query: VisitQuery, visit: StoredVisit): boolean {
  return (
    (query.start === undefined || visit.at >= query.start) &&
    (query.end === undefined || visit.at <= query.end) &&
    !(query.excludeBots && visit.bot)
  );
}

/**
 * How many more kept visits a request may read; `onExceeded` raises the refusal. Lists across
 * links share one, so a single request never reads an unbounded number of visits.
 */
export interface VisitReadBudget {
  left: number;
  onExceeded(): never;
}

/**
 * A link's kept visits that pass the query, newest first (time, then id). Pages are counted
 * over the visits that pass the filters, so the store is read through (by its keyset, a step
 * at a time) down to the start date: Shlink's pages need the total, which no store operation
 * counts. Visits older than the start date are not charged to the budget.
 */
export async function readLinkVisits(
  store: ManagedLinkStore,
  link: Link,
  query: VisitQuery,
  budget?: VisitReadBudget,
): Promise<StoredVisit[]> {
  const kept: StoredVisit[] = [];
  let before: { at: number; id: number } | undefined;
  for (;;) {
    const step = await store.listVisits(link.codeKey, link.createdAt, READ_STEP, before);
    if (budget !== undefined) {
      budget.left -= step.filter((visit) => query.start === undefined || visit.at >= query.start).length;
      if (budget.left < 0) budget.onExceeded();
    }
    kept.push(...step.filter((visit) => keepsVisit(query, visit)));
    const last = step.at(-1);
    if (step.length < READ_STEP || last === undefined || (query.start !== undefined && last.at < query.start)) break;
    before = { at: last.at, id: last.id };
  }
  return kept;
}
