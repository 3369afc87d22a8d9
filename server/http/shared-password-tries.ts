import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { PasswordTries } from '../../core/passwords/password-tries.js';

export interface SharedPasswordTriesOptions {
  /** A limiter of `TRIES_PER_MINUTE` points per 60-second window, in Redis. */
  limiter: RateLimiterAbstract;
  /** The Redis key of a (client, link) pair: a keyed hash, never the address itself. */
  keyOf(client: string, codeKey: string): string;
  /** Resolves once Redis may be asked (connecting at start). */
  ready(): Promise<void>;
  /** Told when Redis could not count; the try is then counted in `fallback`. */
  onFailure(error: unknown): void;
  /** This process's own count (`createPasswordTries`), for while Redis is out of reach. */
  fallback: PasswordTries;
}

/**
 * The core's password tries counted in Redis beside the rate limits, so every instance sharing
 * it allows 5 tries a minute per client and link in all, not 5 each. Unlike the request limits
 * it never fails open: while Redis is out of reach a try is counted in this process's memory, so
 * a guesser gets at most 5 a minute per process then, never unlimited scrypt checks.
 */
export function createSharedPasswordTries(options: SharedPasswordTriesOptions): PasswordTries {
  const { limiter, keyOf, ready, onFailure, fallback } = options;
  return {
    async take(client, codeKey, now) {
      try {
        await ready();
        await limiter.consume(keyOf(client, codeKey));
        return undefined;
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
        onFailure(refusal);
        return fallback.take(client, codeKey, now);
      }
    },
  };
}
