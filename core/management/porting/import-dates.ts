import { invalid } from '../../http/errors.js';

// ISO 8601 as the exporters write it (`2026-01-31T12:00:00.000Z`, `…+09:00`), and the SQL form
// `2026-01-31 12:00:00` of YOURLS and Kutt on SQLite, which has no zone: read as UTC.
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?))?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Whether a value counts as "not given": absent, `null` or an empty (or blank) string. */
export const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * A date from an import file as epoch ms, or undefined when not given. Strings are ISO 8601 or
 * SQL `YYYY-MM-DD HH:MM:SS` (no zone: UTC); numbers are Unix seconds (Sink). Anything else is a
 * 400 naming the column, so the row is reported rather than imported with a made-up date.
 */
export function readDate(value: unknown, column: string): number | undefined {
  if (isBlank(value)) return undefined;
  let epochMs = Number.NaN;
  if (typeof value === 'number') {
    epochMs = Number.isFinite(value) ? value * 1000 : Number.NaN;
  } else if (typeof value === 'string') {
    const match = DATE_TIME.exec(value.trim());
    if (match) {
      const [, day, time = '00:00', zone = 'Z'] = match;
      const offset = /^[+-]\d{2}$/.test(zone) ? `${zone}:00` : zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
      epochMs = Date.parse(`${day}T${time}${offset.toUpperCase()}`);
    }
  }
  // Date can hold ±8.64e15 ms; a date it cannot hold is no date.
  if (!Number.isFinite(epochMs) || Math.abs(epochMs) > 8.64e15) {
    throw invalid(`${column} is not a date: ${JSON.stringify(value)}; use ISO 8601 such as 2026-01-31T12:00:00Z.`);
  }
  return epochMs;
}
