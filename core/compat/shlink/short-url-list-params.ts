import { parseTagFilter } from '../../management/links/link-labels.js';
import { type LinkListQuery, type LinkOrderField, searchKey } from '../../store/link-management-store.js';
import { isOurDomain } from './shlink-domain.js';
import { type PageRequest, parsePageRequest } from './shlink-pages.js';
import { invalidData } from './shlink-problem.js';
import { asShlinkField } from './short-url-fields.js';

/** Shlink's default page of short URLs. */
const DEFAULT_ITEMS_PER_PAGE = 10;
/** The largest page of short URLs (and what `itemsPerPage=-1` gives). */
export const MAX_SHORT_URLS_PER_PAGE = 1000;

/** Shlink's `orderBy` fields as Linklet's list orders; both visit counts are Linklet's clicks (people only). */
const ORDER_FIELDS: Record<string, LinkOrderField> = {
  dateCreated: 'created',
  shortCode: 'code',
  longUrl: 'url',
  title: 'title',
  visits: 'clicks',
  nonBotVisits: 'clicks',
};

/** What a `GET /short-urls` asks for, in the store's terms (the scope and time are the route's). */
export interface ShortUrlListParams {
  page: PageRequest;
  filters: Pick<LinkListQuery, 'search' | 'status' | 'tag' | 'order'>;
  /** Another domain than this server's: no link is on it. */
  otherDomain: boolean;
}

// Filters of Shlink's list that Linklet's store cannot apply: refused, never ignored, so a
// client never shows an unfiltered list as if it were filtered.
const UNSUPPORTED: Record<string, string> = {
  'excludeTags[]': 'Linklet cannot leave out links by tag; filter by one tag instead.',
  startDate: 'Linklet cannot filter links by creation date; order them by dateCreated instead.',
  endDate: 'Linklet cannot filter links by creation date; order them by dateCreated instead.',
  apiKeyName: 'Linklet cannot filter links by the key that made them.',
};

/**
 * The query of Shlink's `GET /short-urls`. One tag filters (`tags[]`); several are refused, as
 * the store filters by one tag only (either `tagsMode` of one tag is the same list).
 * `excludePastValidUntil=true` lists only active links (a disabled link, which Shlink does not
 * know, is left out too); `excludeMaxVisitsReached` changes nothing: no link has a visit limit.
 */
export function parseShortUrlListParams(query: URLSearchParams, host: string): ShortUrlListParams {
  for (const [field, detail] of Object.entries(UNSUPPORTED)) {
    if ((query.get(field) ?? '') !== '') throw invalidData([field.replace('[]', '')], detail);
  }
  const page = parsePageRequest(query, DEFAULT_ITEMS_PER_PAGE, MAX_SHORT_URLS_PER_PAGE);
  const filters: ShortUrlListParams['filters'] = {};
  const searchTerm = query.get('searchTerm')?.trim();
  if (searchTerm) filters.search = searchKey(searchTerm);
  const tags = query.getAll('tags[]').filter((tag) => tag.trim() !== '');
  if (tags.length > 1) {
    throw invalidData(['tags'], 'Linklet filters by one tag at a time; send a single tags[] value.');
  }
  if (tags[0] !== undefined) filters.tag = asShlinkField('tags', () => parseTagFilter(tags[0] as string));
  const tagsMode = query.get('tagsMode');
  if (tagsMode !== null && tagsMode !== 'any' && tagsMode !== 'all') {
    throw invalidData(['tagsMode'], 'tagsMode must be any or all.');
  }
  const orderBy = query.get('orderBy');
  if (orderBy !== null && orderBy !== '') {
    const [field = '', direction = 'ASC'] = orderBy.split('-');
    const orderField = ORDER_FIELDS[field];
    if (orderField === undefined || (direction !== 'ASC' && direction !== 'DESC')) {
      throw invalidData(
        ['orderBy'],
        `orderBy must be a field (${Object.keys(ORDER_FIELDS).join(', ')}) and ASC or DESC, such as dateCreated-DESC.`,
      );
    }
    filters.order = { field: orderField, descending: direction === 'DESC' };
  }
  for (const flag of ['excludeMaxVisitsReached', 'excludePastValidUntil']) {
    const value = query.get(flag);
    if (value !== null && value !== 'true' && value !== 'false')
      throw invalidData([flag], `${flag} must be true or false.`);
  }
  if (query.get('excludePastValidUntil') === 'true') filters.status = 'active';
  return { page, filters, otherDomain: !isOurDomain(query.get('domain'), host) };
}
