import { storage } from 'wxt/utils/storage';
import type { SyncLimit } from './sync-limits.js';

/** What the last pull left behind, kept in `storage.local` for the next pull and for the pages. */
export interface SyncStatus {
  /** The server these fields are about; another server starts over. */
  server: string;
  /**
   * The last characters of the key the pull used (the key itself sits next to it in the same
   * storage): another key may be another owner, whose links the old `since` would skip.
   */
  keyTail?: string;
  /** The server's `updated_at` of the newest change seen: the next pull's `changed_since`. */
  since?: string;
  /** The server refused the key (401): wrong or revoked. Options and popup say so. */
  keyRefused?: boolean;
  /** Why the last pull failed, if it did (the server unreachable, an error it answered). */
  error?: string;
  /** Listed links the last pull left out: they broke a rule of the server's own (logged, each with why). */
  refusedItems?: number;
  /** The bound the server went past in the last pull (sync-limits.ts): options and popup say so. */
  limit?: SyncLimit;
  /** When the last pull finished (this browser's clock). */
  pulledAt?: number;
}

export const syncStatusItem = storage.defineItem<SyncStatus | null>('local:syncStatus', { fallback: null });

/** What identifies a key in the status. */
export const keyTailOf = (apiKey: string) => apiKey.slice(-8);

/**
 * The status for `server` and `apiKey` (any key when not given), or a fresh one when the last
 * pull was for another server or key.
 */
export async function syncStatusFor(server: string, apiKey?: string): Promise<SyncStatus> {
  const status = await syncStatusItem.getValue();
  const sameKey = apiKey === undefined || status?.keyTail === keyTailOf(apiKey);
  return status?.server === server && sameKey ? status : { server, keyTail: apiKey && keyTailOf(apiKey) };
}
