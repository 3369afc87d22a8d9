import { invalid } from '../../http/errors.js';
import { CLICK_DAYS_SHOWN, dayOf } from '../../rules/clicks.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../links/list-params.js';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** The longest range one stats query covers (about ten years): its `days` list is that long. */
export const MAX_STATS_DAYS = 3660;

/** A `YYYY-MM-DD` that is a real day, as a UTC day number; anything else is a 400 naming the parameter. */
function dayParam(query: URLSearchParams, name: 'from' | 'to'): number | undefined {
  const text = query.get(name);
  if (text === null || text === '') return undefined;
  const match = DAY.exec(text);
  const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  if (!match || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text) {
    throw invalid(`${name} must be a date written YYYY-MM-DD, such as 2026-01-31.`);
  }
  return ms / DAY_MS;
}

/**
 * The days of `GET /api/v1/links/{code}/stats`: `from` and `to` (UTC, both included), by default
 * the last 30 days up to today; `from` alone runs to today, `to` alone covers the 30 days up to it.
 */
export function parseStatsRange(query: URLSearchParams, now: number): { fromDay: number; toDay: number } {
  const from = dayParam(query, 'from');
  const to = dayParam(query, 'to');
  const toDay = to ?? (from === undefined ? dayOf(now) : Math.max(from, dayOf(now)));
  const fromDay = from ?? toDay - CLICK_DAYS_SHOWN + 1;
  if (fromDay > toDay) throw invalid('from must be on or before to.');
  if (toDay - fromDay + 1 > MAX_STATS_DAYS) throw invalid(`from and to may be at most ${MAX_STATS_DAYS} days apart.`);
  return { fromDay, toDay };
}

export const VISIT_EXPORT_FORMATS = ['json', 'csv'] as const;

/** The query of `GET /api/v1/links/{code}/visits`, checked. */
export function parseVisitListParams(query: URLSearchParams) {
  const limitText = query.get('limit');
  const limit = limitText === null || limitText === '' ? DEFAULT_PAGE_SIZE : Number(limitText);
  if ((limitText !== null && limitText !== '' && !/^\d{1,3}$/.test(limitText)) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw invalid(`limit must be a whole number from 1 to ${MAX_PAGE_SIZE}.`);
  }
  const format = query.get('format') || 'json';
  if (!(VISIT_EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw invalid(`format must be one of ${VISIT_EXPORT_FORMATS.join(', ')}.`);
  }
  const cursor = query.get('cursor');
  return {
    limit,
    cursor: cursor === null || cursor === '' ? undefined : cursor,
    format: format as (typeof VISIT_EXPORT_FORMATS)[number],
  };
}
