import { LinkletError } from '../../core/errors.js';
import type { LinkStore } from '../../core/link-store.js';

/** What a client is told, and when to try again, for a store failure that should pass. */
export interface StoreFault {
  message: string;
  retryAfterSeconds: number;
}

/**
 * A store whose passing failures (those `faultOf` recognizes: a lock, a full disk, a database
 * out of reach) are answered as 503 with `Retry-After` and logged with their cause, never as a
 * 500. Nothing is lost by it: a create that fails was never acknowledged to its client.
 */
export function withFaultsAsUnavailable(
  store: LinkStore,
  faultOf: (error: unknown) => StoreFault | undefined,
): LinkStore {
  const asUnavailable = (error: unknown): never => {
    const fault = faultOf(error);
    if (fault === undefined) throw error;
    throw new LinkletError('unavailable', fault.message, { cause: error, retryAfterSeconds: fault.retryAfterSeconds });
  };
  return {
    create: (link, now) => store.create(link, now).catch(asUnavailable),
    findByCodeKey: (codeKey) => store.findByCodeKey(codeKey).catch(asUnavailable),
    ping: () => store.ping(),
    close: () => store.close(),
  };
}
