import { type RemoteChange, readRemoteChange } from '../server/remote-link.js';
import { describe } from '../server/reply-checks.js';
import { callServer, type ServerAccess } from '../server/server-client.js';
import {
  CLOCK_SKEW_MS,
  logSyncProblem,
  MAX_ANSWER_BYTES,
  MAX_HISTORY_LINKS,
  MAX_PAGE_ITEMS,
  MAX_PAGES,
  type SyncLimit,
  SyncLimitError,
} from './sync-limits.js';

/**
 * The server remembers deletions for 30 days; a `changed_since` older than that is refused, so a
 * browser that last pulled longer ago (a day of margin for clocks) lists every link again.
 */
const CHANGES_REACH_MS = 29 * 86_400_000;

export interface PulledChanges {
  changes: RemoteChange[];
  /** The `changed_since` the pull asked with (undefined: it listed every link). */
  from: string | undefined;
  /** The newest `updated_at` taken, as the server wrote it: the next pull's `changed_since`. */
  since: string | undefined;
  /** Items left out for breaking a rule of the server's (each logged with its reason). */
  refused: number;
  /** The server had more than the history could take: the pull stopped asking. */
  limit?: SyncLimit;
}

/**
 * Every change since `since` (every link, without it, when it is too old, or when it is later
 * than now: a date no server wrote), following `next_cursor` to the last page or to `maxLinks`
 * items. Each item is checked (`readRemoteChange`); one that breaks a rule is logged and left
 * out, and `since` only ever comes from items taken, so it never passes now + the clock skew.
 * Rejects as `callServer` does (a 401 for a refused key), and with `SyncLimitError` for a page
 * over `MAX_PAGE_ITEMS` items or `MAX_ANSWER_BYTES` bytes: no Linklet server sends one.
 */
export async function fetchChanges(
  access: ServerAccess,
  since: string | undefined,
  now: number,
  maxLinks = MAX_HISTORY_LINKS,
): Promise<PulledChanges> {
  const sinceAt = since === undefined ? Number.NaN : Date.parse(since);
  const fromChanges = since !== undefined && sinceAt > now - CHANGES_REACH_MS && sinceAt <= now + CLOCK_SKEW_MS;
  const from = fromChanges ? since : undefined;
  const pulled: PulledChanges = { changes: [], from, since: from, refused: 0 };
  let seen = 0;
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES && seen < maxLinks; page++) {
    const query = new URLSearchParams({ limit: String(MAX_PAGE_ITEMS) });
    if (fromChanges) query.set('changed_since', since);
    if (cursor) query.set('cursor', cursor);
    const data = (await callServer(access, `api/v1/links?${query}`, { maxBytes: MAX_ANSWER_BYTES })) as {
      links?: unknown;
      next_cursor?: unknown;
    } | null;
    const items = Array.isArray(data?.links) ? data.links : [];
    if (items.length > MAX_PAGE_ITEMS) {
      throw new SyncLimitError(
        { kind: 'page-items', bound: MAX_PAGE_ITEMS },
        `The server's answer was refused: it listed ${items.length} links in one page, where a Linklet server lists at most ${MAX_PAGE_ITEMS}. Check the server address in the options.`,
      );
    }
    seen += items.length;
    for (const item of items) take(pulled, item, access.server, now);
    cursor = typeof data?.next_cursor === 'string' && data.next_cursor !== '' ? data.next_cursor : undefined;
    if (!cursor) return pulled;
  }
  pulled.limit = { kind: 'history', bound: maxLinks };
  return pulled;
}

/** Adds the item's change, or logs why it is left out. */
function take(pulled: PulledChanges, item: unknown, server: string, now: number): void {
  const read = readRemoteChange(item, server, now);
  if (read.problem !== undefined) {
    pulled.refused++;
    const code = (item as { code?: unknown } | null)?.code;
    logSyncProblem(server, `left out the listed link ${describe(code)}: ${read.problem}`);
    return;
  }
  pulled.changes.push(read.change);
  const stamp = (item as { updated_at: string }).updated_at;
  if (pulled.since === undefined || read.change.updatedAt > Date.parse(pulled.since)) pulled.since = stamp;
}
