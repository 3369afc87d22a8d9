import { ApiError } from '../../client/api-errors.js';
import { callLinklet } from '../../client/call-linklet.js';
import { MAX_MESSAGE_LENGTH } from '../../client/envelope.js';
import type { FetchLike } from '../../client/fetch-like.js';
import { LinkletError } from '../../core/http/errors.js';
import type { ExpireDuration } from '../../core/rules/expiry.js';
import { type ApiLink, readApiLink } from './reply-checks.js';

export interface ShortenInput {
  url: string;
  /** Absent or '' lets the backend generate one. */
  code?: string;
  expire: ExpireDuration;
}

export interface RequestOptions {
  /** Short URLs must lie under this base; the request's `base` when not given. */
  shortUrlBase?: string;
  timeoutMs?: number;
  /** An owner's API key: the server then records the link as theirs, so it syncs to their other browsers. */
  apiKey?: string;
}

/**
 * Calls `POST {base}/api/v1/shorten`, the same request for the bundled backend and a companion
 * server. Resolves with the link, or rejects with `ApiError` (the backend said no, or its answer
 * broke a rule: see `readApiLink`) or `UnreachableError` (nobody answered in time).
 */
export async function shortenVia(
  fetchLike: FetchLike,
  base: string,
  input: ShortenInput,
  { shortUrlBase = base, timeoutMs, apiKey }: RequestOptions = {},
): Promise<ApiLink> {
  const reply = await callLinklet({ base, fetch: fetchLike, timeoutMs, apiKey }, 'api/v1/shorten', {
    method: 'POST',
    body: { original_url: input.url, custom_code: input.code || undefined, expire_duration: input.expire },
  });
  // A create answers 201 with the link; anything else is no link, whatever the envelope says.
  if (reply.status !== 201 || !reply.data) {
    throw new ApiError(
      reply.status,
      reply.message.slice(0, MAX_MESSAGE_LENGTH) || `The server answered ${reply.status}.`,
    );
  }
  try {
    return readApiLink(reply.data, { url: input.url, code: input.code, shortUrlBase });
  } catch (error) {
    if (error instanceof LinkletError) throw new ApiError(reply.status, error.message);
    throw error;
  }
}
