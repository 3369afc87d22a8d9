import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { ImportBudget } from '../../core/management/porting/import-budget.js';

/** The default of `IMPORT_ROWS_PER_MINUTE`: links one owner may create by import per minute. */
export const DEFAULT_IMPORT_ROWS_PER_MINUTE = 10_000;

export interface ImportRowBudgetOptions {
  /** A limiter of `rowsPerMinute` points per 60-second window, in memory or Redis. */
  limiter: RateLimiterAbstract;
  rowsPerMinute: number;
  /** Resolves once the limiter's store may be asked (Redis connecting at start). */
  ready(): Promise<void>;
  /** Told when the store could not count: the rows go ahead, as requests do (fail open). */
  onFailure(error: unknown): void;
}

const secondsOf = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * The core's `ImportBudget` on `rate-limiter-flexible`, beside the request limits: a batch takes
 * what is left of its rows in one atomic count, and gives back at once what it could not have,
 * so concurrent imports (on any instance sharing the Redis) never create more than the budget.
 */
export function createImportRowBudget(options: ImportRowBudgetOptions): ImportBudget {
  const { limiter, rowsPerMinute, ready, onFailure } = options;
  return {
    rowsPerMinute,
    async left(subject) {
      try {
        await ready();
        const counted = await limiter.get(subject);
        if (counted === null) return { rows: rowsPerMinute, retryAfterSeconds: 60 };
        return {
          rows: Math.max(0, rowsPerMinute - counted.consumedPoints),
          retryAfterSeconds: secondsOf(counted.msBeforeNext),
        };
      } catch (error) {
        onFailure(error);
        return { rows: rowsPerMinute, retryAfterSeconds: 60 };
      }
    },
    async take(subject, rows) {
      try {
        await ready();
        await limiter.consume(subject, rows);
        return rows;
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) {
          onFailure(refusal);
          return rows;
        }
        // The count went past the budget by `over`: keep only the rows that fit, give the rest back.
        const over = refusal.consumedPoints - rowsPerMinute;
        const granted = Math.max(0, rows - over);
        await limiter.reward(subject, rows - granted).catch(onFailure);
        return granted;
      }
    },
    async giveBack(subject, rows) {
      try {
        await limiter.reward(subject, rows);
      } catch (error) {
        onFailure(error);
      }
    },
  };
}
