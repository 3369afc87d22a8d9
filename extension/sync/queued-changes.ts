import { ApiError } from '../../client/api-errors.js';
import { linkPath } from '../../client/link-path.js';
import type { History } from '../history/history.js';
import type { HistoryEntry } from '../history/history-entry.js';
import { callServer, type ServerAccess } from '../server/server-client.js';

export interface ChangesReport {
  /** Changes the server took (or that no longer apply: the link was gone or expired). */
  sent: number;
  /** Changes still waiting: the server could not be reached, or refused the key. */
  waiting: number;
}

/**
 * Sends the Disable, Enable and Delete the user made here on `access.server`'s links, oldest link
 * first. A Delete of a link the server no longer has is done; a change the server refuses (an
 * expired link, one made before the key) is dropped and the link says why. When the server cannot be reached (or refuses the key) every remaining change waits
 * for the next sync, shown as waiting; a 401 rejects, so the caller can tell the user.
 */
export async function pushQueuedChanges(access: ServerAccess, history: History): Promise<ChangesReport> {
  const report: ChangesReport = { sent: 0, waiting: 0 };
  const queued = (await history.list()).filter((entry) => entry.queued && entry.server === access.server).reverse();
  let stopped: unknown;
  for (const entry of queued) {
    if (stopped !== undefined) {
      report.waiting++;
      continue;
    }
    try {
      await send(access, history, entry);
      report.sent++;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) throw error;
      stopped = error;
      report.waiting++;
      await history.put({ ...entry, message: (error as Error).message });
    }
  }
  return report;
}

async function send(access: ServerAccess, history: History, entry: HistoryEntry): Promise<void> {
  const { queued: change, message: _message, ...rest } = entry;
  try {
    if (change === 'delete') {
      await callServer(access, linkPath(entry.code), { method: 'DELETE' });
      await history.remove(entry.id);
      return;
    }
    const disabled = change === 'disable';
    await callServer(access, linkPath(entry.code), { method: 'PATCH', body: { disabled } });
    await history.put({ ...rest, disabled });
  } catch (error) {
    if (!(error instanceof ApiError) || error.retryable || error.status === 401) throw error;
    // A Delete the server cannot find (deleted elsewhere, or made before the key and so no
    // owner's) is done as far as this history goes.
    if (change === 'delete' && error.status === 404) await history.remove(entry.id);
    // Otherwise (410 expired, 404 not this owner's…) the change cannot happen; the server's words say why.
    else await history.put({ ...rest, message: error.message });
  }
}

/**
 * The entry with `change` queued on top of what the server last said. Queuing the state the
 * server already has cancels an earlier queued change instead (Disable then Enable while offline
 * sends nothing).
 */
export function queueChange(entry: HistoryEntry, change: HistoryEntry['queued']): HistoryEntry {
  const { queued: _queued, message: _message, ...rest } = entry;
  if (change === 'enable' && !entry.disabled) return rest;
  if (change === 'disable' && entry.disabled) return rest;
  return { ...rest, queued: change };
}
