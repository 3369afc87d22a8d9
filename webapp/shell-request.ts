/** What the service worker needs to know of a request. */
export interface RequestFacts {
  method: string;
  /** `navigate` for a page load (a `Request.mode`). */
  mode: string;
  url: string;
}

/**
 * The key under which the service worker keeps what `request` asks for, or undefined when it is
 * not part of the web app's shell: then the worker stays out of the way and the browser fetches
 * it as if there were no worker. That is everything but two things:
 *
 * - loading the page itself, the scope's own path, with any query (a share arrives as
 *   `?text=…`): the page kept without a query;
 * - a GET of one of the build's files (`files`, relative to the scope, as the build lists them):
 *   its own URL.
 *
 * Short URLs live beside the page (`/{code}`), inside the scope: they are neither, so a redirect
 * is never kept and a disabled link stops redirecting at once. So are API calls, the JSON at `/`
 * (not a page load) and anything a later server adds.
 */
export function shellKey(request: RequestFacts, scope: string, files: readonly string[]): string | undefined {
  if (request.method !== 'GET') return undefined;
  const url = new URL(request.url);
  const home = new URL(scope);
  if (url.origin !== home.origin) return undefined;
  if (url.pathname === home.pathname) return request.mode === 'navigate' ? home.href : undefined;
  if (url.search !== '') return undefined;
  return files.some((file) => new URL(file, home).href === url.href) ? url.href : undefined;
}
