import { ApiError } from '../../client/api-errors.js';
import type { FetchLike } from '../../client/fetch-like.js';
import type { History } from '../history/history.js';
import type { HistoryEntry } from '../history/history-entry.js';
import { serverShortUrl } from '../server/server-target.js';
import { shortenVia } from '../server/shorten-via.js';
import { ownLinkOnServer } from './own-link-on-server.js';
import type { TwoWayReport } from './two-way-sync.js';

const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 60 * 60_000;

/** 30 s after the first failure, doubling up to an hour: a server that is down for long is not hammered. */
export function backoffDelay(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

export interface SyncReport extends TwoWayReport {
  synced: number;
  pending: number;
  conflicts: number;
  failed: number;
}

export interface SyncDeps {
  history: History;
  /** The configured companion server ('' in local mode): the only one links are pushed to. */
  server: string;
  serverFetch?: FetchLike;
  /** The owner's API key ('' for none): pushed links then belong to the owner. */
  apiKey?: string;
  /** How long one request may take (`REQUEST_TIMEOUT_MS` when not given). */
  timeoutMs?: number;
  now?: () => number;
}

/**
 * Pushes pending links to the configured server, oldest first, each with its code. Due entries
 * only, unless `force` (the user asked). A 409 on a code the user chose becomes a `conflict`
 * (unless the code is the owner's own identical link there: then it is synced, `ownLinkOnServer`); on
 * a generated code the server is asked for a fresh one. When the server cannot be reached, every
 * remaining entry waits for the next attempt. Entries bound to another server (the setting
 * changed since) are left alone: a link goes only where the user points the extension now, and
 * Retry re-binds one (see `rebind`).
 */
export async function syncPending(deps: SyncDeps, { force = false } = {}): Promise<SyncReport> {
  const now = deps.now ?? Date.now;
  const report: SyncReport = { synced: 0, pending: 0, conflicts: 0, failed: 0 };
  let downMessage: string | undefined;
  for (const entry of await deps.history.pending()) {
    if (deps.server === '' || entry.server !== deps.server) continue;
    if (!force && (entry.nextAttemptAt ?? 0) > now()) {
      report.pending++;
      continue;
    }
    // The server just failed another entry: count this one's attempt without another request.
    if (downMessage !== undefined) {
      await deps.history.put(postponed(entry, downMessage, now()));
      report.pending++;
      continue;
    }
    const transport = { fetch: deps.serverFetch ?? fetch, timeoutMs: deps.timeoutMs, apiKey: deps.apiKey };
    const next = await push(entry, transport, now());
    if (next.status === 'pending') downMessage = next.message ?? '';
    await deps.history.put(next);
    report[
      next.status === 'synced'
        ? 'synced'
        : next.status === 'conflict'
          ? 'conflicts'
          : next.status === 'failed'
            ? 'failed'
            : 'pending'
    ]++;
  }
  return report;
}

async function push(
  entry: HistoryEntry,
  transport: { fetch: FetchLike; timeoutMs: number | undefined; apiKey: string | undefined },
  now: number,
): Promise<HistoryEntry> {
  const server = entry.server as string;
  const input = { url: entry.originalUrl, code: entry.code, expire: entry.expire };
  try {
    return synced(
      entry,
      await shortenVia(transport.fetch, server, input, {
        timeoutMs: transport.timeoutMs,
        apiKey: transport.apiKey,
      }),
    );
  } catch (error) {
    if (error instanceof ApiError && error.status === 409 && !entry.customCode) {
      // The server holds this code for another link, so its short URL is no longer this link's.
      return push({ ...entry, code: '', shortUrl: '' }, transport, now);
    }
    if (error instanceof ApiError && error.status === 409) {
      const access = { ...transport, server, apiKey: transport.apiKey ?? '' };
      const own = await ownLinkOnServer(entry, access, now);
      return own ? synced(entry, own) : { ...entry, status: 'conflict', message: error.message };
    }
    if (error instanceof ApiError && !error.retryable) return { ...entry, status: 'failed', message: error.message };
    return postponed(entry, (error as Error).message, now);
  }
}

function synced(entry: HistoryEntry, link: { shortUrl: string; code: string; expiresAt: number }): HistoryEntry {
  const { nextAttemptAt: _next, message: _message, ...rest } = entry;
  return {
    ...rest,
    status: 'synced',
    shortUrl: link.shortUrl,
    code: link.code,
    expiresAt: link.expiresAt,
    attempts: 0,
  };
}

function postponed(entry: HistoryEntry, message: string, now: number): HistoryEntry {
  const attempts = entry.attempts + 1;
  return { ...entry, status: 'pending', attempts, nextAttemptAt: now + backoffDelay(attempts), message };
}

/**
 * A link waiting (or refused) on one server, bound to `server` instead: the same code and a due
 * push, its short URL the one it will have there. What Retry does for a link made for a server
 * the user no longer uses, and what an import does with another browser's pending links.
 */
export function rebind(entry: HistoryEntry, server: string, now: number): HistoryEntry {
  return { ...entry, server, shortUrl: serverShortUrl(server, entry.code), status: 'pending', nextAttemptAt: now };
}

/** Earliest moment a pending entry for `server` is due, for the alarm; undefined when nothing waits. */
export async function nextSyncAt(history: History, server: string): Promise<number | undefined> {
  const waiting = (await history.pending()).filter((entry) => server !== '' && entry.server === server);
  const due = waiting.map((entry) => entry.nextAttemptAt ?? 0);
  return due.length === 0 ? undefined : Math.min(...due);
}

/**
 * Marks every active local link as pending for `server`, keeping its code, and returns how many.
 * The sync then uploads them; a code taken there becomes a conflict (or a fresh code when the
 * user never chose it).
 */
export async function queueLocalLinks(history: History, server: string, now: number): Promise<number> {
  let queued = 0;
  for (const entry of await history.list()) {
    if (entry.status !== 'local' || entry.expiresAt <= now) continue;
    await history.put({
      ...entry,
      status: 'pending',
      server,
      shortUrl: serverShortUrl(server, entry.code),
      attempts: 0,
      nextAttemptAt: now,
    });
    queued++;
  }
  return queued;
}
