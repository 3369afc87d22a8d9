import { AnswerTooLargeError, UnreachableError } from './api-errors.js';
import { readEnvelope, refusalOf } from './envelope.js';
import type { FetchLike } from './fetch-like.js';

/**
 * How long a request may take, answer body included. A server that accepts the connection and
 * never answers would otherwise leave a page on "Shortening…" and hold up every later sync.
 */
export const REQUEST_TIMEOUT_MS = 15_000;

/** An import reads and creates up to some 80,000 rows on the server: more time than one create. */
export const IMPORT_TIMEOUT_MS = 120_000;

/** Which Linklet server to call, and as whom. */
export interface LinkletTarget {
  /** The server's address without a trailing slash; API paths are appended to it. */
  base: string;
  /** An owner's API key: the server then acts for that owner ('' or absent for none). */
  apiKey?: string;
  fetch?: FetchLike;
  /** How long one request may take (`REQUEST_TIMEOUT_MS` when not given). */
  timeoutMs?: number;
}

export interface CallOptions {
  method?: string;
  /** Sent as JSON. */
  body?: unknown;
  /** A body sent as it is (a file), with its content type, instead of `body` as JSON. */
  raw?: { text: string; contentType: string };
  /** A larger answer rejects with `AnswerTooLargeError` (see `readBoundedText`). */
  maxBytes?: number;
}

/** A success envelope: its `data` as the server sent it (callers check it), and its message. */
export interface LinkletReply<T = unknown> {
  status: number;
  data: T;
  message: string;
}

/** The headers that carry an API key, when there is one. */
export function keyHeaders(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { 'X-API-Key': apiKey } : {};
}

/**
 * One request to a Linklet server's v1 API (`path` is relative, e.g. `api/v1/me`): the one place
 * the extension and the web app send requests, read the envelope and turn failures into errors.
 * Resolves with a success envelope; rejects with `ApiError` (the server said no, with its own
 * message), `UnreachableError` (nobody answered in time) or `AnswerTooLargeError`.
 */
export async function callLinklet<T = unknown>(
  target: LinkletTarget,
  path: string,
  { method = 'GET', body, raw, maxBytes }: CallOptions = {},
): Promise<LinkletReply<T>> {
  // One deadline for the answer and its body: a server may send headers and then stall.
  const signal = AbortSignal.timeout(target.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const headers: Record<string, string> = { Accept: 'application/json', ...keyHeaders(target.apiKey) };
  if (raw !== undefined) headers['Content-Type'] = raw.contentType;
  else if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  let envelope: Awaited<ReturnType<typeof readEnvelope>>;
  try {
    response = await (target.fetch ?? fetch)(`${target.base}/${path}`, {
      method,
      headers,
      body: raw !== undefined ? raw.text : body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
    envelope = await readEnvelope(response, signal, maxBytes);
  } catch (error) {
    if (error instanceof AnswerTooLargeError) throw error;
    throw new UnreachableError(target.base, signal.aborted ? signal.reason : error);
  }
  if (!response.ok || envelope.status !== 'success') throw refusalOf(response.status, envelope);
  const message = typeof envelope.message === 'string' ? envelope.message : '';
  return { status: response.status, data: envelope.data as T, message };
}
