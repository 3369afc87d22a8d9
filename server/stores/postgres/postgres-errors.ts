import type { StoreFault } from '../store-faults.js';

// Waits before each retry of a statement whose connection failed (a restart, a failover, a
// dropped socket); after the last one the failure is reported (a 503, see `postgresFaultOf`).
const RECONNECT_DELAYS_MS = [50, 250, 750];

// SQLSTATEs of a write that lost a race (the database judged it; the next attempt sees the
// winner): unique_violation, serialization_failure, deadlock_detected.
const RACE_LOST = new Set(['23505', '40001', '40P01']);
// SQLSTATEs and socket errors of a connection that failed or was cut: the statement may or may
// not have run, and another connection may do better.
const CONNECTION_LOST_STATES = new Set(['57P01', '57P02', '57P03']);
const CONNECTION_LOST_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const CONNECTION_LOST_MESSAGE = /Connection terminated|connection error|timeout exceeded when trying to connect/i;

/** Whether a query failed because its connection did (not because of what it asked). */
export function isConnectionLost(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (CONNECTION_LOST_CODES.has(code) || CONNECTION_LOST_STATES.has(code) || code.startsWith('08')) return true;
    if (/^[0-9A-Z]{5}$/.test(code)) return false; // any other SQLSTATE: the server answered
  }
  return CONNECTION_LOST_MESSAGE.test(error.message);
}

const UNREACHABLE: StoreFault = {
  message: 'The link store (PostgreSQL) cannot be reached right now; try again shortly.',
  retryAfterSeconds: 5,
};

/**
 * A failure that should pass: the database could not be reached, even after the store's own
 * reconnects. A create that fails so was not acknowledged (and, if its commit did land before
 * the connection was lost, a retry with the same custom code finds it taken, not doubled).
 */
export function postgresFaultOf(error: unknown): StoreFault | undefined {
  return isConnectionLost(error) ? UNREACHABLE : undefined;
}

/** Whether a write failed because a concurrent write of the same code won. */
export function isRaceLost(error: unknown): boolean {
  return error instanceof Error && RACE_LOST.has((error as { code?: string }).code ?? '');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `query`, trying again on a fresh connection when the connection fails. `onLost` hears of
 * each such failure (a write then no longer knows whether it committed).
 */
export async function withReconnect<T>(query: () => Promise<T>, onLost?: () => void): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await query();
    } catch (error) {
      const delay = RECONNECT_DELAYS_MS[attempt];
      if (delay === undefined || !isConnectionLost(error)) throw error;
      onLost?.();
      await sleep(delay);
    }
  }
}
