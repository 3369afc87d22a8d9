import { codeKey } from '../core/code.js';
import type { History } from './history.js';
import type { HistoryEntry } from './history-entry.js';
import { nearestExpire, type RemoteChange, type RemoteLink, readRemoteChange } from './remote-link.js';
import { callServer, type ServerAccess } from './server-api.js';

/**
 * The server remembers deletions for 30 days; a `changed_since` older than that is refused, so a
 * browser that last pulled longer ago (a day of margin for clocks) lists every link again.
 */
const CHANGES_REACH_MS = 29 * 86_400_000;
const PAGE_SIZE = 100;
/** A server that keeps handing out cursors cannot keep the sync busy forever: 100,000 links. */
const MAX_PAGES = 1000;

export interface PulledChanges {
  changes: RemoteChange[];
  /** The newest `updated_at` seen, as the server wrote it: the next pull's `changed_since`. */
  since: string | undefined;
}

/**
 * Every change since `since` (every link, without it or when it is too old), following
 * `next_cursor` to the last page. Rejects as `callServer` does (a 401 for a refused key).
 */
export async function fetchChanges(
  access: ServerAccess,
  since: string | undefined,
  now: number,
): Promise<PulledChanges> {
  const fromChanges = since !== undefined && Date.parse(since) > now - CHANGES_REACH_MS;
  const changes: RemoteChange[] = [];
  let newest = fromChanges ? since : undefined;
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (fromChanges) query.set('changed_since', since);
    if (cursor) query.set('cursor', cursor);
    const data = (await callServer(access, `/api/v1/links?${query}`)) as { links?: unknown; next_cursor?: unknown };
    const items = Array.isArray(data?.links) ? data.links : [];
    for (const item of items) {
      const change = readRemoteChange(item, access.server);
      if (!change) continue;
      changes.push(change);
      const stamp = (item as { updated_at: string }).updated_at;
      if (newest === undefined || change.updatedAt > Date.parse(newest)) newest = stamp;
    }
    cursor = typeof data?.next_cursor === 'string' && data.next_cursor !== '' ? data.next_cursor : undefined;
    if (!cursor) break;
  }
  return { changes, since: newest };
}

export interface MergeReport {
  added: number;
  updated: number;
  removed: number;
}

/**
 * Merges the server's changes into the history of `server`'s links:
 * - a link the history lacks is added, marked as from the server;
 * - a link it has takes the server's target, status, expiry and clicks (the server wins); a
 *   Disable, Enable or Delete queued here stays queued, to be replayed on top by the next push;
 * - a link still waiting to be created here whose code the server now holds for the same URL was
 *   created after all (its answer was lost): it becomes synced;
 * - a deletion removes the synced link; a link still waiting for its create stays.
 */
export async function mergeChanges(
  history: History,
  server: string,
  changes: RemoteChange[],
  newId: () => string = () => crypto.randomUUID(),
): Promise<MergeReport> {
  const report: MergeReport = { added: 0, updated: 0, removed: 0 };
  const byCode = await entriesByCode(history, server);
  for (const change of changes) {
    const key = codeKey(change.code);
    const known = byCode.get(key);
    if (change.kind === 'deleted') {
      if (known && known.status === 'synced') {
        await history.remove(known.id);
        byCode.delete(key);
        report.removed++;
      }
      continue;
    }
    if (!known) {
      const added = fromServer(change, server, newId());
      await history.put(added);
      byCode.set(key, added);
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
 * The history's links on `server` by code key. Two entries for one code (a pull that raced with
 * the create that made it) are one link: the one made here stays, the pulled copy goes.
 */
async function entriesByCode(history: History, server: string): Promise<Map<string, HistoryEntry>> {
  const byCode = new Map<string, HistoryEntry>();
  for (const entry of await history.list()) {
    if (entry.server !== server || entry.code === '') continue;
    const key = codeKey(entry.code);
    const other = byCode.get(key);
    if (other && entry.fromServer && !other.fromServer) {
      await history.remove(entry.id);
      continue;
    }
    if (other?.fromServer && !entry.fromServer) await history.remove(other.id);
    byCode.set(key, entry);
  }
  return byCode;
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
  };
}

function withServerState(entry: HistoryEntry, link: RemoteLink): HistoryEntry {
  const { nextAttemptAt: _next, message: _message, ...rest } = entry;
  const settled = entry.status === 'synced' ? entry : { ...rest, status: 'synced' as const, attempts: 0 };
  return {
    ...settled,
    code: link.code,
    shortUrl: link.shortUrl,
    originalUrl: link.originalUrl,
    expiresAt: link.expiresAt,
    clicks: link.clicks,
    disabled: link.disabled,
  };
}

function sameState(a: HistoryEntry, b: HistoryEntry): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
