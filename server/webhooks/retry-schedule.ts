/**
 * How long after each failed attempt the next one comes: within seconds first (a receiver that
 * was restarting), then backing off over more than a day (Standard Webhooks' own schedule), so
 * an endpoint down for a day has been tried all along. After the last, the delivery is given up.
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];

/** When a delivery that failed its `attempts`-th attempt (1 for the first) is tried again; undefined: never. */
export function retryAtAfter(attempts: number, now: number): number | undefined {
  const delay = RETRY_DELAYS_MS[attempts - 1];
  return delay === undefined ? undefined : now + delay;
}
