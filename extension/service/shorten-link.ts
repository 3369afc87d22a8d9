import { ApiError, UnreachableError } from '../../client/api-errors.js';
import type { FetchLike } from '../../client/fetch-like.js';
import { openPageBase } from '../backend/local-backend.js';
import type { History } from '../history/history.js';
import type { HistoryEntry } from '../history/history-entry.js';
import { serverShortUrl } from '../server/server-target.js';
import { type ShortenInput, shortenVia } from '../server/shorten-via.js';
import type { Settings } from '../settings.js';
import { backoffDelay } from '../sync/push-pending.js';

export interface ShortenDeps {
  settings: Settings;
  history: History;
  /** Reaches the bundled backend at `localBase`. */
  localFetch: FetchLike;
  localBase: string;
  serverFetch?: FetchLike;
  /** How long the server may take to answer (`REQUEST_TIMEOUT_MS` when not given). */
  timeoutMs?: number;
  now?: () => number;
  newId?: () => string;
}

/**
 * Makes a short link and records it in the history, in whichever mode the settings choose:
 * - no server: the bundled backend makes a local link;
 * - server reachable: the server makes it (`synced`);
 * - server unreachable or failing: the bundled backend checks the input and reserves a code, and
 *   the link waits as `pending` for the sync to push it with that code.
 * Refused input (400, 409, 413…) rejects with the backend's `ApiError`, so the user sees its message.
 *
 * With `reuse`, an active link already made for the same URL in the same mode is returned instead
 * of a new one: opening the popup twice on one page gives one link.
 */
export async function shortenLink(input: ShortenInput, deps: ShortenDeps, reuse = false): Promise<HistoryEntry> {
  const now = deps.now ?? Date.now;
  const server = deps.settings.serverUrl || null;
  if (reuse && !input.code) {
    const existing = await findReusable(deps.history, input.url, server, now());
    if (existing) return existing;
  }
  const base = {
    id: (deps.newId ?? (() => crypto.randomUUID()))(),
    customCode: Boolean(input.code),
    server,
    expire: input.expire,
    createdAt: now(),
    attempts: 0,
  };
  let entry: HistoryEntry;
  const local = () => shortenVia(deps.localFetch, deps.localBase, input, { shortUrlBase: openPageBase() });
  if (server === null) {
    entry = { ...base, ...linkFields(await local()), status: 'local' };
  } else {
    try {
      const link = await shortenVia(deps.serverFetch ?? fetch, server, input, {
        timeoutMs: deps.timeoutMs,
        apiKey: deps.settings.apiKey,
      });
      entry = { ...base, ...linkFields(link), status: 'synced' };
    } catch (error) {
      if (!(error instanceof UnreachableError || (error instanceof ApiError && error.retryable))) throw error;
      const link = await local();
      entry = {
        ...base,
        ...linkFields(link),
        shortUrl: serverShortUrl(server, link.code),
        status: 'pending',
        attempts: 1,
        nextAttemptAt: base.createdAt + backoffDelay(1),
        message: error.message,
      };
    }
  }
  await deps.history.put(entry);
  return entry;
}

function linkFields(link: { shortUrl: string; originalUrl: string; code: string; expiresAt: number }) {
  return { shortUrl: link.shortUrl, originalUrl: link.originalUrl, code: link.code, expiresAt: link.expiresAt };
}

async function findReusable(history: History, url: string, server: string | null, now: number) {
  const candidates = await history.list({ query: url, limit: 50 });
  return candidates.find(
    (entry) =>
      entry.originalUrl === url &&
      entry.server === server &&
      !entry.customCode &&
      (entry.status === 'local' || entry.status === 'synced' || entry.status === 'pending') &&
      entry.expiresAt > now,
  );
}
