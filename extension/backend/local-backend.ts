import { browser } from 'wxt/browser';
import type { FetchLike } from '../../client/fetch-like.js';
import type { FetchHandler } from '../../core/handler.js';
import { HEALTH_PATH, isApiPath } from '../../core/http/paths.js';
import { trimTrailingSlashes } from '../../core/rules/url.js';
import { isUnder, isWebUrl } from '../openable-url.js';

/** The extension's own origin, e.g. `chrome-extension://<id>`: the bundled backend's base URL. */
export function localBase(): string {
  return trimTrailingSlashes(browser.runtime.getURL('/'));
}

/**
 * Where local short links point. Chromium does not hand navigations to unknown extension paths
 * to the service worker, so a local link opens `open.html`, which resolves the code itself.
 */
export function openPageBase(): string {
  return `${browser.runtime.getURL('/open.html')}#`;
}

/**
 * A fetch for code that runs beside the handler (the background): requests to `origin` go to
 * the handler directly, because a service worker's own fetches never reach its fetch event.
 */
export function routeToHandler(handle: FetchHandler, origin: string, fallback: FetchLike = fetch): FetchLike {
  return (input, init) => (input.startsWith(`${origin}/`) ? handle(new Request(input, init)) : fallback(input, init));
}

/**
 * Which of the extension origin's requests the bundled backend answers: the API, the health
 * check and single-segment code paths. Everything else is one of the extension's own files
 * (popup.html, chunks/…, icon/…), which the browser must serve; a code never contains a dot or
 * a slash, so the two cannot collide.
 */
export function isBackendPath(pathname: string): boolean {
  if (isApiPath(pathname) || pathname === HEALTH_PATH) return true;
  return /^\/[^/.]+$/.test(pathname);
}

/**
 * Whether a short URL may be copied, QR-encoded or opened: a web URL, or this extension's own
 * page for local links. Checked where a URL leaves the extension, not only where it came in, so
 * a history written before the checks (or tampered with) cannot open `data:`, `file:` or
 * `chrome:` pages either.
 */
export function isOpenableShortUrl(url: string): boolean {
  return isWebUrl(url) || isUnder(url, openPageBase());
}
