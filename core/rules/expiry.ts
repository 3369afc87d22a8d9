export const EXPIRE_DURATIONS = ['24h', '48h', '1week', '1month'] as const;
export type ExpireDuration = (typeof EXPIRE_DURATIONS)[number];
export const DEFAULT_EXPIRE_DURATION: ExpireDuration = '1week';
/**
 * How long a link made through the YOURLS or Shlink API lives when the client says nothing:
 * their clients never ask, and their links are expected to last, so the longest Linklet has.
 */
export const DEFAULT_COMPAT_EXPIRE_DURATION: ExpireDuration = '1month';

const HOUR_MS = 3_600_000;

function daysInUtcMonth(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/**
 * The moment (epoch ms) a link made at `now` expires. Hours are exact durations; `1month` is the
 * same UTC day and time in the next calendar month, clamped to its last day (Jan 31 → Feb 28/29),
 * so a month never spills into the month after.
 */
export function expiryFor(duration: ExpireDuration, now: number): number {
  switch (duration) {
    case '24h':
      return now + 24 * HOUR_MS;
    case '48h':
      return now + 48 * HOUR_MS;
    case '1week':
      return now + 7 * 24 * HOUR_MS;
    case '1month': {
      const start = new Date(now);
      const year = start.getUTCFullYear() + (start.getUTCMonth() === 11 ? 1 : 0);
      const month = (start.getUTCMonth() + 1) % 12;
      const day = Math.min(start.getUTCDate(), daysInUtcMonth(year, month));
      return Date.UTC(
        year,
        month,
        day,
        start.getUTCHours(),
        start.getUTCMinutes(),
        start.getUTCSeconds(),
        start.getUTCMilliseconds(),
      );
    }
  }
}

/** Whether a link with this expiration is still active: active while now < expiration. */
export function isActive(expiresAt: number, now: number): boolean {
  return now < expiresAt;
}
