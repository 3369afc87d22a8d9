import { ApiError } from '../../client/api-errors.js';
import type { History } from '../history/history.js';
import type { ServerAccess } from '../server/server-client.js';
import { fetchChanges } from './fetch-changes.js';
import { type MergeReport, mergeChanges } from './pull-links.js';
import { pushQueuedChanges } from './queued-changes.js';
import { logSyncProblem, MAX_HISTORY_LINKS, type SyncLimit, SyncLimitError } from './sync-limits.js';
import { keepRefusal, syncStatusFor, updateSyncStatus } from './sync-status.js';

/** What the key's half of a sync did, added to the push's report. */
export interface TwoWayReport {
  pulled?: MergeReport;
  /** Disable, Enable or Delete still waiting for the server. */
  changesWaiting?: number;
  /** The server refused the key (401): wrong or revoked. */
  keyRefused?: boolean;
  /** Why the changes could not be sent or pulled. */
  pullError?: string;
  /** Listed links left out for breaking a rule of the server's own (each logged with why). */
  refusedItems?: number;
  /** The server went past a bound of the pull (see `sync-limits.ts`). */
  limit?: SyncLimit;
}

/**
 * With an API key: sends the changes queued here, then pulls what changed on the server since the
 * last pull and merges it (see `mergeChanges`), so the queued changes are on the server before its
 * state overwrites the history. The outcome is kept (`syncStatusItem`) for the next pull's
 * `changed_since` and for the options page, which tells the user about a refused key, links left
 * out and a server that went past a bound (also logged, with the reason).
 */
export async function pushAndPull(
  access: ServerAccess,
  history: History,
  now: number,
  { maxLinks = MAX_HISTORY_LINKS } = {},
): Promise<TwoWayReport> {
  const status = await syncStatusFor(access.server, access.apiKey);
  let waiting: number | undefined;
  try {
    ({ waiting } = await pushQueuedChanges(access, history));
    const pulled = await fetchChanges(access, status.since, now, maxLinks);
    const merged = await mergeChanges(history, access.server, pulled.changes, undefined, maxLinks);
    const limit = pulled.limit ?? (merged.notAdded ? { kind: 'history' as const, bound: maxLinks } : undefined);
    if (limit) {
      const left = merged.notAdded ? `${merged.notAdded} listed links were not added` : 'the rest was not asked for';
      logSyncProblem(access.server, `the history holds at most ${maxLinks} links; ${left}.`);
    }
    const refused = pulled.refused > 0 ? pulled.refused : undefined;
    await updateSyncStatus(access.server, access.apiKey, (latest) => ({
      server: access.server,
      keyTail: status.keyTail,
      // Links the history could not take come with the next pull that has room for them.
      since: limit ? pulled.from : pulled.since,
      pulledAt: now,
      refusedItems: refused,
      limit,
      ...keepRefusal(latest, now),
    }));
    return { pulled: merged, changesWaiting: waiting, refusedItems: refused, limit };
  } catch (error) {
    const keyRefused = error instanceof ApiError && error.status === 401;
    const limit = error instanceof SyncLimitError ? error.limit : undefined;
    const message = error instanceof Error ? error.message : String(error);
    if (limit) logSyncProblem(access.server, message);
    // A refused key stays refused through a failure of another kind (the server unreachable):
    // only a pull that succeeds with the key, or another key, says otherwise.
    await updateSyncStatus(access.server, access.apiKey, (latest) => ({
      ...latest,
      keyRefused: keyRefused || latest.keyRefused,
      refusedAt: keyRefused ? Math.max(now, latest.refusedAt ?? now) : latest.refusedAt,
      error: message,
      limit,
      refusedItems: undefined,
    }));
    return {
      keyRefused,
      pullError: message,
      limit,
      ...(waiting !== undefined && { changesWaiting: waiting }),
    };
  }
}
