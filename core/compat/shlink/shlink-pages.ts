import { invalidData } from './shlink-problem.js';

/** What Shlink's paginated answers carry beside their `data`. */
export interface ShlinkPagination {
  currentPage: number;
  pagesCount: number;
  itemsPerPage: number;
  itemsInCurrentPage: number;
  totalItems: number;
}

/** A page asked for: its number (from 1) and its size. */
export interface PageRequest {
  page: number;
  itemsPerPage: number;
}

/**
 * `page` and `itemsPerPage` from a query. Shlink takes `itemsPerPage=-1` (and, for visits and
 * tags, no value) as "everything on one page"; Linklet answers at most `max` items a page
 * instead, and the pagination says how many pages there are, so a client that follows it still
 * gets everything, page by page, and no request reads an unbounded list.
 */
export function parsePageRequest(query: URLSearchParams, defaultSize: number | 'all', max: number): PageRequest {
  const page = integerOf(query.get('page'), 'page') ?? 1;
  if (page < 1) throw invalidData(['page'], 'page must be 1 or more.');
  const asked = integerOf(query.get('itemsPerPage'), 'itemsPerPage') ?? (defaultSize === 'all' ? -1 : defaultSize);
  if (asked === 0 || asked < -1) throw invalidData(['itemsPerPage'], 'itemsPerPage must be 1 or more (or -1 for all).');
  return { page, itemsPerPage: asked === -1 ? max : Math.min(asked, max) };
}

function integerOf(text: string | null, field: string): number | undefined {
  if (text === null || text.trim() === '') return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw invalidData([field], `${field} must be a whole number.`);
  return value;
}

/** The pagination of a page of `items` out of `totalItems`, as Shlink's paginator writes it. */
export function paginationOf(request: PageRequest, itemsInCurrentPage: number, totalItems: number): ShlinkPagination {
  return {
    currentPage: request.page,
    pagesCount: Math.ceil(totalItems / request.itemsPerPage),
    itemsPerPage: request.itemsPerPage,
    itemsInCurrentPage,
    totalItems,
  };
}

/** One page of a list held whole (tags, visits): its items and their pagination. */
export function pageOf<T>(items: readonly T[], request: PageRequest) {
  const start = (request.page - 1) * request.itemsPerPage;
  const data = items.slice(start, start + request.itemsPerPage);
  return { data, pagination: paginationOf(request, data.length, items.length) };
}
