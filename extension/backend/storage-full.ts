import { LinkletError } from '../../core/http/errors.js';

/** What the user reads when IndexedDB refuses a write for lack of space. */
export const STORAGE_FULL_MESSAGE =
  'This browser has no storage space left for Linklet: free some disk space or delete old links, then try again.';

/**
 * Runs an IndexedDB write and turns a quota refusal into a `LinkletError` the user can act on
 * (the bundled backend answers it as 503 with this message), instead of a bare DOMException or a
 * generic 500. Other failures pass through unchanged.
 */
export async function orStorageFull<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof DOMException && error.name === 'QuotaExceededError') {
      throw new LinkletError('unavailable', STORAGE_FULL_MESSAGE, { cause: error });
    }
    throw error;
  }
}
