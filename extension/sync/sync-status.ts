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
  /**
   * When the key was refused (this browser's clock): a pull begun before then may still succeed,
   * and must not clear the refusal (see `keepRefusal`).
   */
  refusedAt?: number;
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

/** The status writes of this context, one after another (see `updateSyncStatus`). */
let writing: Promise<unknown> = Promise.resolve();

/**
 * Writes the status for `server` and `apiKey` as `change` makes it from the latest one. Writes go
 * one at a time and each reads what the last one left: a sync and a refused shorten both write
 * it, and a write from a stale read would undo the other's.
 */
export function updateSyncStatus(
  server: string,
  apiKey: string,
  change: (status: SyncStatus) => SyncStatus,
): Promise<void> {
  const next = writing.then(async () => {
    await syncStatusItem.setValue(change(await syncStatusFor(server, apiKey)));
  });
  writing = next.catch(() => undefined);
  return next;
}

/**
 * The fields a successful pull begun at `startedAt` keeps from `latest`: a refusal that came
 * after that pull began (its requests may have gone before the key was revoked) still stands, so
 * the options page keeps saying it until a pull begun later succeeds or the key changes.
 */
export function keepRefusal(latest: SyncStatus, startedAt: number): Partial<SyncStatus> {
  if (!latest.keyRefused || latest.refusedAt === undefined || latest.refusedAt < startedAt) return {};
  return { keyRefused: true, refusedAt: latest.refusedAt, error: latest.error };
}

/**
 * Records a refusal of the key met outside a sync (a shorten's 401), so the options page says it
 * at once, as the popup does, and not only after the next sync.
 */
export function recordKeyRefused(server: string, apiKey: string, message: string, at: number): Promise<void> {
  return updateSyncStatus(server, apiKey, (status) => ({ ...status, keyRefused: true, refusedAt: at, error: message }));
}
