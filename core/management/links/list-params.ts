import { invalid } from '../../http/errors.js';
import { characterCount } from '../../rules/character-count.js';
import { startsWithCalendarDay } from '../../rules/dates.js';
import { type LinkStatus, searchKey, TOMBSTONE_RETENTION_MS } from '../../store/link-management-store.js';
import { parseTagFilter } from './link-labels.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
export const MAX_SEARCH_LENGTH = 2048;
export const LIST_STATUSES = ['all', 'active', 'expired', 'disabled'] as const;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** The query of `GET /api/v1/links`, checked. */
export interface LinkListParams {
  limit: number;
  cursor: string | undefined;
  /** NFC and lower-cased (ASCII), so the stores compare it as they keep and lower-case codes, URLs and titles. */
  search: string | undefined;
  status: LinkStatus | undefined;
  /** A tag key the links must carry (`tag=`). */
  tag?: string;
  /** Set: list changes (and deletions) since this moment instead of links newest first. */
  changedSince: number | undefined;
}

/**
 * Reads the listing query; every bad value is a 400 that names its parameter and the rule.
 * `changed_since` reaches back 30 days at most (tombstones are kept that long): a device offline
 * longer lists everything again.
 */
export function parseLinkListParams(query: URLSearchParams, now: number): LinkListParams {
  const limitText = query.get('limit');
  if (limitText !== null && !/^\d{1,3}$/.test(limitText)) throw limitRule();
  const limit = limitText === null ? DEFAULT_PAGE_SIZE : Number(limitText);
  if (limit < 1 || limit > MAX_PAGE_SIZE) throw limitRule();

  const statusText = query.get('status') ?? 'all';
  if (!(LIST_STATUSES as readonly string[]).includes(statusText)) {
    throw invalid(`status must be one of ${LIST_STATUSES.join(', ')}.`);
  }
  const searchText = query.get('search')?.trim() ?? '';
  if (characterCount(searchText) > MAX_SEARCH_LENGTH)
    throw invalid(`search must be at most ${MAX_SEARCH_LENGTH} characters.`);

  const sinceText = query.get('changed_since');
  let changedSince: number | undefined;
  if (sinceText !== null) {
    changedSince = ISO_DATE.test(sinceText) && startsWithCalendarDay(sinceText) ? Date.parse(sinceText) : Number.NaN;
    if (Number.isNaN(changedSince)) {
      throw invalid('changed_since must be an ISO 8601 date and time, such as 2026-01-31T12:00:00.000Z.');
    }
    if (changedSince < now - TOMBSTONE_RETENTION_MS) {
      throw invalid(
        'changed_since must be within the last 30 days (deletions are kept that long); list all links instead.',
      );
    }
    if (searchText !== '' || statusText !== 'all' || query.has('tag')) {
      throw invalid('changed_since cannot be combined with search, status or tag; it lists every change.');
    }
  }
  const cursor = query.get('cursor');
  const tagText = query.get('tag');
  return {
    ...(tagText !== null && tagText !== '' && { tag: parseTagFilter(tagText) }),
    limit,
    cursor: cursor === null || cursor === '' ? undefined : cursor,
    search: searchText === '' ? undefined : searchKey(searchText),
    status: statusText === 'all' ? undefined : (statusText as LinkStatus),
    changedSince,
  };
}

const limitRule = () => invalid(`limit must be a whole number from 1 to ${MAX_PAGE_SIZE}.`);
