import type { MiddlewareHandler } from 'hono';
import type { AppEnv, Creator } from '../../env.js';
import { LinkletError } from '../errors.js';

/**
 * Whether the header values carry the server's API key, as `X-API-Key: <key>` or
 * `Authorization: Bearer <key>`. Compares every character, so the time taken does not reveal
 * how much of a guess was right.
 */
export function carriesApiKey(
  xApiKey: string | null | undefined,
  authorization: string | null | undefined,
  apiKey: string,
): boolean {
  const given = xApiKey ?? bearerTokenOf(authorization) ?? '';
  let difference = given.length ^ apiKey.length;
  for (let i = 0; i < apiKey.length; i++) difference |= (given.charCodeAt(i) || 0) ^ apiKey.charCodeAt(i);
  return difference === 0;
}

const BEARER = /^Bearer[ \t]+(\S.*)$/i;

/**
 * The token of `Authorization: Bearer <token>`; any other scheme (or a bare key with no scheme)
 * carries no key, so a key pasted into the wrong header is refused rather than guessed at.
 */
export function bearerTokenOf(authorization: string | null | undefined): string | undefined {
  if (authorization === null || authorization === undefined) return undefined;
  return BEARER.exec(authorization)?.[1];
}

/** The 401 of a request without the right key (one wording for creates and management alike). */
export function apiKeyRequired(): LinkletError {
  return new LinkletError(
    'unauthorized',
    'A valid API key is required; send it as X-API-Key or Authorization: Bearer.',
  );
}

/** Who may create and for whom (see `Creator`), or `'refused'` (see `createCreatorCheck`). */
export type CreatorCheck = (headers: Headers) => Promise<Creator | 'refused'>;

/**
 * Middleware of the create endpoints: the creator is known from the headers before the body is
 * read, so a refused key never costs a body read; the creator rides on `c.var.creator`.
 */
export function requireCreator(creatorOf: CreatorCheck): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const creator = await creatorOf(c.req.raw.headers);
    if (creator === 'refused') throw apiKeyRequired();
    c.set('creator', creator);
    await next();
  };
}
