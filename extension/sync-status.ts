import { storage } from 'wxt/utils/storage';

/** What the last pull left behind, kept in `storage.local` for the next pull and for the pages. */
export interface SyncStatus {
  /** The server these fields are about; another server starts over. */
  server: string;
  /** The server's `updated_at` of the newest change seen: the next pull's `changed_since`. */
  since?: string;
  /** The server refused the key (401): wrong or revoked. Options and popup say so. */
  keyRefused?: boolean;
  /** Why the last pull failed, if it did (the server unreachable, an error it answered). */
  error?: string;
  /** When the last pull finished (this browser's clock). */
  pulledAt?: number;
}

export const syncStatusItem = storage.defineItem<SyncStatus | null>('local:syncStatus', { fallback: null });

/** The status for `server`, or a fresh one when the last pull was for another server. */
export async function syncStatusFor(server: string): Promise<SyncStatus> {
  const status = await syncStatusItem.getValue();
  return status?.server === server ? status : { server };
}
