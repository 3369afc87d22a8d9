/**
 * Whether a request carries the server's API key, as `X-API-Key: <key>` or
 * `Authorization: Bearer <key>`. Compares every character, so the time taken does not reveal
 * how much of a guess was right.
 */
export function hasApiKey(request: Request, apiKey: string): boolean {
  const given =
    request.headers.get('x-api-key') ?? request.headers.get('authorization')?.replace(/^Bearer\s+/i, '') ?? '';
  let difference = given.length ^ apiKey.length;
  for (let i = 0; i < apiKey.length; i++) difference |= (given.charCodeAt(i) || 0) ^ apiKey.charCodeAt(i);
  return difference === 0;
}
