import { LinkletError } from '../../core/http/errors.js';
import { LINK_MANAGEMENT_OPERATIONS } from '../../core/store/link-management-store.js';
import type { LinkStore } from '../../core/store/link-store.js';
import { WEBHOOK_OPERATIONS } from '../../core/webhooks/webhook-store.js';

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
export function withFaultsAsUnavailable<S extends LinkStore>(
  store: S,
  faultOf: (error: unknown) => StoreFault | undefined,
): S {
  const asUnavailable = (error: unknown): never => {
    const fault = faultOf(error);
    if (fault === undefined) throw error;
    throw new LinkletError('unavailable', fault.message, { cause: error, retryAfterSeconds: fault.retryAfterSeconds });
  };
  const wrapped: Record<string, unknown> = {
    create: (link: Parameters<LinkStore['create']>[0], now: number) => store.create(link, now).catch(asUnavailable),
    findByCodeKey: (codeKey: string) => store.findByCodeKey(codeKey).catch(asUnavailable),
    ping: () => store.ping(),
    close: () => store.close(),
  };
  const { lookup, recentActiveLinks } = store;
  if (recentActiveLinks) {
    wrapped.recentActiveLinks = (...args: Parameters<typeof recentActiveLinks>) =>
      recentActiveLinks.apply(store, args).catch(asUnavailable);
  }
  if (lookup) {
    // A synchronous answer stays synchronous (no promise on a redirect's path); a failure, thrown
    // or rejected, becomes a rejection like `findByCodeKey`'s, which the redirect path handles.
    wrapped.lookup = (codeKey: string) => {
      try {
        const found = lookup.call(store, codeKey);
        return found instanceof Promise ? found.catch(asUnavailable) : found;
      } catch (error) {
        return Promise.reject(error).catch(asUnavailable);
      }
    };
  }
  // The management and webhook operations (when the store has them) fail the same way; the change feed passes as is.
  const operations = store as unknown as Record<string, ((...args: unknown[]) => Promise<unknown>) | undefined>;
  for (const name of [...LINK_MANAGEMENT_OPERATIONS, ...WEBHOOK_OPERATIONS]) {
    const operation = operations[name];
    if (operation) wrapped[name] = (...args: unknown[]) => operation(...args).catch(asUnavailable);
  }
  if ('changes' in store) wrapped.changes = store.changes;
  return wrapped as unknown as S;
}
