import { ApiError, UnreachableError } from '../../client/api-errors.js';
import { LinkletError } from '../../core/errors.js';
import type { ExpireDuration } from '../../core/expiry.js';
import { type ApiLink, readApiLink } from './reply-checks.js';
import { readBoundedText } from '../../client/bounded-body.js';
import { SyncLimitError } from '../sync/sync-limits.js';

// The extension's modules take the errors from here, beside the client that throws them.
export { ApiError, UnreachableError };

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface ShortenInput {
  url: string;
  /** Absent or '' lets the backend generate one. */
  code?: string;
  expire: ExpireDuration;
}

/**
 * How long a request to a backend may take, answer body included. A server that accepts the
 * connection and never answers would otherwise leave the popup on "Shortening…" and hold up
 * every later sync while the worker lives.
 */
export const REQUEST_TIMEOUT_MS = 15_000;

/** Longer server messages are cut: every real Linklet message is far shorter. */
export const MAX_MESSAGE_LENGTH = 500;

export interface RequestOptions {
  /** Short URLs must lie under this base; the request's `base` when not given. */
  shortUrlBase?: string;
  timeoutMs?: number;
  /** An owner's API key: the server then records the link as theirs, so it syncs to their other browsers. */
  apiKey?: string;
}

/** The headers that carry an API key, when there is one. */
export function keyHeaders(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { 'X-API-Key': apiKey } : {};
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
  { shortUrlBase = base, timeoutMs = REQUEST_TIMEOUT_MS, apiKey }: RequestOptions = {},
): Promise<ApiLink> {
  const body = JSON.stringify({
    original_url: input.url,
    custom_code: input.code || undefined,
    expire_duration: input.expire,
  });
  // One deadline for the answer and its body: a server may send headers and then stall.
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  let envelope: Envelope;
  try {
    response = await fetchLike(`${base}/api/v1/shorten`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...keyHeaders(apiKey) },
      body,
      signal,
    });
    envelope = await readEnvelope(response, signal);
  } catch (error) {
    throw new UnreachableError(base, signal.aborted ? signal.reason : error);
  }
  if (response.status !== 201 || envelope.status !== 'success' || !envelope.data) {
    // The server's own words, cut short: a hostile one cannot flood the popup or the history.
    const message = typeof envelope.message === 'string' ? envelope.message.slice(0, MAX_MESSAGE_LENGTH) : undefined;
    throw new ApiError(response.status, message ?? `The server answered ${response.status}.`);
  }
  try {
    return readApiLink(envelope.data, { url: input.url, code: input.code, shortUrlBase });
  } catch (error) {
    if (error instanceof LinkletError) throw new ApiError(response.status, error.message);
    throw error;
  }
}

export interface Envelope {
  status?: unknown;
  message?: unknown;
  data?: unknown;
}

/**
 * The JSON body; a body that is not JSON gets a message. Rejects only when the deadline passed,
 * or with `SyncLimitError` when the body is over `maxBytes` (when given).
 */
export async function readEnvelope(response: Response, signal: AbortSignal, maxBytes?: number): Promise<Envelope> {
  try {
    const json: unknown =
      maxBytes === undefined ? await response.json() : JSON.parse(await readBoundedText(response, maxBytes));
    return typeof json === 'object' && json !== null ? (json as Envelope) : {};
  } catch (error) {
    if (signal.aborted || error instanceof SyncLimitError) throw error;
    return { message: `The server answered ${response.status} without a Linklet response; is this a Linklet server?` };
  }
}
