import type { Answer } from '../http/answer.js';
import { SECURITY_HEADERS } from '../http/security-headers.js';
import { APP_HEADERS, type WebAppFiles } from './web-app.js';

/**
 * Where the service worker is served: beside the page, so its scope (the folder of its script) is
 * the web app's path and nothing above it, under a BASE_URL with a path prefix too. A dot is in
 * the name, so no code can ever be it (SPEC "Codes").
 */
export const WEB_APP_WORKER_PATH = '/sw.js';

/** Where the web app manifest is served (the page links it as `./manifest.webmanifest`). */
export const WEB_APP_MANIFEST_PATH = '/manifest.webmanifest';

/**
 * The service worker script. `no-cache`: a browser checks for a new worker at each visit anyway,
 * but an HTTP cache in between must not hold an old one, which would keep an old build's page.
 * It runs as the web app does, so it gets the app's policy (`default-src 'self'`), which lets it
 * fetch the page and assets it keeps.
 */
export function webAppWorker(files: WebAppFiles): Answer | undefined {
  if (files.worker === undefined) return undefined;
  return {
    status: 200,
    headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache', ...APP_HEADERS },
    body: files.worker,
  };
}

/**
 * The web app manifest: name, icons, colours, and `share_target`, which makes "Share → Linklet"
 * on a phone open the page with the shared URL. Its own media type (browsers take JSON too, but
 * the manifest spec names this one); `no-cache` so a new build's icons are seen at once.
 */
export function webAppManifest(files: WebAppFiles): Answer | undefined {
  if (files.manifest === undefined) return undefined;
  return {
    status: 200,
    headers: { 'Content-Type': 'application/manifest+json', 'Cache-Control': 'no-cache', ...SECURITY_HEADERS },
    body: files.manifest,
  };
}
