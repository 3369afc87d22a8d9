import { codeKey } from '../../core/rules/code.js';
import type { History } from '../history/history.js';
import type { HistoryEntry } from '../history/history-entry.js';
import { withRemoteLabels } from '../server/remote-labels.js';
import { type RemoteLimits, withRemoteLimits } from '../server/remote-limits.js';
import { nearestExpire, type RemoteChange, type RemoteLink } from '../server/remote-link.js';
import { MAX_HISTORY_LINKS } from './sync-limits.js';

export interface MergeReport {
  added: number;
  updated: number;
  removed: number;
  /** New links left out: the history already held `maxLinks` (only there when some were). */
  notAdded?: number;
}

/**
 * Merges the server's changes into the history of `server`'s links:
 * - a link the history lacks is added, marked as from the server;
 * - a link it has takes the server's target, status, expiry and clicks (the server wins); a
 *   Disable, Enable or Delete queued here stays queued, to be replayed on top by the next push;
 * - a link still waiting to be created here whose code the server now holds for the same URL was
 *   created after all (its answer was lost): it becomes synced;
 * - a deletion removes the synced link; a link still waiting for its create stays;
 * - a link the history lacks is left out once the history holds `maxLinks` (`MAX_HISTORY_LINKS`),
 *   so no server can fill this browser's storage; the ones it has still follow the server.
 */
export async function mergeChanges(
  history: History,
  server: string,
  changes: RemoteChange[],
  newId: () => string = () => crypto.randomUUID(),
  maxLinks = MAX_HISTORY_LINKS,
): Promise<MergeReport> {
  const report: MergeReport = { added: 0, updated: 0, removed: 0 };
  const { byCode, size } = await entriesByCode(history, server);
  let held = size;
  for (const change of changes) {
    const key = codeKey(change.code);
    const known = byCode.get(key);
    if (change.kind === 'deleted') {
      if (known && known.status === 'synced') {
        await history.remove(known.id);
        byCode.delete(key);
        held--;
        report.removed++;
      }
      continue;
    }
    if (!known && held >= maxLinks) {
      report.notAdded = (report.notAdded ?? 0) + 1;
      continue;
    }
    if (!known) {
      const added = fromServer(change, server, newId());
      await history.put(added);
      byCode.set(key, added);
      held++;
      report.added++;
      continue;
    }
    const landed = known.status !== 'synced' && known.originalUrl === change.originalUrl;
    if (known.status !== 'synced' && !landed) continue; // the push will meet the conflict and say so
    const merged = withServerState(known, change);
    if (!sameState(known, merged)) {
      await history.put(merged);
      byCode.set(key, merged);
      report.updated++;
    }
  }
  return report;
}

/**
 * The history's links on `server` by code key, and how many entries the whole history holds. Two
 * entries for one code (a pull that raced with the create that made it) are one link: the one
 * made here stays, the pulled copy goes.
 */
async function entriesByCode(
  history: History,
  server: string,
): Promise<{ byCode: Map<string, HistoryEntry>; size: number }> {
  const byCode = new Map<string, HistoryEntry>();
  const entries = await history.list();
  let size = entries.length;
  for (const entry of entries) {
    if (entry.server !== server || entry.code === '') continue;
    const key = codeKey(entry.code);
    const other = byCode.get(key);
    if (other && entry.fromServer && !other.fromServer) {
      await history.remove(entry.id);
      size--;
      continue;
    }
    if (other?.fromServer && !entry.fromServer) {
      await history.remove(other.id);
      size--;
    }
    byCode.set(key, entry);
  }
  return { byCode, size };
}

function fromServer(link: RemoteLink, server: string, id: string): HistoryEntry {
  return {
    id,
    code: link.code,
    customCode: false,
    originalUrl: link.originalUrl,
    shortUrl: link.shortUrl,
    server,
    status: 'synced',
    expire: nearestExpire(link.createdAt, link.expiresAt),
    createdAt: link.createdAt,
    expiresAt: link.expiresAt,
    attempts: 0,
    fromServer: true,
    clicks: link.clicks,
    disabled: link.disabled,
    ...(link.passwordProtected && { passwordProtected: true as const }),
    ...(link.title !== undefined && { title: link.title }),
    ...(link.tags !== undefined && { tags: link.tags }),
    ...remoteLimitsOf(link),
  };
}

/** The rules and limits the server listed for a link (only those it has). */
function remoteLimitsOf(link: RemoteLink): RemoteLimits {
  return {
    ...(link.hasRules && { hasRules: true as const }),
    ...(link.maxVisits !== undefined && { maxVisits: link.maxVisits }),
    ...(link.validSince !== undefined && { validSince: link.validSince }),
  };
}

function withServerState(entry: HistoryEntry, link: RemoteLink): HistoryEntry {
  const { nextAttemptAt: _next, message: _message, ...rest } = entry;
  const settled = entry.status === 'synced' ? entry : { ...rest, status: 'synced' as const, attempts: 0 };
  const { passwordProtected: _was, ...current } = settled;
  return {
    ...withRemoteLimits(withRemoteLabels(current, { title: link.title, tags: link.tags }), remoteLimitsOf(link)),
    code: link.code,
    shortUrl: link.shortUrl,
    originalUrl: link.originalUrl,
    expiresAt: link.expiresAt,
    clicks: link.clicks,
    disabled: link.disabled,
    ...(link.passwordProtected && { passwordProtected: true as const }),
  };
}

function sameState(a: HistoryEntry, b: HistoryEntry): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
