const DAY_MS = 86_400_000;
// Years 1970–9999: what `toISOString` writes as `YYYY-MM-DDTHH:MM:SS.sssZ`; others it writes
// with a sign and six digits, so they go to it.
const FAST_UNTIL_MS = 253_402_300_800_000;
const dayPrefixes = new Map<number, string>();
const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * v1 dialect: ISO 8601 in UTC with milliseconds and `Z`, exactly as `toISOString` writes it.
 * The date part is kept per day and the time written by hand: an export of a million links
 * writes two million dates, and `new Date(…).toISOString()` was a quarter of its time.
 */
export function formatIsoDate(epochMs: number): string {
  if (!(epochMs >= 0 && epochMs < FAST_UNTIL_MS)) return new Date(epochMs).toISOString();
  const ms = Math.floor(epochMs);
  const day = Math.floor(ms / DAY_MS);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    if (dayPrefixes.size >= 1024) dayPrefixes.clear();
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    dayPrefixes.set(day, prefix);
  }
  const inDay = ms - day * DAY_MS;
  const seconds = Math.floor(inDay / 1000);
  return `${prefix}${pad2(Math.floor(seconds / 3600))}:${pad2(Math.floor(seconds / 60) % 60)}:${pad2(seconds % 60)}.${pad3(inDay % 1000)}Z`;
}

const legacyFormatters = new Map<string, Intl.DateTimeFormat>();

function legacyFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = legacyFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    legacyFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * Legacy dialect: `YYYY-MM-DD HH:MM:SS` in the server's display time zone (an IANA name), as the
 * PHP service this endpoint replaces printed it.
 */
export function formatLegacyDate(epochMs: number, timeZone: string): string {
  const parts: Record<string, string> = {};
  for (const part of legacyFormatter(timeZone).formatToParts(epochMs)) parts[part.type] = part.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** Whether the runtime knows this IANA time zone, so configuration can refuse a typo at start. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether an ISO 8601 text starts with a day the calendar has (`2026-02-28`, not `2026-02-31`):
 * `Date.parse` takes `02-31` and rolls it over to 3 March, a date nobody sent.
 */
export function startsWithCalendarDay(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  return month >= 1 && month <= 12 && new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day;
}
