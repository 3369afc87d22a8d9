import {
  ApiError,
  type FetchLike,
  keyHeaders,
  MAX_MESSAGE_LENGTH,
  REQUEST_TIMEOUT_MS,
  readEnvelope,
  UnreachableError,
} from './shorten-via.js';
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
 * One request to the owners and links API with the key: resolves with the success envelope's
 * `data`, or rejects with `ApiError` (the server said no: 401 for a wrong or revoked key) or
 * `UnreachableError` (nobody answered in time), as `shortenVia` does for creates, or
 * `SyncLimitError` (an answer over `maxBytes`).
 */
export async function callServer(
  access: ServerAccess,
  path: string,
  {
    method = 'GET',
    body,
    raw,
    maxBytes,
  }: {
    method?: string;
    body?: unknown;
    /** A body sent as it is (a file), with its content type, instead of `body` as JSON. */
    raw?: { text: string; contentType: string };
    /** A larger answer rejects with `SyncLimitError` (see `readBoundedText`). */
    maxBytes?: number;
  } = {},
): Promise<unknown> {
  const signal = AbortSignal.timeout(access.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const headers: Record<string, string> = { Accept: 'application/json', ...keyHeaders(access.apiKey) };
  if (raw !== undefined) headers['Content-Type'] = raw.contentType;
  else if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  let envelope: Awaited<ReturnType<typeof readEnvelope>>;
  try {
    response = await (access.fetch ?? fetch)(`${access.server}${path}`, {
      method,
      headers,
      body: raw !== undefined ? raw.text : body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
    envelope = await readEnvelope(response, signal, maxBytes);
  } catch (error) {
    if (error instanceof SyncLimitError) throw error;
    throw new UnreachableError(access.server, signal.aborted ? signal.reason : error);
  }
  if (!response.ok || envelope.status !== 'success') {
    const message = typeof envelope.message === 'string' ? envelope.message.slice(0, MAX_MESSAGE_LENGTH) : undefined;
    throw new ApiError(response.status, message ?? `The server answered ${response.status}.`);
  }
  return envelope.data;
}

/** The path of one link on the links API: its code percent-encoded, as the server matches it. */
export function linkPath(code: string): string {
  return `/api/v1/links/${encodeURIComponent(code)}`;
}

/**
 * Who the key belongs to (`GET /api/v1/me`): what "Test connection" tells the user, so a key
 * pasted from the wrong account is noticed before any link goes there.
 */
export async function whoAmI(access: ServerAccess): Promise<{ name: string; admin: boolean }> {
  const data = (await callServer(access, '/api/v1/me')) as { name?: unknown; admin?: unknown } | null;
  if (typeof data?.name !== 'string') {
    throw new ApiError(200, 'The server answered without an owner name; is this a Linklet server?');
  }
  return { name: data.name.slice(0, 200), admin: data.admin === true };
}
