import { formatLegacyDate } from './dates.js';
import { codeTakenMessage, toErrorEnvelope, toLegacyEnvelope, toV1Envelope } from './envelopes.js';
import { LinkletError } from './errors.js';
import { parseJsonText } from './parse-json-text.js';
import { SECURITY_HEADERS } from './security-headers.js';
import { type ShortenDeps, shorten } from './shorten.js';
import { parseShortenBody } from './shorten-request.js';

/**
 * An API answer as plain data. The fetch handler sends it through Hono; the server's Node fast
 * path for creates writes it straight to the socket. Both send exactly this, so what a shorten
 * request answers is decided here and nowhere else.
 */
export interface ApiAnswer {
  status: number;
  /**
   * Header names as sent, the security headers included; the adapter adds `API_CORS_HEADERS` (on
   * API paths) and `Content-Length`.
   */
  headers: Record<string, string>;
  body: string;
}

/** What every actual (not preflight) API response carries, so any site's script can read it. */
export const API_CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Location',
});

export type ApiDialect = 'legacy' | 'v1';

/**
 * Turns a shorten request's body text into its answer; a refusal is thrown as a `LinkletError`.
 * `ownerId`: the owner whose key made the request (the link is theirs).
 */
export type ShortenAnswerer = (dialect: ApiDialect, bodyText: string, ownerId?: number) => Promise<ApiAnswer>;

const jsonAnswer = (status: number, value: unknown, headers: Record<string, string>): ApiAnswer => ({
  status,
  headers: { 'Content-Type': 'application/json', ...headers, ...SECURITY_HEADERS },
  body: JSON.stringify(value),
});

/**
 * The shorten use case of both API dialects, from body text to answer: the legacy dialect
 * answers 200 and names the moment a taken code frees up in its 409; v1 answers 201 with a
 * `Location`.
 */
export function createShortenAnswerer(deps: ShortenDeps, baseUrl: string, timeZone: string): ShortenAnswerer {
  return async (dialect, bodyText, ownerId) => {
    const result = await shorten(parseShortenBody(parseJsonText(bodyText)), deps, ownerId);
    if (!result.created) {
      const availableAt = dialect === 'legacy' ? formatLegacyDate(result.availableAt, timeZone) : undefined;
      throw new LinkletError('conflict', codeTakenMessage(result.code, availableAt));
    }
    if (dialect === 'legacy') return jsonAnswer(200, toLegacyEnvelope(result.link, baseUrl, timeZone), {});
    const envelope = toV1Envelope(result.link, baseUrl);
    return jsonAnswer(201, envelope, { Location: new URL(envelope.data.short_url).href });
  };
}

/** The answer to a refused or failed API request; anything but a `LinkletError` is a bare 500. */
export function errorAnswer(error: unknown): ApiAnswer {
  const known =
    error instanceof LinkletError
      ? error
      : new LinkletError('internal', 'Internal server error; the server log has the details.');
  const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
  if (known.allow) headers.Allow = known.allow.join(', ');
  if (known.retryAfterSeconds !== undefined) headers['Retry-After'] = String(known.retryAfterSeconds);
  return jsonAnswer(known.status, toErrorEnvelope(known.message), headers);
}
