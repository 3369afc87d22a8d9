import type { FetchLike } from '../../client/fetch-like.js';
import type { HistoryEntry } from '../history/history-entry.js';
import { readRemoteChange } from '../server/remote-link.js';
import { callServer } from '../server/server-client.js';

/**
 * The link the key's owner already has on `server` with the entry's code and target, if any:
 * what a push that the server answered "code taken" (409) finds when the taker is the owner's own
 * identical link (uploaded before, imported from a file, made on another device). That link is
 * this one, already there, not a conflict for the user to resolve. `GET /api/v1/links/{code}`
 * answers only within the key's scope, so a link of someone else is never taken for the user's.
 */
export async function ownLinkOnServer(
  entry: HistoryEntry,
  access: { server: string; apiKey: string; fetch: FetchLike; timeoutMs: number | undefined },
  now: number,
): Promise<{ shortUrl: string; code: string; expiresAt: number } | undefined> {
  if (access.apiKey === '' || entry.code === '') return undefined;
  try {
    const item = await callServer(access, `api/v1/links/${encodeURIComponent(entry.code)}`);
    const { change } = readRemoteChange(item, access.server, now);
    if (change?.kind !== 'link' || change.originalUrl !== entry.originalUrl) return undefined;
    return change.expiresAt > now ? change : undefined;
  } catch {
    // Not the owner's, or the question failed: the 409 stands, as it did before asking.
    return undefined;
  }
}
