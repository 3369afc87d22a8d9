import { startsWithCalendarDay } from '../../rules/dates.js';
import { invalidData } from './shlink-problem.js';

/**
 * A date as Shlink writes every date (PHP's ATOM format): seconds, and the offset spelled out,
 * `2026-11-26T10:00:00+00:00`. Linklet keeps UTC, so the offset is always `+00:00`.
 */
export function formatShlinkDate(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 19)}+00:00`;
}

// A date, or a date and time with an optional offset: what Shlink's clients send (ISO 8601).
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** An ISO 8601 date from a request as epoch ms, or Shlink's `invalid-data` naming `field`. */
export function parseShlinkDate(value: unknown, field: string): number {
  const text = typeof value === 'string' ? value.trim() : undefined;
  const matched = text !== undefined && ISO_DATE_TIME.test(text) ? text.replace(' ', 'T') : undefined;
  // Without an offset the time is UTC, as Linklet keeps every time (JavaScript would read it as local).
  const utc = matched !== undefined && /T[^Z+-]*$/.test(matched) ? `${matched}Z` : matched;
  // A day the month does not have is refused rather than rolled over (see startsWithCalendarDay).
  const at = utc === undefined || !startsWithCalendarDay(utc) ? Number.NaN : Date.parse(utc);
  if (Number.isNaN(at)) {
    throw invalidData([field], `${field} must be an ISO 8601 date, such as 2026-11-26T10:00:00+00:00.`);
  }
  return at;
}
