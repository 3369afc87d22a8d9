import { ApiError, UnreachableError } from '../client/api-errors.js';
import { type CallOptions, callLinklet, type LinkletReply } from '../client/call-linklet.js';
import { trimTrailingSlashes } from '../core/rules/url.js';

export { linkPath } from '../client/link-path.js';
export { ApiError, UnreachableError };

/**
 * Calls the Linklet API of the server that served this page (see `callLinklet`). Paths are
 * relative (`api/v1/…`) and resolved against the page, so the app works under a BASE_URL with a
 * path prefix.
 */
export function callApi<T>(
  path: string,
  { key, timeoutMs, ...options }: CallOptions & { key?: string | undefined; timeoutMs?: number } = {},
): Promise<LinkletReply<T>> {
  const base = trimTrailingSlashes(new URL('.', document.baseURI).href);
  return callLinklet<T>({ base, apiKey: key, timeoutMs }, path, options);
}
