import { AnswerTooLargeError, ApiError } from '../../client/api-errors.js';
import { type CallOptions, callLinklet } from '../../client/call-linklet.js';
import type { FetchLike } from '../../client/fetch-like.js';
import { SyncLimitError } from '../sync/sync-limits.js';

/** How the extension reaches its companion server's owner endpoints. */
export interface ServerAccess {
  server: string;
  apiKey: string;
  fetch?: FetchLike;
  /** How long one request may take (`REQUEST_TIMEOUT_MS` when not given). */
  timeoutMs?: number;
}

/**
 * One request to the owners and links API with the key (`path` relative, e.g. `api/v1/me`):
 * resolves with the success envelope's `data`, or rejects as `callLinklet` does (`ApiError` 401
 * for a wrong or revoked key), with an answer over `maxBytes` as a `SyncLimitError`, the bound the
 * sync status puts in words.
 */
export async function callServer(access: ServerAccess, path: string, options: CallOptions = {}): Promise<unknown> {
  const target = { base: access.server, apiKey: access.apiKey, fetch: access.fetch, timeoutMs: access.timeoutMs };
  try {
    return (await callLinklet(target, path, options)).data;
  } catch (error) {
    if (error instanceof AnswerTooLargeError) {
      throw new SyncLimitError({ kind: 'answer-bytes', bound: error.maxBytes }, error.message);
    }
    throw error;
  }
}

/**
 * Who the key belongs to (`GET /api/v1/me`): what "Test connection" tells the user, so a key
 * pasted from the wrong account is noticed before any link goes there.
 */
export async function whoAmI(access: ServerAccess): Promise<{ name: string; admin: boolean }> {
  const data = (await callServer(access, 'api/v1/me')) as { name?: unknown; admin?: unknown } | null;
  if (typeof data?.name !== 'string') {
    throw new ApiError(200, 'The server answered without an owner name; is this a Linklet server?');
  }
  return { name: data.name.slice(0, 200), admin: data.admin === true };
}
