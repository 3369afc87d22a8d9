import type { ExpireDuration } from '../core/expiry.js';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface ShortenInput {
  url: string;
  /** Absent or '' lets the backend generate one. */
  code?: string;
  expire: ExpireDuration;
}

/** A link as the v1 API reports it. */
export interface ApiLink {
  shortUrl: string;
  originalUrl: string;
  code: string;
  expiresAt: number;
}

/** The backend answered with an error envelope: `message` is the API's own, shown as is. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** A server-side fault or overload: worth retrying later, unlike a refused input. */
  get retryable(): boolean {
    return this.status >= 500 || this.status === 429;
  }
}

/** The backend could not be reached at all (offline, refused, DNS, CORS). */
export class UnreachableError extends Error {
  constructor(base: string, cause: unknown) {
    super(`Could not reach ${base}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'UnreachableError';
  }
}

/**
 * Calls `POST {base}/api/v1/shorten`, the same request for the bundled backend and a companion
 * server. Resolves with the link, or rejects with `ApiError` (the backend said no) or
 * `UnreachableError` (nobody answered).
 */
export async function shortenVia(fetchLike: FetchLike, base: string, input: ShortenInput): Promise<ApiLink> {
  const body = JSON.stringify({
    original_url: input.url,
    custom_code: input.code || undefined,
    expire_duration: input.expire,
  });
  let response: Response;
  try {
    response = await fetchLike(`${base}/api/v1/shorten`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body,
    });
  } catch (error) {
    throw new UnreachableError(base, error);
  }
  const envelope = await readEnvelope(response);
  if (response.status !== 201 || envelope.status !== 'success' || !envelope.data) {
    throw new ApiError(response.status, envelope.message ?? `The server answered ${response.status}.`);
  }
  const { data } = envelope;
  return {
    shortUrl: data.short_url,
    originalUrl: data.original_url,
    code: data.code,
    expiresAt: Date.parse(data.expiration_date),
  };
}

interface Envelope {
  status?: string;
  message?: string;
  data?: { short_url: string; original_url: string; code: string; expiration_date: string };
}

async function readEnvelope(response: Response): Promise<Envelope> {
  try {
    return (await response.json()) as Envelope;
  } catch {
    return { message: `The server answered ${response.status} without a Linklet response; is this a Linklet server?` };
  }
}
