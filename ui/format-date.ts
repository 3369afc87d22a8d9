import { isRealDate } from './real-date.js';

/**
 * A date and time in `language` (the page's: `I18n.language`) and the browser's zone, e.g.
 * "Nov 29, 2026, 3:04 PM". A value no `Date` can hold (NaN, 1e300: a stored record written
 * before the checks, or tampered with) gives "?" instead of throwing, so one bad record cannot
 * blank a whole list.
 */
export function formatDateTime(epochMs: number, language: string): string {
  if (!isRealDate(epochMs)) return '?';
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(epochMs);
}

/** The ISO form for a `<time datetime>`, or '' when the value is not a date. */
export function isoDateTime(epochMs: number): string {
  return isRealDate(epochMs) ? new Date(epochMs).toISOString() : '';
}
