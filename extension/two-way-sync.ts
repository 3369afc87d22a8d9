import { ApiError } from './api-client.js';
import type { History } from './history.js';
import { fetchChanges, type MergeReport, mergeChanges } from './pull-links.js';
import { pushQueuedChanges } from './queued-changes.js';
import type { ServerAccess } from './server-api.js';
import { syncStatusFor, syncStatusItem } from './sync-status.js';

/** What the key's half of a sync did, added to the push's report. */
export interface TwoWayReport {
  pulled?: MergeReport;
  /** Disable, Enable or Delete still waiting for the server. */
  changesWaiting?: number;
  /** The server refused the key (401): wrong or revoked. */
  keyRefused?: boolean;
  /** Why the changes could not be sent or pulled. */
  pullError?: string;
}

/**
 * With an API key: sends the changes queued here, then pulls what changed on the server since the
 * last pull and merges it (see `mergeChanges`), so the queued changes are on the server before its
 * state overwrites the history. The outcome is kept (`syncStatusItem`) for the next pull's
 * `changed_since` and for the options page, which tells the user about a refused key.
 */
export async function pushAndPull(access: ServerAccess, history: History, now: number): Promise<TwoWayReport> {
  const status = await syncStatusFor(access.server, access.apiKey);
  let waiting: number | undefined;
  try {
    ({ waiting } = await pushQueuedChanges(access, history));
    const pulled = await fetchChanges(access, status.since, now);
    const merged = await mergeChanges(history, access.server, pulled.changes);
    await syncStatusItem.setValue({
      server: access.server,
      keyTail: status.keyTail,
      since: pulled.since,
      pulledAt: now,
    });
    return { pulled: merged, changesWaiting: waiting };
  } catch (error) {
    const keyRefused = error instanceof ApiError && error.status === 401;
    const message = error instanceof Error ? error.message : String(error);
    await syncStatusItem.setValue({ ...status, keyRefused, error: message });
    return { keyRefused, pullError: message, ...(waiting !== undefined && { changesWaiting: waiting }) };
  }
}
