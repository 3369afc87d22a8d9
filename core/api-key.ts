import { LinkletError } from './errors.js';

/**
 * Whether a request carries the server's API key, as `X-API-Key: <key>` or
 * `Authorization: Bearer <key>`. Compares every character, so the time taken does not reveal
 * how much of a guess was right.
 */
export function hasApiKey(request: Request, apiKey: string): boolean {
  return carriesApiKey(request.headers.get('x-api-key'), request.headers.get('authorization'), apiKey);
}

/** `hasApiKey` on the two header values themselves, for an adapter without a `Request`. */
export function carriesApiKey(
  xApiKey: string | null | undefined,
  authorization: string | null | undefined,
  apiKey: string,
): boolean {
  const given = xApiKey ?? authorization?.replace(/^Bearer\s+/i, '') ?? '';
  let difference = given.length ^ apiKey.length;
  for (let i = 0; i < apiKey.length; i++) difference |= (given.charCodeAt(i) || 0) ^ apiKey.charCodeAt(i);
  return difference === 0;
}

/** The 401 of a request without the right key. */
export function apiKeyRequired(): LinkletError {
  return new LinkletError('unauthorized', 'A valid API key is required; send it in the X-API-Key header.');
}
